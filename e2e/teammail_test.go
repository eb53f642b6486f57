package e2e

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pquerna/otp/totp"

	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// formClient is a browser without a browser: a cookie jar, same-origin forms, no redirects
// followed. For the tests of what the dashboard sends, not of how it looks.
type formClient struct {
	t    *testing.T
	base string
	hc   *http.Client
}

func newFormClient(t *testing.T, base string) *formClient {
	jar, _ := cookiejar.New(nil)
	return &formClient{t: t, base: base, hc: &http.Client{Jar: jar, Timeout: actionTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

var csrfRe = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// do sends a request and returns its status and body.
func (c *formClient) do(method, path string, form url.Values) (int, string) {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Accept", "text/html")
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", c.base)
	}
	res, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// post posts a dashboard form with the session's token, read from page.
func (c *formClient) post(page, path string, form url.Values) int {
	c.t.Helper()
	_, html := c.do(http.MethodGet, page, nil)
	m := csrfRe.FindStringSubmatch(html)
	if m == nil {
		c.t.Fatalf("no form token on %s", page)
	}
	form.Set("csrf_token", m[1])
	code, _ := c.do(http.MethodPost, path, form)
	return code
}

// checkMail checks a received team e-mail: its recipient, a subject with want, and both
// parts saying each of says.
func checkMail(t *testing.T, m mailtest.Received, to, subject string, says ...string) {
	t.Helper()
	if len(m.To) != 1 || m.To[0] != to || !strings.Contains(m.Subject, subject) || m.Header.Get("Message-Id") == "" {
		t.Errorf("e-mail to %v, subject %q; want to %s, %q", m.To, m.Subject, to, subject)
	}
	for _, s := range says {
		if !strings.Contains(m.Text, s) || !strings.Contains(m.HTML, s) {
			t.Errorf("the e-mail %q does not say %q in both parts:\n%s", m.Subject, s, m.Text)
		}
	}
}

// TestTeamMessagesByEmail: the team's e-mails reach the real SMTP server and read right: an
// invitation (the link, its expiry, who invited, the role), the notice of a changed role, of
// a removal, and of two-factor sign-in turned off.
func TestTeamMessagesByEmail(t *testing.T) {
	t.Parallel()
	smtp := mailtest.Start(t)
	a := startApp(t, appOptions{smtp: smtp})
	a.addMerchant(t)
	ctx := context.Background()
	acc := a.app.Accounts()
	c := newFormClient(t, a.url)
	if code, _ := c.do(http.MethodPost, "/dashboard/login", url.Values{"email": {merchantEmail}, "password": {merchantPassword}}); code != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", code)
	}

	if code := c.post("/dashboard/users", "/dashboard/users", url.Values{"email": {"dev@loja.example"}, "role": {"developer"}}); code != http.StatusCreated {
		t.Fatalf("the invitation: %d", code)
	}
	inv := smtp.Next(t, actionTimeout)
	checkMail(t, inv, "dev@loja.example", "Convite para o painel", merchantEmail, "Desenvolvedor", a.url+"/dashboard/invite/")
	if !regexp.MustCompile(`vale até \d\d/\d\d/\d{4}`).MatchString(inv.Text) {
		t.Errorf("the invitation does not say its expiry: %q", inv.Text)
	}

	bia, err := acc.AddUser(ctx, "bia@loja.example", "tres-palavras-soltas", team.RoleOperator)
	if err != nil {
		t.Fatal(err)
	}
	if code := c.post("/dashboard/users", "/dashboard/users/"+bia.ID+"/role", url.Values{"role": {"viewer"}}); code != http.StatusSeeOther {
		t.Fatalf("the role change: %d", code)
	}
	checkMail(t, smtp.Next(t, actionTimeout), bia.Email, "papel", merchantEmail, "Leitor")
	if code := c.post("/dashboard/users", "/dashboard/users/"+bia.ID+"/remove", url.Values{}); code != http.StatusSeeOther {
		t.Fatalf("the removal: %d", code)
	}
	checkMail(t, smtp.Next(t, actionTimeout), bia.Email, "removido", merchantEmail)

	owner, err := acc.UserByEmail(ctx, merchantEmail)
	if err != nil {
		t.Fatal(err)
	}
	enrol, err := acc.NewTOTP(owner, "Loja")
	if err != nil {
		t.Fatal(err)
	}
	code, err := totp.GenerateCode(enrol.Secret, a.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acc.EnableTOTP(ctx, owner, enrol.Secret, code); err != nil {
		t.Fatal(err)
	}
	if code := c.post("/dashboard/account", "/dashboard/account/2fa/disable", url.Values{"current_password": {merchantPassword}}); code != http.StatusSeeOther {
		t.Fatalf("turning two-factor sign-in off: %d", code)
	}
	checkMail(t, smtp.Next(t, actionTimeout), merchantEmail, "duas etapas", "desligada", a.url+"/dashboard/login")
}
