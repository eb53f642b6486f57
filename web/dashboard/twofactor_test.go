package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// enrolTOTP turns on the second factor of the signed-in user of b and returns its secret and
// recovery codes.
func enrolTOTP(t *testing.T, e *env, b *browser, csrf string) (string, []string) {
	t.Helper()
	e.location(b.do(http.MethodPost, "/dashboard/account/2fa", url.Values{"csrf_token": {csrf}}))
	_, doc := b.get("/dashboard/account")
	// Shown in groups of four, as typed by hand.
	shown := strings.TrimSpace(doc.Find(testid("totp-secret")).Text())
	secret := strings.ReplaceAll(shown, " ", "")
	if len(shown) < 5 || shown[4] != ' ' {
		t.Errorf("the secret is not grouped in fours: %q", shown)
	}
	if link := doc.Find(testid("totp-link")).AttrOr("href", ""); !strings.HasPrefix(link, "otpauth://totp/") || !strings.Contains(link, "secret="+secret) {
		t.Errorf("the enrolment's otpauth link: %q", link)
	}
	if secret == "" || !strings.HasPrefix(doc.Find(testid("totp-qr")).AttrOr("src", ""), "data:image/png;base64,") {
		t.Fatal("the enrolment shows no secret or no QR code")
	}
	e.noClearSecret("the TOTP secret being enrolled (in the session)", secret)
	res, doc := b.post("/dashboard/account/2fa/confirm", url.Values{"code": {"000000"}, "csrf_token": {csrf}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a wrong first code: %d", res.StatusCode)
	}
	res, doc = b.post("/dashboard/account/2fa/confirm", url.Values{"code": {totpCode(t, secret, e.sb.Now())}, "csrf_token": {csrf}})
	var codes []string
	doc.Find(testid("recovery-code")).Each(func(_ int, s *goquery.Selection) { codes = append(codes, s.Text()) })
	if res.StatusCode != http.StatusOK || len(codes) != 10 {
		t.Fatalf("confirmation: %d, %d recovery codes", res.StatusCode, len(codes))
	}
	e.noClearSecret("the TOTP secret", secret)
	return secret, codes
}

// signInWithCode signs in with the password and then code; it returns the status of the
// second step.
func signInWithCode(t *testing.T, e *env, b *browser, code string) int {
	t.Helper()
	res, _ := b.post("/dashboard/login", url.Values{"email": {dashEmail}, "password": {dashPassword}})
	if loc := e.location(res); loc != "/dashboard/login/2fa" {
		t.Fatalf("after the password: %q, want the second step", loc)
	}
	if res, _ := b.get("/dashboard/orders"); res.StatusCode != http.StatusSeeOther ||
		!strings.HasPrefix(res.Header.Get("Location"), "/dashboard/login") {
		t.Fatalf("half-way signed in, the dashboard answered %d", res.StatusCode)
	}
	_, doc := b.get("/dashboard/login/2fa")
	csrf := doc.Find(`[data-testid="totp-form"] input[name="csrf_token"]`).AttrOr("value", "")
	res, _ = b.post("/dashboard/login/2fa", url.Values{"code": {code}, "csrf_token": {csrf}})
	return res.StatusCode
}

// TestTOTPSignIn: enrolment by a first code; a sign-in then needs a code, accepted once (a
// replayed code is refused, the enrolment's too), or a recovery code, accepted once; each step
// is in the audit log.
func TestTOTPSignIn(t *testing.T) {
	e := newEnv(t)
	owner := e.browser()
	csrf := owner.login()
	secret, codes := enrolTOTP(t, e, owner, csrf)
	enrolCode := totpCode(t, secret, e.sb.Now())
	if _, doc := owner.get("/dashboard/users"); !strings.Contains(doc.Find(testid("user-totp")).Text(), "Ativada") {
		t.Error("the users page does not show the second factor on")
	}

	b := e.browser()
	if status := signInWithCode(t, e, b, enrolCode); status != http.StatusUnauthorized {
		t.Errorf("the enrolment's own code again: %d, want 401 (replay)", status)
	}
	next := totpCode(t, secret, e.sb.Now().Add(30*time.Second)) // the next step, within the ±1 step window
	if status := signInWithCode(t, e, b, next); status != http.StatusSeeOther {
		t.Fatalf("a fresh code: %d", status)
	}
	if res, _ := b.get("/dashboard/orders"); res.StatusCode != http.StatusOK {
		t.Fatalf("signed in with a code: %d", res.StatusCode)
	}
	replay := e.browser()
	if status := signInWithCode(t, e, replay, next); status != http.StatusUnauthorized {
		t.Errorf("a replayed code: %d, want 401", status)
	}
	if status := signInWithCode(t, e, replay, strings.ToUpper(codes[3])); status != http.StatusSeeOther {
		t.Fatalf("a recovery code: %d", status)
	}
	again := e.browser()
	if status := signInWithCode(t, e, again, codes[3]); status != http.StatusUnauthorized {
		t.Errorf("a used recovery code: %d, want 401", status)
	}
	if _, doc := owner.get("/dashboard/account"); !strings.Contains(doc.Find(testid("totp-state")).Text(), "9") {
		t.Errorf("recovery codes left: %q", doc.Find(testid("totp-state")).Text())
	}
	entries, _ := e.dash.audit.Entries(context.Background(), audit.Filter{Actor: dashEmail})
	var got []string
	for _, en := range entries {
		got = append(got, en.Action+" "+en.Detail)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"2fa.enabled", "signin " + audit.DetailWithCode, "2fa.recovery_code_used",
		"signin " + audit.DetailWithRecoveryCode, "signin.failed " + audit.DetailWrongCode} {
		if !strings.Contains(all, want) {
			t.Errorf("audit log lacks %q:\n%s", want, all)
		}
	}
}

// TestSecondStepThrottled: wrong codes past the free ones make the second step wait (429)
// without checking the code.
func TestSecondStepThrottled(t *testing.T) {
	e := newEnv(t)
	owner := e.browser()
	secret, _ := enrolTOTP(t, e, owner, owner.login())
	b := e.browser()
	status := 0
	for range 15 {
		if status = signInWithCode(t, e, b, "000000"); status == http.StatusTooManyRequests {
			break
		}
	}
	if status != http.StatusTooManyRequests {
		t.Fatalf("15 wrong codes: last %d, want 429", status)
	}
	if status := signInWithCode(t, e, b, totpCode(t, secret, e.sb.Now().Add(30*time.Second))); status != http.StatusTooManyRequests {
		t.Errorf("a right code while throttled: %d, want 429", status)
	}
}

// TestPasswordChangeEndsOtherSessions: changing one's password ends one's other sessions at
// their next request; this one goes on; the old password no longer signs in.
func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	e := newEnv(t)
	a, b := e.browser(), e.browser()
	csrf := a.login()
	b.login()
	if _, doc := a.get("/dashboard/account"); doc.Find(testid("session-row")).Length() != 2 || doc.Find(testid("current-session")).Length() != 1 {
		t.Fatalf("the account page lists %d sessions", doc.Find(testid("session-row")).Length())
	}
	res, doc := a.post("/dashboard/account/password", url.Values{"current_password": {"errada-errada"}, "new_password": {"nova-senha-bem-comprida"},
		"password_confirm": {"nova-senha-bem-comprida"}, "csrf_token": {csrf}})
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-field="current_password"]`).Length() != 1 {
		t.Fatalf("a wrong current password: %d", res.StatusCode)
	}
	res, _ = a.post("/dashboard/account/password", url.Values{"current_password": {dashPassword}, "new_password": {"nova-senha-bem-comprida"},
		"password_confirm": {"nova-senha-bem-comprida"}, "csrf_token": {csrf}})
	if loc := e.location(res); loc != "/dashboard/account?done=password" {
		t.Fatalf("password change: %q", loc)
	}
	if res, _ := a.get("/dashboard/orders"); res.StatusCode != http.StatusOK {
		t.Errorf("this session after the change: %d", res.StatusCode)
	}
	if res, _ := b.get("/dashboard/orders"); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the other session after the change: %d, want the sign-in", res.StatusCode)
	}
	if _, err := e.dash.accounts.Login(context.Background(), dashEmail, dashPassword, "192.0.2.9"); err == nil {
		t.Error("the old password still signs in")
	}
}

// TestRequiredTOTP: once the owners require a second factor, a user without one sees only
// their account page until they enrol.
func TestRequiredTOTP(t *testing.T) {
	e := newEnv(t)
	if _, err := e.dash.accounts.AddUser(context.Background(), "bia@loja.example", dashPassword, team.RoleViewer); err != nil {
		t.Fatal(err)
	}
	owner := e.browser()
	csrf := owner.login()
	enrolTOTP(t, e, owner, csrf)
	e.location(owner.do(http.MethodPost, "/dashboard/users/2fa-required", url.Values{"required": {"true"}, "csrf_token": {csrf}}))
	bia := e.browser()
	res, _ := bia.post("/dashboard/login", url.Values{"email": {"bia@loja.example"}, "password": {dashPassword}})
	e.location(res)
	res, _ = bia.get("/dashboard/orders")
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || loc != "/dashboard/account?enrol=1" {
		t.Fatalf("without a second factor: %d %q", res.StatusCode, loc)
	}
	_, doc := bia.get("/dashboard/account")
	if doc.Find(testid("totp-required")).Length() != 1 {
		t.Error("the account page does not say the second factor is required")
	}
	biaCSRF := doc.Find(`form[data-testid="logout-form"] input[name="csrf_token"]`).AttrOr("value", "")
	enrolTOTP(t, e, bia, biaCSRF)
	if res, _ := bia.get("/dashboard/orders"); res.StatusCode != http.StatusOK {
		t.Errorf("after enrolling: %d", res.StatusCode)
	}
}
