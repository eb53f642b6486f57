package e2e

import (
	"encoding/base64"
	"net/url"
	"os"
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
	// A common password is refused in Portuguese, reason included.
	dev.check(dev.page.Locator("#invite-password").Fill("12345678"), "a weak password")
	dev.check(dev.page.Locator("#invite-confirm").Fill("12345678"), "confirm it")
	dev.check(dd.testID("invite-accept").Click(), "accept the invitation")
	dev.check(dev.expect.Locator(dd.testID("field-error")).ToHaveText(regexp.MustCompile(`^Senha recusada: fácil de adivinhar, porque [^A-Za-z]*[a-zé]`)), "refused in Portuguese")
	if msg, _ := dd.testID("field-error").TextContent(); strings.Contains(msg, "guess") || strings.Contains(msg, "password") {
		t.Errorf("the refusal is not all Portuguese: %q", msg)
	}
	dev.check(dev.page.Locator("#invite-password").Fill("quatro-palavras-bem-soltas"), "choose a password")
	dev.check(dev.page.Locator("#invite-confirm").Fill("quatro-palavras-bem-soltas"), "confirm it")
	dev.check(dd.testID("invite-accept").Click(), "accept the invitation")
	// Signed in at once: the password just chosen proved who they are.
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
	// The key to type by hand, in groups of four; the same enrolment as a link a phone opens.
	shown, _ := dd.testID("totp-secret").TextContent()
	if secret == "" || strings.ReplaceAll(shown, " ", "") != secret || !regexp.MustCompile(`^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$`).MatchString(shown) {
		t.Fatalf("the QR code's secret %q, the key shown %q", secret, shown)
	}
	dev.check(dev.expect.Locator(dd.testID("totp-link")).ToHaveAttribute("href", text), "the otpauth:// link")
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
	recovery, err := dd.testID("recovery-code").AllTextContents()
	dev.check(err, "the recovery codes")
	// Copied and downloaded as a text file, one a line.
	dev.check(dev.page.Context().GrantPermissions([]string{"clipboard-read", "clipboard-write"}), "clipboard permissions")
	dev.check(dd.testID("recovery-copy").Click(), "copy the codes")
	copied := dev.eval(dev.page, `() => navigator.clipboard.readText()`).(string)
	if got := strings.Fields(copied); strings.Join(got, ",") != strings.Join(recovery, ",") {
		t.Errorf("copied %q, the codes are %q", copied, recovery)
	}
	download, err := dev.page.ExpectDownload(func() error { return dd.testID("recovery-download").Click() })
	dev.check(err, "download the codes")
	path, err := download.Path()
	dev.check(err, "the downloaded file")
	file, err := os.ReadFile(path)
	dev.check(err, "read the downloaded file")
	if name := download.SuggestedFilename(); !strings.HasSuffix(name, ".txt") || strings.Join(strings.Fields(string(file)), ",") != strings.Join(recovery, ",") {
		t.Errorf("downloaded %s: %q, the codes are %q", name, file, recovery)
	}
	dev.a11y(dev.page, "recovery codes")
	dev.shot("recovery-codes")

	// Sign out, and in again with a code of the next step (the enrolment's step is used).
	dev.check(dd.testID("logout").Click(), "sign out")
	dev.check(dev.expect.Page(dev.page).ToHaveURL(regexp.MustCompile(`/dashboard/login\?signed_out=1$`)), "signed out")
	dd.submitLogin("dev@loja.example", "quatro-palavras-bem-soltas")
	dev.check(dev.expect.Page(dev.page).ToHaveURL(regexp.MustCompile(`/dashboard/login/2fa$`)), "the second step")
	dev.a11y(dev.page, "second step")
	// The app's code: a numeric keyboard, filled from the phone's messages or app.
	field := dev.page.Locator("#totp-code")
	dev.check(dev.expect.Locator(field).ToHaveAttribute("inputmode", "numeric"), "a numeric field")
	dev.check(dev.expect.Locator(field).ToHaveAttribute("autocomplete", "one-time-code"), "one-time-code")
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

	// "Usar código de recuperação" turns the field to text for a recovery code's letters.
	other.check(xd.testID("totp-switch").Click(), "use a recovery code")
	other.check(other.expect.Locator(xd.testID("totp-switch")).ToHaveText("Usar o código do aplicativo"), "the way back")
	if im, _ := other.page.Locator("#totp-code").GetAttribute("inputmode"); im != "" {
		t.Errorf("the recovery code's field has inputmode %q", im)
	}
	other.a11y(other.page, "recovery code step")
	other.check(other.page.Locator("#totp-code").Fill(recovery[0]), "type a recovery code")
	other.check(xd.testID("totp-submit").Click(), "send it")
	other.check(other.expect.Page(other.page).ToHaveURL(regexp.MustCompile(`/dashboard$`)), "signed in with a recovery code")
}
