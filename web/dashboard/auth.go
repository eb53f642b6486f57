package dashboard

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// loginPage is GET /dashboard/login. A signed-in user goes straight to the dashboard.
func (d *Dashboard) loginPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if id := d.sessions.GetString(ctx, sessUserID); id != "" {
		if _, err := d.accounts.SignedInUser(ctx, id, d.sessions.GetString(ctx, sessFingerprint)); err == nil {
			respond.Redirect(w, r, nextPath(r.URL.Query().Get("next")))
			return
		}
	}
	v := d.loginView(r)
	lang := respond.Lang(r)
	switch {
	case r.URL.Query().Get("signed_out") == "1":
		v.Notice = views.T(lang, "login.signed_out")
	case r.URL.Query().Get("ended") == "1":
		v.Notice = views.T(lang, "login.expired")
	case r.URL.Query().Get("reset") == "1":
		v.Notice = views.T(lang, "login.reset_done")
	}
	d.site.Render(w, r, http.StatusOK, views.LoginPage(v))
}

// loginView is the sign-in form, posting back to itself with the page to return to.
func (d *Dashboard) loginView(r *http.Request) views.LoginView {
	action := Path + "/login"
	if next := r.URL.Query().Get("next"); next != "" && nextPath(next) == next {
		action += "?next=" + url.QueryEscape(next)
	}
	return views.LoginView{DashPage: d.page(r, ""), Action: respond.Link(r, action), ResetURL: respond.Link(r, resetPath)}
}

// login is POST /dashboard/login: the e-mail and password are checked (throttled per account
// and client address, per address, and per account at a much higher ceiling, or per device for
// a browser with the account's device cookie: see team.Device); success renews the session's token (no fixation) and goes to the
// page asked for, or the overview. Failures answer the form again with one message, the same
// for an unknown e-mail and a wrong password.
func (d *Dashboard) login(w http.ResponseWriter, r *http.Request) {
	if !d.site.ParseForm(w, r) {
		return
	}
	ctx := r.Context()
	email := r.PostForm.Get("email")
	u, err := d.accounts.LoginFrom(ctx, email, r.PostForm.Get("password"), respond.ClientIP(r), d.deviceOf(r))
	if err != nil {
		lang := respond.Lang(r)
		v := d.loginView(r)
		v.Email = strings.TrimSpace(email)
		var te *team.ThrottledError
		switch {
		case errors.As(err, &te):
			v.Error = views.T(lang, "login.throttled", waitText(lang, te.Wait))
			w.Header().Set("Retry-After", retryAfter(te.Wait))
			d.site.Log.WarnContext(ctx, "dashboard sign-in throttled", "request_id", respond.RequestID(ctx))
			d.site.Render(w, r, http.StatusTooManyRequests, views.LoginPage(v))
		case errors.Is(err, team.ErrBadCredentials):
			d.site.Log.InfoContext(ctx, "dashboard sign-in failed", "request_id", respond.RequestID(ctx))
			d.recordAs(r, team.NormalizeEmail(email), audit.SignInFailed, team.NormalizeEmail(email), audit.DetailWrongPassword)
			v.Error = views.T(lang, "login.failed")
			d.site.Render(w, r, http.StatusUnauthorized, views.LoginPage(v))
		default:
			d.site.Fail(w, r, err)
		}
		return
	}
	if u.TOTPEnabled() {
		// The password was right; the second step decides. The session holds who is half-way
		// (a new token: no fixation) and a CSRF token for the code's form, nothing more.
		if err := d.sessions.RenewToken(ctx); err != nil {
			d.site.Fail(w, r, err)
			return
		}
		d.sessions.Put(ctx, sessPendingUser, u.ID)
		d.sessions.Put(ctx, sessPendingAt, time.Now().Unix())
		d.sessions.Put(ctx, sessCSRF, newToken())
		target := Path + "/login/2fa"
		if next := r.URL.Query().Get("next"); next != "" && nextPath(next) == next {
			target += "?next=" + url.QueryEscape(next)
		}
		respond.Redirect(w, r, target)
		return
	}
	d.signIn(w, r, u, "")
}

// signIn ends a successful sign-in of u: a new session token (no fixation), the session
// recorded for the user's account page, the audit log, and the page asked for. how says the
// second factor used, if any.
func (d *Dashboard) signIn(w http.ResponseWriter, r *http.Request, u *team.User, how string) {
	ctx := r.Context()
	if err := d.sessions.RenewToken(ctx); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.sessions.Remove(ctx, sessPendingUser)
	d.sessions.Remove(ctx, sessPendingAt)
	sid, err := d.accounts.StartSignIn(ctx, u, respond.ClientIP(r), r.UserAgent())
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.sessions.Put(ctx, sessUserID, u.ID)
	d.sessions.Put(ctx, sessFingerprint, team.PasswordFingerprint(u))
	d.sessions.Put(ctx, sessCSRF, newToken())
	d.sessions.Put(ctx, sessID, sid)
	d.leaveDevice(w, u)
	d.site.Log.InfoContext(ctx, "dashboard sign-in", "request_id", respond.RequestID(ctx), "user", u.ID)
	d.recordAs(r, u.Email, audit.SignIn, u.Email, how)
	d.sessions.Put(ctx, sessSeen, d.idleNow().Unix())
	next := nextPath(r.URL.Query().Get("next"))
	if next == Path {
		next = d.start(u)
	}
	respond.Redirect(w, r, next)
}

// logout is POST /dashboard/logout: the session is deleted from the store (its token renewed
// first, so the old one is dead even if the deletion raced a request) and its cookie cleared.
// A session's form must carry its token; without a session there is nothing to end.
func (d *Dashboard) logout(w http.ResponseWriter, r *http.Request) {
	if !d.site.ParseForm(w, r) {
		return
	}
	ctx := r.Context()
	if d.sessions.GetString(ctx, sessUserID) != "" && !d.validCSRF(r) {
		d.site.Error(w, r, http.StatusForbidden)
		return
	}
	if uid := d.sessions.GetString(ctx, sessUserID); uid != "" {
		if sid := d.sessions.GetString(ctx, sessID); sid != "" {
			_ = d.accounts.EndSignIn(ctx, uid, sid) // gone already: nothing to end
		}
		if u, err := d.accounts.User(ctx, uid); err == nil {
			d.recordAs(r, u.Email, audit.SignOut, u.Email, "")
		}
	}
	d.leave(w, r, Path+"/login?signed_out=1")
}

// leave ends this browser's dashboard session (a new token first, so that the old one is
// worth nothing even if the destroy fails) and sends it to the page at to.
func (d *Dashboard) leave(w http.ResponseWriter, r *http.Request, to string) {
	ctx := r.Context()
	if err := d.sessions.RenewToken(ctx); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	if err := d.sessions.Destroy(ctx); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, to)
}

// nextPath returns where to go after signing in: a dashboard path given by the sign-in link,
// or the overview. Anything else (another site, a scheme, //host, a backslash) is ignored, so
// the sign-in page cannot redirect elsewhere.
func nextPath(next string) string {
	if next == Path || strings.HasPrefix(next, Path+"/") || strings.HasPrefix(next, Path+"?") {
		if !strings.ContainsAny(next, "\\\r\n") && !strings.HasPrefix(next, Path+"/login") {
			return next
		}
	}
	return Path
}

// waitText formats a throttling wait: whole minutes from one minute up (rounded up), else
// seconds.
func waitText(lang views.Lang, d time.Duration) string {
	if d >= time.Minute {
		return views.T(lang, "login.wait_minutes", int((d+time.Minute-1)/time.Minute))
	}
	return views.T(lang, "login.wait_seconds", int((d+time.Second-1)/time.Second))
}

// retryAfter is a Retry-After value in whole seconds, rounded up.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}
