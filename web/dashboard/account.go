package dashboard

import (
	"errors"
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The own account page: one's password, sessions and second factor, for every role.

// accountNotices are the notices of the account page after an action (?done=…).
var accountNotices = map[string]string{"password": "account.password_changed", "ended": "account.session_ended",
	"totp_on": "account.totp_enabled", "totp_off": "account.totp_disabled", "alerts": "account.alerts_saved"}

// accountPage is GET /dashboard/account.
func (d *Dashboard) accountPage(w http.ResponseWriter, r *http.Request) {
	v := d.accountView(r)
	if key := accountNotices[r.URL.Query().Get("done")]; key != "" {
		v.Notice = views.T(v.Lang, key)
	}
	d.site.Render(w, r, http.StatusOK, views.AccountPage(v))
}

// accountView is the account page of the signed-in user.
func (d *Dashboard) accountView(r *http.Request) views.AccountView {
	ctx := r.Context()
	u := userOf(r)
	v := views.AccountView{DashPage: d.page(r, "account"), Email: u.Email,
		PasswordAction: respond.Link(r, Path+"/account/password"), TOTPEnabled: u.TOTPEnabled()}
	d.totpView(r, &v)
	d.alertsView(r, &v)
	sessions, err := d.accounts.SignIns(ctx, u.ID)
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(ctx))
	}
	current := d.sessions.GetString(ctx, sessID)
	for _, s := range sessions {
		v.Sessions = append(v.Sessions, views.SessionRow{CreatedAt: s.CreatedAt, SeenAt: s.SeenAt, Address: s.Address,
			UserAgent: s.UserAgent, Current: s.ID == current,
			EndAction: respond.Link(r, Path+"/account/sessions/"+url.PathEscape(s.ID)+"/end")})
	}
	return v
}

// changePassword is POST /dashboard/account/password: the current password proves it is the
// user (a wrong one counts as a failed sign-in); the new one follows the rules of every new
// password. Every other session of the user ends; this one goes on, with a new token.
func (d *Dashboard) changePassword(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u := userOf(r)
	pw, confirm := r.PostForm.Get("new_password"), r.PostForm.Get("password_confirm")
	var err error
	var changed *team.User
	if pw != confirm {
		err = errPasswordsDiffer
	} else {
		changed, err = d.accounts.ChangePassword(ctx, u.ID, r.PostForm.Get("current_password"), pw, respond.ClientIP(r),
			d.sessions.GetString(ctx, sessID))
	}
	var fe *checkout.ValidationError
	var te *team.ThrottledError
	switch {
	case errors.Is(err, team.ErrBadCredentials), errors.As(err, &te):
		v := d.accountView(r)
		v.Errors.Add("current_password", "", views.T(v.Lang, "account.err_current"))
		d.recordAs(r, u.Email, audit.SignInFailed, u.Email, audit.DetailWrongCurrentPassword)
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.AccountPage(v))
		return
	case errors.Is(err, errPasswordsDiffer), errors.As(err, &fe):
		v := d.accountView(r)
		v.Errors.Add("new_password", fe.Code(team.FieldPassword), passwordError(v.Lang, err))
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.AccountPage(v))
		return
	case err != nil:
		d.site.Fail(w, r, err)
		return
	}
	if err := d.sessions.RenewToken(ctx); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.sessions.Put(ctx, sessFingerprint, team.PasswordFingerprint(changed))
	d.record(r, audit.PasswordChanged, u.Email, audit.DetailOtherSessionsEnded)
	respond.Redirect(w, r, Path+"/account?done=password")
}

// endSession is POST /dashboard/account/sessions/{id}/end: one of the user's sessions ends at
// its next request (this one at once: it is signed out).
func (d *Dashboard) endSession(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u := userOf(r)
	id := chi.URLParam(r, "id")
	var ended *team.SignIn
	if list, err := d.accounts.SignIns(ctx, u.ID); err == nil {
		for i := range list {
			if list[i].ID == id {
				ended = &list[i]
			}
		}
	}
	if err := d.accounts.EndSignIn(ctx, u.ID, id); err != nil {
		if checkout.ErrorCode(err) == checkout.CodeNotFound {
			d.notFound(w, r)
			return
		}
		d.site.Fail(w, r, err)
		return
	}
	detail := ""
	if ended != nil {
		detail = "signed in from " + ended.Address + " at " + ended.CreatedAt.UTC().Format("2006-01-02T15:04:05Z")
	}
	d.record(r, audit.SessionEnded, u.Email, detail)
	if id == d.sessions.GetString(ctx, sessID) {
		_ = d.sessions.Destroy(ctx)
		respond.Redirect(w, r, Path+"/login?signed_out=1")
		return
	}
	respond.Redirect(w, r, Path+"/account?done=ended")
}

// alertsView fills the account page's choice of alerts (none without alert preferences).
func (d *Dashboard) alertsView(r *http.Request, v *views.AccountView) {
	if d.alerts == nil {
		return
	}
	u := userOf(r)
	p, err := d.alerts.Prefs(r.Context(), u)
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(r.Context()))
		return
	}
	av := &views.AlertsView{Action: respond.Link(r, Path+"/account/alerts"), Paid: string(p.Paid), Lang: p.Lang,
		On: map[string]bool{}, Allowed: map[string]bool{}, NoServer: !d.mailConfigured}
	for _, k := range []team.AlertKind{team.AlertPaid, team.AlertRefundDue, team.AlertGateway, team.AlertExport} {
		av.On[string(k)] = p.Wants(k)
		av.Allowed[string(k)] = u.Role.Can(team.AlertPermission(k))
	}
	v.Alerts = av
}

// saveAlerts is POST /dashboard/account/alerts: the signed-in user's choice of e-mail alerts
// (paid: off, each or daily; alert: refund_due, gateway, export, repeated; lang). An alert
// the role may not receive keeps its earlier choice: its control is disabled, so the browser
// does not send it.
func (d *Dashboard) saveAlerts(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u := userOf(r)
	cur, err := d.alerts.Prefs(ctx, u)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	on := map[string]bool{}
	for _, k := range r.PostForm["alert"] {
		on[k] = true
	}
	p := cur
	if u.Role.Can(team.AlertPermission(team.AlertPaid)) {
		p.Paid = team.PaidMode(r.PostForm.Get("paid"))
	}
	for _, c := range []struct {
		kind team.AlertKind
		to   *bool
	}{{team.AlertRefundDue, &p.RefundDue}, {team.AlertGateway, &p.Gateway}, {team.AlertExport, &p.Export}} {
		if u.Role.Can(team.AlertPermission(c.kind)) {
			*c.to = on[string(c.kind)]
		}
	}
	p.Lang = r.PostForm.Get("lang")
	err = d.alerts.SavePrefs(ctx, u, p)
	var fe *checkout.ValidationError
	switch {
	case errors.As(err, &fe):
		v := d.accountView(r)
		v.Failed = views.T(v.Lang, "account.alerts_paid") + ": " + fe.Error()
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.AccountPage(v))
		return
	case err != nil:
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, Path+"/account?done=alerts")
}
