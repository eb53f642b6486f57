package sandbox

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// The console speaks pt-BR by default, English with ?lang=en or Accept-Language: en; its
// <html lang> follows; the switch offers both; a form posted from a page opened with
// ?lang=en carries the language and its redirect keeps it.
func TestConsoleLanguage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	e.createTx(e.token(), "console-lang-1", 990)
	mux := http.NewServeMux()
	mux.Handle("/sandbox/gateway/", http.StripPrefix("/sandbox/gateway", e.sb))
	mounted := httptest.NewServer(mux)
	defer mounted.Close()
	base := mounted.URL + "/sandbox/gateway/sandbox/"
	c := browser(t)

	get := func(u, acceptLang string) *goquery.Document {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if acceptLang != "" {
			req.Header.Set("Accept-Language", acceptLang)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		doc, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	want := func(doc *goquery.Document, lang, submit, where string) {
		t.Helper()
		if got, _ := doc.Find("html").Attr("lang"); got != lang {
			t.Errorf("%s: <html lang=%q>, want %q", where, got, lang)
		}
		if got := strings.TrimSpace(doc.Find(`[data-testid="console-login"] button`).Text()); got != submit {
			t.Errorf("%s: sign-in button %q, want %q", where, got, submit)
		}
		for l, name := range map[string]string{"pt-BR": "Português", "en": "English"} {
			a := doc.Find(`nav a[lang="` + l + `"]`)
			if href, _ := a.Attr("href"); href != "./?lang="+l || strings.TrimSpace(a.Text()) != name {
				t.Errorf("%s: switch to %s: %q %q", where, l, href, a.Text())
			}
		}
	}
	want(get(base, ""), "pt-BR", "Entrar", "default")
	want(get(base, "fr-FR, pt;q=0.8"), "pt-BR", "Entrar", "Accept-Language: pt")
	want(get(base+"?lang=en", "pt-BR"), "en", "Sign in", "?lang=en")
	want(get(base, "en-GB,en;q=0.9"), "en", "Sign in", "Accept-Language: en")
	want(get(base+"?lang=pt-BR", "en"), "pt-BR", "Entrar", "?lang=pt-BR over Accept-Language")

	// Signing in from the English page: the form carries lang, the redirect keeps it.
	doc := get(base+"?lang=en", "")
	if v, _ := doc.Find(`[data-testid="console-login"] input[name="lang"]`).Attr("value"); v != "en" {
		t.Fatalf("the sign-in form does not carry lang: %q", v)
	}
	res, err := c.PostForm(base+"login", url.Values{"client_id": {testClientID}, "client_secret": {testSecret}, "lang": {"en"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || loc != "./?lang=en" {
		t.Fatalf("sign-in from the English page: %d to %q", res.StatusCode, loc)
	}
	doc = get(base+"?lang=en", "")
	row := doc.Find(`[data-testid="sandbox-deposit-row"]`)
	form := row.Find(`form`).First()
	if v, _ := form.Find(`input[name="lang"]`).Attr("value"); v != "en" || row.Find(`button:contains("pay")`).Length() != 1 {
		t.Fatalf("English console: lang field %q, row %q", v, row.Text())
	}
	action, _ := form.Attr("action")
	res, err = c.PostForm(base+action, url.Values{"lang": {"en"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || loc != "../../../?lang=en" {
		t.Fatalf("a control from the English page: %d to %q", res.StatusCode, loc)
	}
	// A refused form (not an integer) answers in English too.
	res, err = c.PostForm(base+"console/clock", url.Values{"seconds": {"x"}, "lang": {"en"}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err = goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := doc.Find("html").Attr("lang"); got != "en" || !strings.Contains(doc.Find("h2").First().Text(), "Recent deposits") {
		t.Fatalf("refused form from the English page: lang %q, %q", got, doc.Find("h2").First().Text())
	}

	// Without a chosen language, the Portuguese console, and redirects add nothing.
	doc = get(base, "")
	if got := doc.Find("h2").First().Text(); got != "Depósitos recentes" ||
		doc.Find(`[data-testid="sandbox-deposit-row"] button:contains("estornar")`).Length() != 1 ||
		doc.Find(`input[name="lang"]`).Length() != 0 {
		t.Fatalf("Portuguese console: %q %q", got, doc.Find(`[data-testid="sandbox-deposit-row"]`).Text())
	}
	res, err = c.PostForm(base+"logout", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); loc != "./" {
		t.Fatalf("logout without a chosen language: %q", loc)
	}
}

// TestConsoleCatalogue: every text is there in both languages, and every key the console uses
// (literally in its sources, or built from a control's label or a delivery status) exists.
func TestConsoleCatalogue(t *testing.T) {
	t.Parallel()
	for k, m := range consoleMessages {
		for _, l := range consoleLangs {
			if m.in(l) == "" {
				t.Errorf("%s lacks %q", l, k)
			}
		}
	}
	var used []string
	call := regexp.MustCompile(`\bt\("([^"]+)"`)
	for _, f := range []string{"console.templ", "console.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			if !strings.HasSuffix(m[1], ".") { // a prefix: its keys are listed below
				used = append(used, m[1])
			}
		}
	}
	if len(used) < 30 {
		t.Fatalf("found only %d keys in the sources: has the lookup changed name?", len(used))
	}
	for _, c := range depositControls {
		used = append(used, "action."+c.label)
	}
	for _, st := range []string{outbox.StatusPending, outbox.StatusDelivered, outbox.StatusDead, outbox.StatusSkipped} {
		used = append(used, "delivery."+st)
	}
	for _, k := range used {
		if _, ok := consoleMessages[k]; !ok {
			t.Errorf("the catalogue lacks %q, used by the console", k)
		}
	}
}
