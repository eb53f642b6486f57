package app_test

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// The owner of the point of sale's tests.
const (
	posOwner    = "dona@padaria.example"
	posPassword = "senha-do-caixa-2026"
)

// dashboardPost posts form (with a CSRF token read from csrfPage) to a dashboard path, signed in
// with token, and returns the answer, its body read.
func (r *running) dashboardPost(path, csrfPage, token string, form url.Values) (*http.Response, *goquery.Document) {
	r.t.Helper()
	form.Set("csrf_token", r.dashboardForm(csrfPage, token))
	req, _ := http.NewRequest(http.MethodPost, r.app.URL()+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatalf("POST %s: %v", path, err)
	}
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	return res, doc
}

// pairDisplay asks a pairing code for terminal on r as the owner signed in with token, types it
// on a new display of pairOn and returns the display's cookie.
func pairDisplay(t testing.TB, r, pairOn *running, token, terminal string) *http.Cookie {
	t.Helper()
	res, doc := r.dashboardPost("/dashboard/pos/displays/code", "/dashboard/pos/displays", token, url.Values{pos.FieldTerminalID: {terminal}})
	code := strings.TrimSpace(doc.Find(`[data-testid="display-pairing-code"]`).Text())
	if res.StatusCode != http.StatusOK || len(code) != pos.CodeDigits {
		t.Fatalf("a pairing code: %d, %q", res.StatusCode, code)
	}
	res, err := pairOn.http.PostForm(pairOn.app.URL()+web.DisplayPath, url.Values{pos.FieldCode: {code}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for _, c := range res.Cookies() {
		if c.Name == web.DisplayCookie && res.StatusCode == http.StatusSeeOther {
			return c
		}
	}
	t.Fatalf("pairing: %d, no display cookie", res.StatusCode)
	return nil
}

// displayStream opens a paired display's event stream and returns its data lines; the channel
// is closed when the stream ends.
func displayStream(t testing.TB, r *running, cookie *http.Cookie) <-chan string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, r.app.URL()+web.DisplayPath+"/events", nil)
	req.AddCookie(cookie)
	res, err := (&http.Client{}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		t.Fatalf("the display's stream: %d", res.StatusCode)
	}
	t.Cleanup(func() { res.Body.Close() })
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if l, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines <- l
			}
		}
	}()
	return lines
}

// TestRevokedDisplayStreamEnds: an owner revokes a paired display through the dashboard; the
// display's open stream says it is unpaired and ends within two seconds (its heartbeat is 15 s
// away), and the display's page, loaded again with its cookie, is the pairing form. On SQLite,
// and on PostgreSQL with the display on another instance than the owner's, which only the
// change feed tells.
func TestRevokedDisplayStreamEnds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		postgres bool
	}{{"sqlite", false}, {"postgres", true}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := func(c *app.Config) { c.ReconcileInterval, c.AdminEmail, c.AdminPassword = 0, posOwner, posPassword }
			if tc.postgres {
				dbURL := postgresDatabase(t)
				base := cfg
				cfg = func(c *app.Config) { base(c); c.DatabaseURL = dbURL }
			}
			owners := start(t, cfg)
			display := owners
			if tc.postgres {
				display = start(t, cfg)
			}
			token := owners.signIn(posOwner, posPassword)
			terminals, err := owners.app.Displays().Terminals(context.Background())
			if err != nil || len(terminals) == 0 {
				t.Fatalf("terminals: %v, %v", terminals, err)
			}
			cookie := pairDisplay(t, owners, display, token, terminals[0].ID)
			lines := displayStream(t, display, cookie)
			if first := <-lines; !strings.Contains(first, `"state":"`+pos.ShowIdle+`"`) {
				t.Fatalf("the display's first message: %q", first)
			}
			list, err := owners.app.Displays().List(context.Background())
			if err != nil || len(list) != 1 {
				t.Fatalf("displays: %v, %v", list, err)
			}
			revoked := time.Now()
			res, _ := owners.dashboardPost("/dashboard/pos/displays/"+list[0].ID+"/revoke", "/dashboard/pos/displays", token, url.Values{})
			if res.StatusCode != http.StatusSeeOther {
				t.Fatalf("revoking: %d", res.StatusCode)
			}
			deadline := time.After(2 * time.Second)
			var last string
		wait:
			for {
				select {
				case l, ok := <-lines:
					if !ok {
						break wait
					}
					last = l
				case <-deadline:
					t.Fatalf("the revoked display's stream still open %v after the revocation (last message %q)", time.Since(revoked), last)
				}
			}
			if last != `{"state":"`+pos.ShowUnpaired+`"}` {
				t.Errorf("the stream's last message: %q, want the unpaired state", last)
			}
			req, _ := http.NewRequest(http.MethodGet, display.app.URL()+web.DisplayPath, nil)
			req.AddCookie(cookie)
			page, err := display.http.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := goquery.NewDocumentFromReader(page.Body)
			page.Body.Close()
			if err != nil || doc.Find(`[data-testid="display-code"]`).Length() != 1 {
				t.Errorf("the revoked display's page is not the pairing form (%d, %v)", page.StatusCode, err)
			}
		})
	}
}
