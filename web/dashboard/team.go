package dashboard

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The team: the users page (owners), invitations, and the audit log (owners and developers).

// record appends to the audit log what the signed-in user of r did: best effort, a failure is
// logged, never shown (the change it records is already made).
func (d *Dashboard) record(r *http.Request, action, object, detail string) {
	actor := ""
	if u := userOf(r); u != nil {
		actor = u.Email
	}
	d.recordAs(r, actor, action, object, detail)
}

// recordAs is record with the actor given (a sign-in, where nobody is signed in yet).
func (d *Dashboard) recordAs(r *http.Request, actor, action, object, detail string) {
	err := d.audit.Record(r.Context(), audit.Entry{Actor: actor, Action: action, Object: object,
		Address: respond.ClientIP(r), Detail: detail})
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
}

// usersNotices are the notices of the users page after an action (?done=…).
var usersNotices = map[string]string{"role": "users.role_changed", "removed": "users.removed", "withdrawn": "users.withdrawn",
	"required": "users.totp_required_saved"}

// usersPage is GET /dashboard/users.
func (d *Dashboard) usersPage(w http.ResponseWriter, r *http.Request) {
	v := d.usersView(r)
	if key := usersNotices[r.URL.Query().Get("done")]; key != "" {
		v.Notice = views.T(v.Lang, key)
	}
	d.site.Render(w, r, http.StatusOK, views.UsersPage(v))
}

// usersView lists the users and the pending invitations.
func (d *Dashboard) usersView(r *http.Request) views.UsersView {
	ctx := r.Context()
	v := views.UsersView{DashPage: d.page(r, "users"), Role: string(team.RoleViewer),
		InviteAction: respond.Link(r, Path+"/users"), RequireAction: respond.Link(r, Path+"/users/2fa-required"),
		MailSends: d.mailConfigured}
	v.RequireTOTP, _ = d.accounts.RequireTOTP(ctx)
	for _, role := range team.Roles {
		v.Roles = append(v.Roles, string(role))
	}
	users, err := d.accounts.Users(ctx)
	invs, err2 := d.accounts.PendingInvitations(ctx)
	if err := errors.Join(err, err2); err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(ctx))
	}
	me := userOf(r)
	for _, u := range users {
		base := Path + "/users/" + url.PathEscape(u.ID)
		v.Users = append(v.Users, views.UserRow{ID: u.ID, Email: u.Email, Role: string(u.Role), TOTP: u.TOTPEnabled(),
			LastSignInAt: u.LastSignInAt, Self: u.ID == me.ID,
			RoleAction: respond.Link(r, base+"/role"), RemoveAction: respond.Link(r, base+"/remove")})
	}
	for _, inv := range invs {
		v.Invitations = append(v.Invitations, views.InvitationRow{Email: inv.Email, Role: string(inv.Role), InvitedBy: inv.InvitedBy,
			ExpiresAt: inv.ExpiresAt, WithdrawAction: respond.Link(r, Path+"/users/invitations/"+url.PathEscape(inv.ID)+"/withdraw")})
	}
	return v
}

// invite is POST /dashboard/users: an invitation for an e-mail and a role, and its e-mail
// (the link, its expiry, who invited, the role). Without an SMTP server the answer shows its
// link this once, for the owner to send.
func (d *Dashboard) invite(w http.ResponseWriter, r *http.Request) {
	email, roleText := r.PostForm.Get(team.FieldEmail), r.PostForm.Get(team.FieldRole)
	role, err := team.ParseRole(roleText)
	var token string
	var inv *team.Invitation
	if err == nil {
		token, inv, err = d.accounts.InviteWith(r.Context(), email, role, userOf(r).Email, d.invitationMail(r))
	}
	var fe *checkout.ValidationError
	if errors.As(err, &fe) || errors.Is(err, team.ErrEmailTaken) {
		v := d.usersView(r)
		v.Email, v.Role = email, roleText
		if errors.Is(err, team.ErrEmailTaken) {
			v.Errors.Add(team.FieldEmail, checkout.CodeDuplicate, views.T(v.Lang, "users.err_taken"))
		} else {
			for _, f := range []string{team.FieldEmail, team.FieldRole} {
				if fe.Has(f) {
					v.Errors.Add(f, fe.Code(f), views.T(v.Lang, "users.err_"+f))
				}
			}
		}
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.UsersPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.wakeMail()
	d.record(r, audit.UserInvited, inv.Email, "role: "+string(inv.Role))
	v := d.usersView(r)
	v.InviteLink = d.absolute(r, Path+"/invite/"+token)
	v.InviteEmail = inv.Email
	v.InviteExpires = inv.ExpiresAt
	d.site.Render(w, r, http.StatusCreated, views.UsersPage(v))
}

// absolute is the full URL of a path of this checkout, for a link sent by other means.
func (d *Dashboard) absolute(r *http.Request, path string) string {
	return d.publicBase(r) + respond.Link(r, path)
}

// userByID is the user of the route's {id}, or the 404 page (answered here: nil).
func (d *Dashboard) userByID(w http.ResponseWriter, r *http.Request) *team.User {
	u, err := d.accounts.User(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		if checkout.ErrorCode(err) == checkout.CodeNotFound {
			d.notFound(w, r)
		} else {
			d.site.Fail(w, r, err)
		}
		return nil
	}
	return u
}

// lastOwner answers the refusal to leave the dashboard without an owner.
func (d *Dashboard) lastOwner(w http.ResponseWriter, r *http.Request) {
	v := d.usersView(r)
	v.Failed = views.T(v.Lang, "users.last_owner")
	d.site.Render(w, r, http.StatusConflict, views.UsersPage(v))
}

// changeRole is POST /dashboard/users/{id}/role.
func (d *Dashboard) changeRole(w http.ResponseWriter, r *http.Request) {
	u := d.userByID(w, r)
	if u == nil {
		return
	}
	role, err := team.ParseRole(r.PostForm.Get(team.FieldRole))
	if err == nil {
		var out []checkout.OutboxMessage
		if out, err = d.noticeMail(r, u, email.NoticeRole, role); err == nil {
			err = d.accounts.ChangeRole(r.Context(), u.ID, role, out...)
		}
	}
	switch {
	case errors.Is(err, team.ErrLastOwner):
		d.lastOwner(w, r)
		return
	case checkout.ErrorCode(err) == checkout.CodeInvalid:
		v := d.usersView(r)
		v.Failed = views.T(v.Lang, "users.err_role")
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.UsersPage(v))
		return
	case err != nil:
		d.site.Fail(w, r, err)
		return
	}
	d.wakeMail()
	d.record(r, audit.UserRole, u.Email, audit.Change("role", string(u.Role), string(role)))
	if !d.followMaker(w, r, u, role) {
		return
	}
	respond.Redirect(w, r, Path+"/users?done=role")
}

// removeUser is POST /dashboard/users/{id}/remove: the user is gone, and so are their
// sessions, at their next request.
func (d *Dashboard) removeUser(w http.ResponseWriter, r *http.Request) {
	u := d.userByID(w, r)
	if u == nil {
		return
	}
	out, err := d.noticeMail(r, u, email.NoticeRemoved, "")
	if err == nil {
		err = d.accounts.RemoveUser(r.Context(), u.ID, out...)
	}
	if err != nil {
		if errors.Is(err, team.ErrLastOwner) {
			d.lastOwner(w, r)
			return
		}
		d.site.Fail(w, r, err)
		return
	}
	d.wakeMail()
	d.record(r, audit.UserRemoved, u.Email, "role: "+string(u.Role))
	if !d.followMaker(w, r, u, "") {
		return
	}
	if u.ID == userOf(r).ID {
		_ = d.sessions.Destroy(r.Context())
		respond.Redirect(w, r, Path+"/login?ended=1")
		return
	}
	respond.Redirect(w, r, Path+"/users?done=removed")
}

// followMaker makes what u made follow their new role (role "": u was removed): the
// personal-data right of their API keys follows the role, and a removed user's keys are
// revoked; their open invitations of roles they may no longer invite are withdrawn. Each
// change is in the audit log. It answers an error itself and reports whether to go on.
func (d *Dashboard) followMaker(w http.ResponseWriter, r *http.Request, u *team.User, role team.Role) bool {
	why := "maker's role: " + string(role)
	if role == "" {
		why = "maker removed"
	}
	if d.keys != nil {
		var ks []apikeys.Key
		var err error
		if role == "" {
			ks, err = d.keys.RevokeMadeBy(r.Context(), u.Email)
		} else {
			ks, err = d.keys.FollowRole(r.Context(), u.Email, role)
		}
		for _, k := range ks {
			if role == "" {
				d.record(r, audit.KeyRevoked, k.Name, why+"; "+k.Hint)
			} else {
				d.record(r, audit.KeyRights, k.Name, fmt.Sprintf("personal data: %t; %s; %s", k.PersonalData, why, k.Hint))
			}
		}
		if err != nil {
			d.site.Fail(w, r, err)
			return false
		}
	}
	invs, err := d.accounts.WithdrawInvitationsOf(r.Context(), u.Email, role)
	for _, inv := range invs {
		d.record(r, audit.InviteWithdrawn, inv.Email, "role: "+string(inv.Role)+"; "+strings.Replace(why, "maker", "inviter", 1))
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return false
	}
	return true
}

// withdrawInvitation is POST /dashboard/users/invitations/{id}/withdraw.
func (d *Dashboard) withdrawInvitation(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	var email string
	if invs, err := d.accounts.PendingInvitations(r.Context()); err == nil {
		for _, inv := range invs {
			if inv.ID == id {
				email = inv.Email
			}
		}
	}
	if err := d.accounts.WithdrawInvitation(r.Context(), id); err != nil {
		if checkout.ErrorCode(err) == checkout.CodeNotFound {
			d.notFound(w, r)
			return
		}
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.InviteWithdrawn, email, "")
	respond.Redirect(w, r, Path+"/users?done=withdrawn")
}

// invitePage is GET /dashboard/invite/{token}: the form where the invited person chooses a
// password. The token in the path is the form's proof of origin: nobody without the link can
// post it. An unknown, used or expired link is a 404 page saying so.
func (d *Dashboard) invitePage(w http.ResponseWriter, r *http.Request) {
	inv, err := d.accounts.Invitation(r.Context(), chi.URLParam(r, "token"))
	if err != nil {
		d.badInvitation(w, r, err)
		return
	}
	d.site.Render(w, r, http.StatusOK, views.InvitePage(d.inviteView(r, inv)))
}

func (d *Dashboard) inviteView(r *http.Request, inv *team.Invitation) views.InviteView {
	return views.InviteView{DashPage: d.page(r, ""), Email: inv.Email, Role: string(inv.Role), ExpiresAt: inv.ExpiresAt,
		Action: respond.Link(r, Path+"/invite/"+url.PathEscape(chi.URLParam(r, "token")))}
}

// badInvitation answers a link that cannot be used.
func (d *Dashboard) badInvitation(w http.ResponseWriter, r *http.Request, err error) {
	if !errors.Is(err, team.ErrInvitationInvalid) {
		d.site.Fail(w, r, err)
		return
	}
	lang := respond.Lang(r)
	d.errorPage(w, r, http.StatusNotFound, views.T(lang, "invite.invalid_title"), views.T(lang, "invite.invalid_text"), "",
		respond.Link(r, Path+"/login"))
}

// acceptInvitation is POST /dashboard/invite/{token}: the new user is made with the password
// they chose, the link is used, and they go to the sign-in.
func (d *Dashboard) acceptInvitation(w http.ResponseWriter, r *http.Request) {
	if !d.site.ParseForm(w, r) {
		return
	}
	token := chi.URLParam(r, "token")
	pw, confirm := r.PostForm.Get(team.FieldPassword), r.PostForm.Get("password_confirm")
	inv, err := d.accounts.Invitation(r.Context(), token)
	if err != nil {
		d.badInvitation(w, r, err)
		return
	}
	var u *team.User
	if pw != confirm {
		err = errPasswordsDiffer
	} else {
		u, err = d.accounts.AcceptInvitation(r.Context(), token, pw)
	}
	var fe *checkout.ValidationError
	switch {
	case errors.Is(err, errPasswordsDiffer), errors.As(err, &fe):
		v := d.inviteView(r, inv)
		v.Error = passwordError(v.Lang, err)
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.InvitePage(v))
		return
	case errors.Is(err, team.ErrEmailTaken), errors.Is(err, team.ErrInvitationInvalid):
		d.badInvitation(w, r, team.ErrInvitationInvalid)
		return
	case err != nil:
		d.site.Fail(w, r, err)
		return
	}
	d.recordAs(r, u.Email, audit.UserJoined, u.Email, "role: "+string(u.Role)+"; invited by "+inv.InvitedBy)
	// The password just chosen proved who they are (the link was theirs): signed in at once,
	// on a new session token, as any sign-in.
	d.signIn(w, r, u, audit.DetailInvitation)
}

// errPasswordsDiffer: the new password and its confirmation differ.
var errPasswordsDiffer = errors.New("the passwords differ")

// passwordError is the message of a refused new password, in words.
func passwordError(lang views.Lang, err error) string {
	if errors.Is(err, errPasswordsDiffer) {
		return views.T(lang, "account.err_confirm")
	}
	var fe *checkout.ValidationError
	if errors.As(err, &fe) {
		for _, v := range fe.For(team.FieldPassword) {
			return views.T(lang, "account.err_password", passwordWhy(lang, v))
		}
	}
	return err.Error()
}

// passwordWhy says in lang why a new password was refused (team.CheckPassword's
// violation v, whose message is English).
func passwordWhy(lang views.Lang, v gatewayclient.Violation) string {
	switch v.Code {
	case gatewayclient.CodeRequired, gatewayclient.CodeFormat:
		return views.T(lang, "password."+v.Code)
	case gatewayclient.CodeMinLength:
		return views.T(lang, "password.min_length", team.MinPasswordLength)
	case gatewayclient.CodeMaxLength:
		return views.T(lang, "password.max_length", team.MaxPasswordLength)
	case team.CodeGuessable:
		return views.T(lang, "password.guessable", views.T(lang, "password.why_"+team.GuessableReason(v)))
	}
	return v.Message
}

// auditPageSize is how many entries a page of the audit log shows.
const auditPageSize = 50

// auditFilter reads the audit page's filter: actor, action and, for the next pages, before.
func auditFilter(r *http.Request) audit.Filter {
	q := r.URL.Query()
	f := audit.Filter{Actor: q.Get("actor"), Action: q.Get("action")}
	if n, err := strconv.ParseInt(q.Get("before"), 10, 64); err == nil && n > 0 {
		f.BeforeID = n
	}
	return f
}

// auditPage is GET /dashboard/audit: the newest entries first, filtered by actor and action,
// a page at a time.
func (d *Dashboard) auditPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	f := auditFilter(r)
	f.Limit = auditPageSize + 1
	v := views.AuditView{DashPage: d.page(r, "audit"), Actor: f.Actor, Action: f.Action, Actions: audit.Actions,
		FilterAction: respond.Link(r, Path+"/audit")}
	entries, err := d.audit.Entries(ctx, f)
	actors, err2 := d.audit.Actors(ctx)
	if err := errors.Join(err, err2); err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(ctx))
	}
	v.Actors = actors
	q := url.Values{}
	if f.Actor != "" {
		q.Set("actor", f.Actor)
	}
	if f.Action != "" {
		q.Set("action", f.Action)
	}
	v.CSVURL = respond.Link(r, Path+"/audit.csv")
	if len(q) > 0 {
		v.CSVURL += "?" + q.Encode()
	}
	if len(entries) > auditPageSize {
		entries = entries[:auditPageSize]
		q.Set("before", strconv.FormatInt(entries[len(entries)-1].ID, 10))
		v.OlderURL = respond.Link(r, Path+"/audit?"+q.Encode())
	}
	for _, e := range entries {
		v.Entries = append(v.Entries, views.AuditRow{At: e.At, Actor: e.Actor, Action: e.Action, Object: e.Object,
			Address: e.Address, Detail: e.Detail})
	}
	d.site.Render(w, r, http.StatusOK, views.AuditPage(v))
}

// auditCSV is GET /dashboard/audit.csv: every entry the filter selects, newest first, read a
// page at a time, written as every export is (format=excel: for Excel, see exportFormat);
// cells a spreadsheet would run escaped. The export is itself recorded. The log has no count
// of its entries, so its export always streams.
func (d *Dashboard) auditCSV(w http.ResponseWriter, r *http.Request) {
	format, err := d.exportFormatOf(r, r.URL.Query())
	if err != nil {
		d.badExport(w, r, "audit", err)
		return
	}
	src := &auditRows{log: d.audit, f: auditFilter(r)}
	src.f.Limit = 500
	if src.first, err = d.audit.Entries(r.Context(), src.f); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.deliverExport(w, r, exportAsked{name: "audit", format: format, query: r.URL.RawQuery}, src, -1)
}

// auditRows are the rows of an export of the audit log, the first page read.
type auditRows struct {
	log   *audit.Log
	f     audit.Filter
	first []audit.Entry
}

// auditCols are the columns of the audit log's export.
var auditCols = []sheetCol{{key: "id", kind: colInt}, {key: "at", kind: colTime}, {key: "actor", kind: colText, width: 28},
	{key: "action", kind: colText}, {key: "object", kind: colText, width: 32}, {key: "address", kind: colCode, width: 16},
	{key: "detail", kind: colText, width: 40}}

func (a *auditRows) writeRows(ctx context.Context, out sheetWriter, done func(rows int) error) (int, error) {
	if err := out.header(auditCols); err != nil {
		return 0, err
	}
	rows := 0
	for page := a.first; len(page) > 0; {
		for _, e := range page {
			if err := out.row(auditCols, sheetRow{e.ID, e.At, e.Actor, e.Action, e.Object, e.Address, e.Detail}); err != nil {
				return rows, err
			}
		}
		rows += len(page)
		if err := out.flush(); err != nil {
			return rows, err
		}
		if err := done(rows); err != nil {
			return rows, err
		}
		if len(page) < a.f.Limit {
			break
		}
		a.f.BeforeID = page[len(page)-1].ID
		var err error
		if page, err = a.log.Entries(ctx, a.f); err != nil {
			return rows, &sourceError{err}
		}
	}
	return rows, nil
}
