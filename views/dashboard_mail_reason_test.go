package views

import "testing"

// TestMailReason: the reasons the product itself gives for a message not sent are in the
// user's language; a server's reply is as it came.
func TestMailReason(t *testing.T) {
	p := DashPage{Page: Page{Lang: PtBR}}
	for _, c := range []struct{ state, reason, want string }{
		{"notsent", "no SMTP server configured", "não enviado: nenhum servidor SMTP configurado"},
		{"notsent", "charge paid", "não enviado: a cobrança já estava paga ou cancelada"},
		{"notsent", "charge canceled", "não enviado: a cobrança já estava paga ou cancelada"},
		{"failed", "charge paid", "charge paid"},
		{"failed", "550 mailbox unavailable", "550 mailbox unavailable"},
	} {
		if got := mailReason(p, c.state, c.reason); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.state, c.reason, got, c.want)
		}
	}
}
