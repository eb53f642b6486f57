package dashboard

import (
	"net/http"
	"strconv"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The team's e-mails (views/email): each is composed here, in the language of the request
// that causes it, and handed to the accounts service, which writes it in the outbox with the
// change (the link made, the role changed…), or not at all.

// The types of the team's e-mails.
const (
	mailReset      = "user.password_reset"
	mailInvitation = "user.invitation"
	mailTOTPOff    = "user.totp_off"
	mailRole       = "user.role_changed"
	mailRemoved    = "user.removed"
)

// teamDraft is a team e-mail to compose: its type and cause (which make its Message-ID), to
// whom, about which user, and its parts in a frame.
type teamDraft struct {
	typ, cause, to, userID string
	subject                func(email.Frame) string
	html                   func(email.Frame) templ.Component
	text                   func(email.Frame) string
}

// frame is what every e-mail of r needs: the request's language, the store's name and logo,
// public URL and support address.
func (d *Dashboard) frame(r *http.Request) email.Frame {
	store := d.site.Profile(r.Context())
	return email.Frame{Lang: respond.Lang(r), StoreName: store.Name, PublicURL: d.publicBase(r), SupportEmail: store.SupportEmail,
		Logo: views.StoreLogo(store)}
}

// teamMail composes m (none without a composer: the dashboard of a test that sends no e-mail).
func (d *Dashboard) teamMail(r *http.Request, m teamDraft) ([]checkout.OutboxMessage, error) {
	if d.mailComposer == nil {
		return nil, nil
	}
	f := d.frame(r)
	f.Subject = m.subject(f)
	msg, err := d.mailComposer.Compose(r.Context(), mail.Draft{Type: m.typ, Cause: m.cause, To: mail.Address{Email: m.to},
		Lang: string(f.Lang), Subject: f.Subject, HTML: m.html(f), Text: m.text(f), UserID: m.userID, At: d.svc.Now()})
	if err != nil {
		return nil, err
	}
	return []checkout.OutboxMessage{msg}, nil
}

// wakeMail tells the e-mails' workers that a change wrote messages.
func (d *Dashboard) wakeMail() {
	if d.mail != nil {
		d.mail.Wake()
	}
}

// resetMail makes a reset link's e-mail.
func (d *Dashboard) resetMail(r *http.Request) team.Compose[team.ResetRequest] {
	return func(token string, req *team.ResetRequest) ([]checkout.OutboxMessage, error) {
		m := email.ResetMail{Email: req.User.Email, Link: d.resetLink(r, token), ExpiresAt: req.Reset.ExpiresAt}
		return d.teamMail(r, teamDraft{typ: mailReset, cause: req.Reset.ID, to: req.User.Email, userID: req.User.ID,
			subject: email.ResetSubject,
			html:    func(f email.Frame) templ.Component { return email.Reset(f, m) },
			text:    func(f email.Frame) string { return email.ResetText(f, m) }})
	}
}

// invitationMail makes an invitation's e-mail.
func (d *Dashboard) invitationMail(r *http.Request) team.Compose[team.Invitation] {
	return func(token string, inv *team.Invitation) ([]checkout.OutboxMessage, error) {
		m := email.InvitationMail{Link: d.absolute(r, Path+"/invite/"+token), Role: string(inv.Role), InvitedBy: inv.InvitedBy,
			ExpiresAt: inv.ExpiresAt}
		return d.teamMail(r, teamDraft{typ: mailInvitation, cause: inv.ID, to: inv.Email,
			subject: email.InvitationSubject,
			html:    func(f email.Frame) templ.Component { return email.Invitation(f, m) },
			text:    func(f email.Frame) string { return email.InvitationText(f, m) }})
	}
}

// noticeMail makes the notice of a change to u's access, made by the signed-in user of r.
func (d *Dashboard) noticeMail(r *http.Request, u *team.User, kind string, role team.Role) ([]checkout.OutboxMessage, error) {
	typ := map[string]string{email.NoticeTOTPOff: mailTOTPOff, email.NoticeRole: mailRole, email.NoticeRemoved: mailRemoved}[kind]
	now := d.svc.Now()
	by := u.Email
	if actor := userOf(r); actor != nil {
		by = actor.Email
	}
	m := email.NoticeMail{Kind: kind, Role: string(role), By: by, At: now, SignIn: d.absolute(r, Path+"/login")}
	return d.teamMail(r, teamDraft{typ: typ, cause: u.ID + "." + strconv.FormatInt(now.UnixMilli(), 10), to: u.Email, userID: u.ID,
		subject: func(f email.Frame) string { return email.NoticeSubject(f, m) },
		html:    func(f email.Frame) templ.Component { return email.Notice(f, m) },
		text:    func(f email.Frame) string { return email.NoticeText(f, m) }})
}
