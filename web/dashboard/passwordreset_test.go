package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// askReset posts the reset request form of a fresh browser for email and returns the page it
// ends on (address and text): the one answer, whoever asks.
func askReset(t *testing.T, e *env, email string) string {
	t.Helper()
	b := e.browser()
	_, doc := b.get("/dashboard/login")
	if href := doc.Find(testid("forgot-password")).AttrOr("href", ""); href != "/dashboard/password-reset" {
		t.Fatalf("the sign-in's forgotten password link: %q", href)
	}
	_, doc = b.get("/dashboard/password-reset")
	tok := doc.Find(testid("reset-request-form")+` input[name="csrf_token"]`).AttrOr("value", "")
	if doc.Find(`label[for="reset-email"]`).Length() != 1 || tok == "" {
		t.Fatal("the request form has no labelled e-mail or no token")
	}
	loc := e.location(b.do(http.MethodPost, "/dashboard/password-reset", url.Values{"email": {email}, "csrf_token": {tok}}))
	res, doc := b.get(loc)
	if res.StatusCode != http.StatusOK || doc.Find(testid("reset-sent")+`[role="status"]`).Length() != 1 {
		t.Fatalf("the answer to a reset request: %d %q", res.StatusCode, doc.Text())
	}
	return loc + " " + doc.Find(testid("reset-request")).Text()
}

// TestPasswordResetFlow: the request answers the same for a user and a stranger and needs
// the form's token; the link sets a new password once, ends the user's sessions, leaves the
// second factor on, is audited, and is refused a second time and after an hour.
func TestPasswordResetFlow(t *testing.T) {
	clock := sandbox.NewManualClock(time.Now().UTC().Truncate(time.Second))
	e := newEnv(t, withClock(clock))
	ctx := context.Background()
	old := e.browser()
	enrolTOTP(t, e, old, old.login())

	if user, stranger := askReset(t, e, dashEmail), askReset(t, e, "ninguem@loja.example"); user != stranger {
		t.Errorf("the answers differ:\n%s\n%s", user, stranger)
	}
	if res := e.browser().do(http.MethodPost, "/dashboard/password-reset", url.Values{"email": {dashEmail}}); res.StatusCode != http.StatusForbidden {
		t.Errorf("a request without the form's token: %d", res.StatusCode)
	}
	asked, err := e.dash.audit.Entries(ctx, audit.Filter{Action: audit.PasswordResetAsked})
	if err != nil || len(asked) != 1 || asked[0].Actor != dashEmail {
		t.Errorf("the audited requests: %+v, %v; want the user's one", asked, err)
	}

	req, err := e.dash.accounts.RequestPasswordReset(ctx, dashEmail, "192.0.2.1", nil)
	if err != nil || req == nil {
		t.Fatalf("RequestPasswordReset = %v, %v", req, err)
	}
	link := "/dashboard/password-reset/" + req.Token
	b := e.browser()
	res, doc := b.get(link)
	if res.StatusCode != http.StatusOK || !strings.Contains(doc.Find("main").Text(), dashEmail) {
		t.Fatalf("the link's page: %d", res.StatusCode)
	}
	res, doc = b.post(link, url.Values{"password": {"tres-palavras-soltas"}, "password_confirm": {"outra"}})
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(testid("field-error")).Length() != 1 {
		t.Errorf("differing passwords: %d", res.StatusCode)
	}
	const newPassword = "tres-palavras-soltas"
	if loc := e.location(b.do(http.MethodPost, link, url.Values{"password": {newPassword}, "password_confirm": {newPassword}})); loc != "/dashboard/login?reset=1" {
		t.Errorf("after the reset: %q", loc)
	}
	if res := old.do(http.MethodGet, "/dashboard/orders", nil); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/dashboard/login") {
		t.Errorf("a session from before the reset: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	if loc := e.location(b.do(http.MethodPost, "/dashboard/login", url.Values{"email": {dashEmail}, "password": {newPassword}})); loc != "/dashboard/login/2fa" {
		t.Errorf("signing in with the new password went to %q; want the second factor", loc)
	}
	if res := b.do(http.MethodGet, link, nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("the link a second time: %d", res.StatusCode)
	}
	done, err := e.dash.audit.Entries(ctx, audit.Filter{Action: audit.PasswordReset})
	if err != nil || len(done) != 1 || done[0].Detail != audit.DetailResetLink {
		t.Errorf("the audited reset: %+v, %v", done, err)
	}

	late, err := e.dash.accounts.RequestPasswordReset(ctx, dashEmail, "192.0.2.2", nil)
	if err != nil || late == nil {
		t.Fatalf("RequestPasswordReset = %v, %v", late, err)
	}
	clock.Advance(time.Hour)
	if res := b.do(http.MethodGet, "/dashboard/password-reset/"+late.Token+"?lang=en", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("a link an hour old: %d", res.StatusCode)
	}
}

// TestResetLinkHiddenInMailLog: a reset e-mail's link signs in as its recipient, so the e-mail
// log shows its body to no one, an owner with the personal-data right included.
func TestResetLinkHiddenInMailLog(t *testing.T) {
	e := newEnv(t)
	askReset(t, e, dashEmail)
	es, err := e.mailLog.List(context.Background(), mail.Filter{To: dashEmail})
	if err != nil || len(es) != 1 {
		t.Fatalf("the reset e-mail in the log: %+v, %v", es, err)
	}
	id := strconv.FormatInt(es[0].ID, 10)
	b := e.browser()
	b.login()
	res, doc := b.get("/dashboard/mail/" + id)
	if res.StatusCode != http.StatusOK || doc.Find(testid("mail-text")).Length() != 0 ||
		strings.Contains(doc.Text(), "/dashboard/password-reset/") || doc.Find(testid("mail-masked")).Length() != 1 {
		t.Errorf("the reset e-mail's page shows its body: %d %q", res.StatusCode, doc.Find("main").Text())
	}
	if res, _ := b.get("/dashboard/mail/" + id + "/html"); res.StatusCode != http.StatusNotFound {
		t.Errorf("the reset e-mail's HTML: %d, want 404", res.StatusCode)
	}
}
