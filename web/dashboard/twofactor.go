package dashboard

import (
	"context"
	"encoding/base64"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/sealed"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Two-factor sign-in: the second step of the sign-in, and the enrolment on the account page.

// pendingLifetime is how long the second step may wait after the password was right.
const pendingLifetime = 5 * time.Minute

// pendingUser returns the user half-way through signing in (the password right, the second
// factor to come), or "" when there is none or it waited too long.
func (d *Dashboard) pendingUser(r *http.Request) string {
	ctx := r.Context()
	id := d.sessions.GetString(ctx, sessPendingUser)
	at := d.sessions.GetInt64(ctx, sessPendingAt)
	if id == "" || time.Since(time.Unix(at, 0)) > pendingLifetime {
		return ""
	}
	return id
}

// secondFactorView is the code's form, posting back with the page to return to.
// ?recovery=1 asks for a recovery code (a text field) rather than the app's (a numeric one).
func (d *Dashboard) secondFactorView(r *http.Request) views.SecondFactorView {
	q := url.Values{}
	if next := r.URL.Query().Get("next"); next != "" && nextPath(next) == next {
		q.Set("next", next)
	}
	here := func(recovery bool) string {
		q := maps.Clone(q)
		if recovery {
			q.Set("recovery", "1")
		}
		if len(q) == 0 {
			return respond.Link(r, Path+"/login/2fa")
		}
		return respond.Link(r, Path+"/login/2fa?"+q.Encode())
	}
	recovery := r.URL.Query().Get("recovery") == "1"
	p := d.page(r, "")
	p.CSRF = d.sessions.GetString(r.Context(), sessCSRF)
	return views.SecondFactorView{DashPage: p, Action: here(recovery), Recovery: recovery, SwitchURL: here(!recovery)}
}

// secondFactorPage is GET /dashboard/login/2fa: the code of the authenticator app, or a
// recovery code.
func (d *Dashboard) secondFactorPage(w http.ResponseWriter, r *http.Request) {
	if d.pendingUser(r) == "" {
		respond.Redirect(w, r, Path+"/login?ended=1")
		return
	}
	d.site.Render(w, r, http.StatusOK, views.SecondFactorPage(d.secondFactorView(r)))
}

// secondFactor is POST /dashboard/login/2fa: a right code (not used before) or an unused
// recovery code ends the sign-in; failures are throttled per account like the password's.
func (d *Dashboard) secondFactor(w http.ResponseWriter, r *http.Request) {
	if !d.site.ParseForm(w, r) {
		return
	}
	ctx := r.Context()
	uid := d.pendingUser(r)
	if uid == "" {
		respond.Redirect(w, r, Path+"/login?ended=1")
		return
	}
	if !d.validCSRF(r) {
		d.site.Error(w, r, http.StatusForbidden)
		return
	}
	u, err := d.accounts.User(ctx, uid)
	if err != nil {
		_ = d.sessions.Destroy(ctx)
		respond.Redirect(w, r, Path+"/login?ended=1")
		return
	}
	recovery, err := d.accounts.SecondFactor(ctx, uid, r.PostForm.Get("code"))
	if err != nil {
		lang := respond.Lang(r)
		v := d.secondFactorView(r)
		var te *team.ThrottledError
		switch {
		case errors.As(err, &te):
			v.Error = views.T(lang, "login.throttled", waitText(lang, te.Wait))
			w.Header().Set("Retry-After", retryAfter(te.Wait))
			d.site.Log.WarnContext(ctx, "dashboard second factor throttled", "request_id", respond.RequestID(ctx), "user", uid)
			d.site.Render(w, r, http.StatusTooManyRequests, views.SecondFactorPage(v))
		case errors.Is(err, team.ErrBadCode):
			v.Error = views.T(lang, "totp.failed")
			d.recordAs(r, u.Email, audit.SignInFailed, u.Email, audit.DetailWrongCode)
			d.site.Render(w, r, http.StatusUnauthorized, views.SecondFactorPage(v))
		default:
			d.site.Fail(w, r, err)
		}
		return
	}
	how := audit.DetailWithCode
	if recovery {
		how = audit.DetailWithRecoveryCode
		d.recordAs(r, u.Email, audit.RecoveryUsed, u.Email, "")
	}
	d.signIn(w, r, u, how)
}

// totpView fills the account page's two-factor part: on (with the recovery codes left), an
// enrolment under way (QR code, manual key, confirmation), or the button that starts one.
func (d *Dashboard) totpView(r *http.Request, v *views.AccountView) {
	ctx := r.Context()
	u := userOf(r)
	v.TOTPStartAction = respond.Link(r, Path+"/account/2fa")
	v.TOTPConfirmAction = respond.Link(r, Path+"/account/2fa/confirm")
	v.TOTPDisableAction = respond.Link(r, Path+"/account/2fa/disable")
	v.TOTPRequired, _ = d.accounts.RequireTOTP(ctx)
	if u.TOTPEnabled() {
		v.RecoveryLeft, _ = d.accounts.RecoveryCodesLeft(ctx, u.ID)
		return
	}
	secret, link := d.sessionSecret(ctx, sessEnrolment), d.sessionSecret(ctx, sessEnrolmentURL)
	if secret == "" || link == "" {
		return
	}
	img, err := qrDataURL(link)
	if err != nil {
		d.site.LogError(r, err, "")
		return
	}
	v.TOTPSecret, v.TOTPQR, v.TOTPURL = secret, img, link
}

// qrDataURL is the QR code of text as a PNG data URL (the page's CSP allows data: images, and
// the secret it holds never becomes a URL of its own).
func qrDataURL(text string) (string, error) {
	code, err := qr.Encode(text)
	if err != nil {
		return "", err
	}
	png, err := code.PNG(6)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}

// startTOTP is POST /dashboard/account/2fa: a new secret, kept in the session until the
// first code confirms it.
func (d *Dashboard) startTOTP(w http.ResponseWriter, r *http.Request) {
	u := userOf(r)
	if u.TOTPEnabled() {
		respond.Redirect(w, r, Path+"/account")
		return
	}
	en, err := d.accounts.NewTOTP(u, d.site.Profile(r.Context()).Name)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	if err := d.putSessionSecret(r.Context(), sessEnrolment, en.Secret); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	if err := d.putSessionSecret(r.Context(), sessEnrolmentURL, en.URL); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, Path+"/account#totp")
}

// confirmTOTP is POST /dashboard/account/2fa/confirm: the first code turns the second factor
// on, and the answer shows the ten recovery codes, this once.
func (d *Dashboard) confirmTOTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u := userOf(r)
	secret := d.sessionSecret(ctx, sessEnrolment)
	if secret == "" || u.TOTPEnabled() {
		respond.Redirect(w, r, Path+"/account")
		return
	}
	codes, err := d.accounts.EnableTOTP(ctx, u, secret, r.PostForm.Get("code"))
	if errors.Is(err, team.ErrBadCode) {
		v := d.accountView(r)
		v.Errors.Add("code", "", views.T(v.Lang, "totp.failed"))
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.AccountPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.sessions.Remove(ctx, sessEnrolment)
	d.sessions.Remove(ctx, sessEnrolmentURL)
	d.record(r, audit.TOTPEnabled, u.Email, "")
	fresh, err := d.accounts.User(ctx, u.ID)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	*u = *fresh
	v := d.accountView(r)
	v.RecoveryCodes = codes
	v.Notice = views.T(v.Lang, "account.totp_enabled")
	d.site.Render(w, r, http.StatusOK, views.AccountPage(v))
}

// disableTOTP is POST /dashboard/account/2fa/disable: the current password turns the second
// factor off, and the user is told by e-mail (whoever has their session, the mailbox learns).
func (d *Dashboard) disableTOTP(w http.ResponseWriter, r *http.Request) {
	u := userOf(r)
	out, err := d.noticeMail(r, u, email.NoticeTOTPOff, "")
	if err == nil {
		err = d.accounts.DisableTOTP(r.Context(), u, r.PostForm.Get("current_password"), respond.ClientIP(r), out...)
	}
	var te *team.ThrottledError
	if errors.Is(err, team.ErrBadCredentials) || errors.As(err, &te) {
		v := d.accountView(r)
		v.Errors.Add("totp_password", "", views.T(v.Lang, "account.err_current"))
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.AccountPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.wakeMail()
	d.record(r, audit.TOTPDisabled, u.Email, "")
	respond.Redirect(w, r, Path+"/account?done=totp_off")
}

// requireTOTP is POST /dashboard/users/2fa-required: whether every user must sign in with a
// second factor.
func (d *Dashboard) requireTOTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	before, _ := d.accounts.RequireTOTP(ctx)
	after := r.PostForm.Get("required") == "true"
	if err := d.accounts.SetRequireTOTP(ctx, after); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.TOTPRequired, "every user", audit.Change("required", boolText(before), boolText(after)))
	respond.Redirect(w, r, Path+"/users?done=required")
}

func boolText(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// putSessionSecret keeps a secret (a TOTP secret being enrolled, its otpauth URL) in the session,
// sealed with the secret keys: the sessions live in the database.
func (d *Dashboard) putSessionSecret(ctx context.Context, key, v string) error {
	if d.sealer != nil {
		var err error
		if v, err = d.sealer.SealString(v); err != nil {
			return err
		}
	}
	d.sessions.Put(ctx, key, v)
	return nil
}

// sessionSecret is what putSessionSecret kept, "" when there is none or it no longer opens
// (sealed with a key since removed: the enrolment starts again).
func (d *Dashboard) sessionSecret(ctx context.Context, key string) string {
	v := d.sessions.GetString(ctx, key)
	if d.sealer == nil || !sealed.IsSealed(v) {
		return v
	}
	plain, err := d.sealer.OpenString(v)
	if err != nil {
		return ""
	}
	return plain
}
