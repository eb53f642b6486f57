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

// The self-service password reset, beside the sign-in and outside the signed-in routes:
// /dashboard/password-reset asks for an e-mail and answers the same whatever it is; the link
// sent, /dashboard/password-reset/{token}, sets a new password once, within the hour.

// resetPath is the page that asks for a reset link.
const resetPath = Path + "/password-reset"

// resetRequestPage is GET /dashboard/password-reset: the form, or (sent=1) the one answer.
// The visitor is not signed in: the form's token lives in a session of its own.
func (d *Dashboard) resetRequestPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tok := d.sessions.GetString(ctx, sessCSRF)
	if tok == "" {
		tok = newToken()
		d.sessions.Put(ctx, sessCSRF, tok)
	}
	v := views.ResetRequestView{DashPage: d.page(r, ""), Action: respond.Link(r, resetPath), CSRF: tok,
		Sent: r.URL.Query().Get("sent") == "1", LoginURL: respond.Link(r, Path+"/login")}
	d.site.Render(w, r, http.StatusOK, views.ResetRequestPage(v))
}

// requestReset is POST /dashboard/password-reset: a link goes to the e-mail when it is a
// user's and neither it nor the client address asked too often; whatever happened, the
// answer is the same page (after a redirect, so that a reload posts nothing).
func (d *Dashboard) requestReset(w http.ResponseWriter, r *http.Request) {
	if !d.site.ParseForm(w, r) {
		return
	}
	if !d.validCSRF(r) {
		d.site.Log.WarnContext(r.Context(), "dashboard form without a valid token", "request_id", respond.RequestID(r.Context()))
		d.site.Error(w, r, http.StatusForbidden)
		return
	}
	req, err := d.accounts.RequestPasswordReset(r.Context(), r.PostForm.Get("email"), respond.ClientIP(r), d.resetMail(r))
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	if req != nil {
		d.wakeMail()
		d.recordAs(r, req.User.Email, audit.PasswordResetAsked, req.User.Email, "")
	}
	respond.Redirect(w, r, resetPath+"?sent=1")
}

// resetLink is the absolute address of a reset link's page, as the e-mail carries it.
func (d *Dashboard) resetLink(r *http.Request, token string) string {
	return d.absolute(r, resetPath+"/"+url.PathEscape(token))
}

// resetPage is GET /dashboard/password-reset/{token}: the new password's form. The token in
// the path is the form's proof of origin, as an invitation's is. An unknown, used or expired
// link is a 404 page saying so.
func (d *Dashboard) resetPage(w http.ResponseWriter, r *http.Request) {
	_, u, err := d.accounts.PasswordReset(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		d.badReset(w, r, err)
		return
	}
	d.site.Render(w, r, http.StatusOK, views.ResetPage(d.resetView(r, u)))
}

func (d *Dashboard) resetView(r *http.Request, u *team.User) views.ResetView {
	return views.ResetView{DashPage: d.page(r, ""), Email: u.Email,
		Action: respond.Link(r, resetPath+"/"+url.PathEscape(chi.URLParam(r, "token")))}
}

// badReset answers a reset link that cannot be used.
func (d *Dashboard) badReset(w http.ResponseWriter, r *http.Request, err error) {
	if !errors.Is(err, team.ErrPasswordResetInvalid) {
		d.site.Fail(w, r, err)
		return
	}
	lang := respond.Lang(r)
	d.errorPage(w, r, http.StatusNotFound, views.T(lang, "reset.invalid_title"), views.T(lang, "reset.invalid_text"), "",
		respond.Link(r, resetPath))
}

// reset is POST /dashboard/password-reset/{token}: the new password is set (the link used,
// every session of the user ended, the audit log told) and the user goes to the sign-in,
// where a second factor is still asked for. The browser's own session ends too.
func (d *Dashboard) reset(w http.ResponseWriter, r *http.Request) {
	if !d.site.ParseForm(w, r) {
		return
	}
	ctx := r.Context()
	token := chi.URLParam(r, "token")
	_, u, err := d.accounts.PasswordReset(ctx, token)
	if err != nil {
		d.badReset(w, r, err)
		return
	}
	pw, confirm := r.PostForm.Get(team.FieldPassword), r.PostForm.Get("password_confirm")
	if pw != confirm {
		err = errPasswordsDiffer
	} else {
		_, err = d.accounts.ResetPasswordWith(ctx, token, pw)
	}
	var fe *checkout.ValidationError
	switch {
	case errors.Is(err, errPasswordsDiffer), errors.As(err, &fe):
		v := d.resetView(r, u)
		v.Error = passwordError(v.Lang, err)
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.ResetPage(v))
		return
	case err != nil:
		d.badReset(w, r, err)
		return
	}
	d.recordAs(r, u.Email, audit.PasswordReset, u.Email, audit.DetailResetLink)
	d.leave(w, r, Path+"/login?reset=1")
}
