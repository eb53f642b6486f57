package app_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

var firstPassword = regexp.MustCompile(`first dashboard user: (\S+)\n\s+password \(shown only now\): (\S+)\n`)

// signIn posts the dashboard's sign-in and returns the session cookie's value.
func (r *running) signIn(email, password string) string {
	r.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.app.URL()+"/dashboard/login",
		strings.NewReader(url.Values{"email": {email}, "password": {password}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("sign-in as %s: %d", email, res.StatusCode)
	}
	for _, c := range res.Cookies() {
		if c.Name == dashboard.Cookie {
			return c.Value
		}
	}
	r.t.Fatal("no session cookie after signing in")
	return ""
}

// dashboardStatus is the status of GET path with the session cookie, as an API client.
func (r *running) dashboardStatus(path, token string) int {
	r.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, r.app.URL()+path, nil)
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestFirstUserAndPersistentSessions: the first start makes admin@localhost with a random
// password shown once in the banner; a restart shows none, and the session opened before it
// still works (sessions live in the database).
func TestFirstUserAndPersistentSessions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var banner strings.Builder
	r := start(t, func(c *app.Config) { c.Stdout = &banner; c.DataDir = dir })
	m := firstPassword.FindStringSubmatch(banner.String())
	if m == nil || m[1] != "admin@localhost" || !strings.Contains(banner.String(), "dashboard:") {
		t.Fatalf("banner %q", banner.String())
	}
	token := r.signIn("admin@localhost", m[2])
	if got := r.dashboardStatus("/dashboard/deposits", token); got != http.StatusOK {
		t.Fatalf("dashboard with the session: %d", got)
	}
	if got := r.dashboardStatus("/dashboard/deposits", "forged"); got != http.StatusUnauthorized {
		t.Errorf("dashboard with a forged session: %d", got)
	}
	r.stop()
	r.app.Close()

	banner.Reset()
	r2 := start(t, func(c *app.Config) { c.Stdout = &banner; c.DataDir = dir })
	if strings.Contains(banner.String(), "password") {
		t.Errorf("a restart printed a password: %q", banner.String())
	}
	if got := r2.dashboardStatus("/dashboard/deposits", token); got != http.StatusOK {
		t.Errorf("the session did not survive the restart: %d", got)
	}
}

// TestConfiguredAdmin: CHECKOUT_ADMIN_EMAIL and _PASSWORD make the first user; nothing is
// printed.
func TestConfiguredAdmin(t *testing.T) {
	t.Parallel()
	var banner strings.Builder
	r := start(t, func(c *app.Config) {
		c.Stdout = &banner
		c.AdminEmail, c.AdminPassword = "dona@loja.example", "senha-configurada"
	})
	if strings.Contains(banner.String(), "senha-configurada") || firstPassword.MatchString(banner.String()) {
		t.Errorf("banner %q", banner.String())
	}
	r.signIn("dona@loja.example", "senha-configurada")
	users, err := r.app.Accounts().Users(t.Context())
	if err != nil || len(users) != 1 {
		t.Errorf("users %v, %v; want only the configured one", users, err)
	}
}

// TestSessionsSharedOnPostgreSQL: two instances on one PostgreSQL database share sessions: a
// sign-in on one opens the dashboard on the other, and a sign-out on one closes it on both.
func TestSessionsSharedOnPostgreSQL(t *testing.T) {
	t.Parallel()
	dbURL := postgresDatabase(t)
	cfg := func(c *app.Config) {
		c.DatabaseURL = dbURL
		c.AdminEmail, c.AdminPassword = "dona@loja.example", "senha-configurada"
	}
	a, b := start(t, cfg), start(t, cfg)
	token := a.signIn("dona@loja.example", "senha-configurada")
	if got := b.dashboardStatus("/dashboard/withdrawals", token); got != http.StatusOK {
		t.Fatalf("the other instance: %d", got)
	}
	users, _ := b.app.Accounts().Users(t.Context())
	if len(users) != 1 {
		t.Errorf("%d users after two starts, want 1", len(users))
	}
	// Signing out on b ends the session on a too.
	req, _ := http.NewRequest(http.MethodGet, b.app.URL()+"/dashboard/deposits?perPage=1", nil)
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	res, err := b.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	csrf, _ := doc.Find(`input[name="csrf_token"]`).Attr("value")
	req, _ = http.NewRequest(http.MethodPost, b.app.URL()+"/dashboard/logout", strings.NewReader(url.Values{"csrf_token": {csrf}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	if res, err = b.http.Do(req); err != nil || res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out: %v %v", res, err)
	}
	res.Body.Close()
	if got := a.dashboardStatus("/dashboard/withdrawals", token); got != http.StatusUnauthorized {
		t.Errorf("after signing out on the other instance: %d", got)
	}
}
