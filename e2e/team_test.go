package e2e

import (
	"encoding/base64"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"
	"github.com/pquerna/otp/totp"
)

// TestTeamInvitationAndTwoFactor is the team's whole path in a browser: an owner invites a
// developer and copies the link; the developer opens it in their own browser, chooses a
// password, signs in, enrols two-step verification by reading the QR code on the page (decoded
// from its pixels, as a phone's app would), keeps the recovery codes, signs out, and signs in
// again with a code; a replayed code is refused; every step is in the audit log, which the
// developer may read.
func TestTeamInvitationAndTwoFactor(t *testing.T) {
	t.Parallel()
	a, owner := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	od := dashboardOf(owner, a)
	od.login(merchantEmail, merchantPassword)

	// The owner invites a developer; the link is shown once.
	owner.open(a.url + "/dashboard/users")
	owner.a11y(owner.page, "users")
	form := od.testID("invite-form")
	owner.check(form.GetByLabel("E-mail").Fill("dev@loja.example"), "fill the invitation's e-mail")
	_, err := form.Locator(`select[name="role"]`).SelectOption(playwright.SelectOptionValues{Values: &[]string{"developer"}})
	owner.check(err, "choose the role")
	owner.check(od.testID("invite-submit").Click(), "create the invitation")
	link, err := od.testID("invite-link").InputValue()
	owner.check(err, "read the invitation link")
	if !strings.HasPrefix(link, a.url+"/dashboard/invite/") {
		t.Fatalf("invitation link %q", link)
	}
	owner.shot("invitation")

	// The developer, in their own browser, accepts it.
	dev := newSession(t, playwright.BrowserNewContextOptions{})
	dd := dashboardOf(dev, a)
	dev.open(link)
	dev.a11y(dev.page, "invitation")
	dev.check(dev.page.Locator("#invite-password").Fill("quatro-palavras-bem-soltas"), "choose a password")
	dev.check(dev.page.Locator("#invite-confirm").Fill("quatro-palavras-bem-soltas"), "confirm it")
	dev.check(dd.testID("invite-accept").Click(), "accept the invitation")
	dev.check(dev.expect.Page(dev.page).ToHaveURL(regexp.MustCompile(`/dashboard/login\?joined=1$`)), "sent to the sign-in")
	dd.submitLogin("dev@loja.example", "quatro-palavras-bem-soltas")
	dev.check(dev.expect.Page(dev.page).ToHaveURL(regexp.MustCompile(`/dashboard$`)), "signed in")
	dev.check(dev.expect.Locator(dd.testID("user-role")).ToContainText("Desenvolvedor"), "the developer's role")

	// Enrolment: the QR code read from the page's pixels gives the secret.
	dev.open(a.url + "/dashboard/account")
	dev.check(dd.testID("totp-start").Click(), "start the enrolment")
	qr := dd.testID("totp-qr")
	dev.check(dev.expect.Locator(qr).ToBeVisible(), "the QR code")
	dev.a11y(dev.page, "enrolment")
	shot, err := qr.Screenshot()
	dev.check(err, "screenshot the QR code")
	text, err := decodeQR(shot)
	if err != nil {
		// The image itself, as the page holds it, must decode at least.
		src, _ := qr.GetAttribute("src")
		raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(src, "data:image/png;base64,"))
		text, err = decodeQR(raw)
		t.Logf("the screenshot did not decode; the image did: %v", err == nil)
	}
	if err != nil {
		t.Fatalf("reading the enrolment's QR code: %v", err)
	}
	u, err := url.Parse(text)
	if err != nil || u.Scheme != "otpauth" || u.Host != "totp" || !strings.Contains(u.Path, "dev@loja.example") {
		t.Fatalf("the QR code holds %q", text)
	}
	secret := u.Query().Get("secret")
	shown, _ := dd.testID("totp-secret").TextContent()
	if secret == "" || strings.TrimSpace(shown) != secret {
		t.Fatalf("the QR code's secret %q, the key shown %q", secret, shown)
	}
	code := func(at time.Time) string {
		c, err := totp.GenerateCode(secret, at)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	dev.check(dev.page.Locator("#a-code").Fill(code(a.clock.Now())), "type the first code")
	dev.check(dd.testID("totp-confirm").Click(), "confirm the enrolment")
	dev.check(dev.expect.Locator(dd.testID("recovery-code")).ToHaveCount(10), "ten recovery codes, shown once")
	dev.shot("recovery-codes")

	// Sign out, and in again with a code of the next step (the enrolment's step is used).
	dev.check(dd.testID("logout").Click(), "sign out")
	dev.check(dev.expect.Page(dev.page).ToHaveURL(regexp.MustCompile(`/dashboard/login\?signed_out=1$`)), "signed out")
	dd.submitLogin("dev@loja.example", "quatro-palavras-bem-soltas")
	dev.check(dev.expect.Page(dev.page).ToHaveURL(regexp.MustCompile(`/dashboard/login/2fa$`)), "the second step")
	dev.a11y(dev.page, "second step")
	next := code(a.clock.Now().Add(30 * time.Second))
	dev.check(dev.page.Locator("#totp-code").Fill(next), "type a code")
	dev.check(dd.testID("totp-submit").Click(), "send the code")
	dev.check(dev.expect.Page(dev.page).ToHaveURL(regexp.MustCompile(`/dashboard$`)), "signed in with the code")

	// The same code again, from another browser, is refused.
	other := newSession(t, playwright.BrowserNewContextOptions{})
	xd := dashboardOf(other, a)
	other.open(a.url + "/dashboard/login")
	xd.submitLogin("dev@loja.example", "quatro-palavras-bem-soltas")
	other.check(other.expect.Page(other.page).ToHaveURL(regexp.MustCompile(`/dashboard/login/2fa$`)), "the second step")
	other.check(other.page.Locator("#totp-code").Fill(next), "replay the code")
	other.check(xd.testID("totp-submit").Click(), "send it")
	other.check(other.expect.Locator(xd.testID("field-error")).ToContainText("já usado"), "a replayed code is refused")

	// Every step is in the audit log, which a developer may read.
	dev.open(a.url + "/dashboard/audit")
	dev.a11y(dev.page, "audit log")
	rows := dd.testID("audit-row")
	for _, want := range []struct{ actor, action string }{
		{merchantEmail, "user.invited"}, {"dev@loja.example", "user.joined"}, {"dev@loja.example", "2fa.enabled"},
		{"dev@loja.example", "signout"}, {"dev@loja.example", "signin"}, {"dev@loja.example", "signin.failed"},
	} {
		sel := rows.And(dev.page.Locator(`[data-actor="` + want.actor + `"][data-action="` + want.action + `"]`))
		if n, err := sel.Count(); err != nil || n == 0 {
			t.Errorf("the audit log has no %s by %s", want.action, want.actor)
		}
	}
	dev.check(dev.expect.Locator(rows.And(dev.page.Locator(`[data-action="signin"]`)).First()).ToContainText("aplicativo autenticador"),
		"the last sign-in was with a code")
	dev.shot("audit")
}
