package e2e

import (
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
)

// resetLinkRe finds a reset link in a received e-mail.
var resetLinkRe = regexp.MustCompile(`https?://[^\s"<>]+/dashboard/password-reset/[A-Za-z0-9_-]+`)

// askReset asks for a reset link for email through the sign-in's "Esqueci minha senha" and
// returns the answer's text.
func askReset(s *session, d dashboard, email string) string {
	s.t.Helper()
	s.open(d.url + "/dashboard/login")
	s.check(d.testID("forgot-password").Click(), "follow Esqueci minha senha")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/password-reset$`)), "the reset request page")
	s.check(s.page.GetByLabel("E-mail").Fill(email), "fill the e-mail")
	s.check(d.testID("reset-request-submit").Click(), "ask for the link")
	s.check(s.expect.Locator(d.testID("reset-sent")).ToBeVisible(), "the answer")
	text, err := d.testID("reset-sent").TextContent()
	s.check(err, "read the answer")
	return text
}

// resetLinkOf checks a received reset e-mail (to, subject, both parts) and returns its link.
func resetLinkOf(t *testing.T, m mailtest.Received, to, base string) string {
	t.Helper()
	if len(m.To) != 1 || m.To[0] != to || !strings.Contains(m.Subject, "Nova senha") || !m.TLS {
		t.Fatalf("the reset e-mail: to %v, subject %q, TLS %v", m.To, m.Subject, m.TLS)
	}
	if addr, err := mail.ParseAddress(m.Header.Get("To")); err != nil || addr.Address != to {
		t.Errorf("its To header: %q", m.Header.Get("To"))
	}
	link := resetLinkRe.FindString(m.Text)
	if !strings.HasPrefix(link, base+"/dashboard/password-reset/") || !strings.Contains(m.HTML, `href="`+link+`"`) {
		t.Fatalf("the link %q (text) is not the public URL's, or not in the HTML part", link)
	}
	if !strings.Contains(m.Text, "uma hora") {
		t.Errorf("the text does not say the link's hour: %q", m.Text)
	}
	return link
}

// refused opens a reset link and checks it is refused (404, saying so).
func refused(s *session, link, what string) {
	s.t.Helper()
	resp, err := s.page.Goto(link)
	s.check(err, what)
	if resp.Status() != 404 {
		s.t.Errorf("%s: %d, want 404", what, resp.Status())
	}
	s.check(s.expect.Locator(s.page.GetByTestId("dash-error")).ToContainText("Link inválido"), what)
}

// TestPasswordResetByEmail is the self-service reset in a browser, the link read from the
// mail the real SMTP server received: the same answer for an unknown e-mail; the new password
// signs in and the sessions from before are over; the link is refused a second time, and a
// new one after its hour (the app's clock moved).
func TestPasswordResetByEmail(t *testing.T) {
	t.Parallel()
	smtp := mailtest.Start(t)
	a, old := setup(t, appOptions{smtp: smtp}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	dashboardOf(old, a).login(merchantEmail, merchantPassword)

	s := newSession(t, playwright.BrowserNewContextOptions{})
	d := dashboardOf(s, a)
	answer := askReset(s, d, merchantEmail)
	s.a11y(s.page, "reset request answered")
	if other := askReset(s, d, "ninguem@loja.example"); other != answer {
		t.Errorf("the answers differ: %q and %q", answer, other)
	}
	link := resetLinkOf(t, smtp.Next(t, actionTimeout), merchantEmail, a.url)

	s.open(link)
	s.a11y(s.page, "new password")
	const newPassword = "quatro-palavras-bem-soltas"
	s.check(s.page.Locator("#reset-password").Fill(newPassword), "the new password")
	s.check(s.page.Locator("#reset-confirm").Fill(newPassword), "confirm it")
	s.check(d.testID("reset-submit").Click(), "save it")
	s.check(s.expect.Locator(s.page.GetByTestId("login-notice")).ToContainText("Sua senha foi trocada"), "the sign-in says so")
	d.submitLogin(merchantEmail, newPassword)
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard$`)), "signed in with the new password")

	old.open(a.url + "/dashboard/orders")
	old.check(old.expect.Page(old.page).ToHaveURL(regexp.MustCompile(`/dashboard/login`)), "the session from before the reset is over")

	refused(s, link, "the link a second time")

	askReset(old, dashboardOf(old, a), merchantEmail) // signed out: its sign-in page shows
	late := resetLinkOf(t, smtp.Next(t, actionTimeout), merchantEmail, a.url)
	a.clock.Advance(time.Hour)
	refused(s, late, "a link an hour old")
	for _, m := range smtp.Messages() {
		if m.To[0] != merchantEmail {
			t.Errorf("an e-mail went to %v", m.To)
		}
	}
}
