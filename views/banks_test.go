package views

import "testing"

// A known ISPB is named beside its code; an unknown one stays a code. A User-Agent is said as
// browser and system, in the page's language; an unknown one is kept as it is.
func TestBankAndBrowserInWords(t *testing.T) {
	if got := BankText("30306294"); got != "BTG Pactual (30306294)" {
		t.Errorf("BankText(30306294) = %q", got)
	}
	if got := BankText("12345678"); got != "12345678" {
		t.Errorf("BankText(12345678) = %q", got)
	}
	for _, c := range []struct {
		lang     Lang
		ua, want string
	}{
		{PtBR, "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36", "Chrome no Android"},
		{En, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "Safari on iOS"},
		{PtBR, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0", "Edge no Windows"},
		{PtBR, "curl/8.5.0", "curl/8.5.0"},
	} {
		if got := UserAgentText(c.lang, c.ua); got != c.want {
			t.Errorf("UserAgentText(%s, %q) = %q, want %q", c.lang, c.ua, got, c.want)
		}
	}
}
