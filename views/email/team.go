package email

import (
	"time"

	"github.com/pixcheckout/pixcheckout/views"
)

// The team's e-mails: a password reset link, an invitation, and the notices of a change made
// to one's access (two-factor sign-in turned off, another role, removed).

// ResetMail is a password reset link's e-mail.
type ResetMail struct {
	Email     string // the account's
	Link      string // the link's page, under the public URL
	ExpiresAt time.Time
}

// InvitationMail is an invitation's e-mail.
type InvitationMail struct {
	Link      string
	Role      string // team.Role
	InvitedBy string // the inviter's e-mail, or "cli"
	ExpiresAt time.Time
}

// The kinds of NoticeMail.
const (
	NoticeTOTPOff = "totp_off"
	NoticeRole    = "role"
	NoticeRemoved = "removed"
)

// NoticeMail tells a user of a change to their access.
type NoticeMail struct {
	Kind   string // NoticeTOTPOff, NoticeRole, NoticeRemoved
	Role   string // the new role (NoticeRole)
	By     string // who made the change (an e-mail)
	At     time.Time
	SignIn string // the sign-in page, under the public URL
}

// ResetSubject is a reset link's subject.
func ResetSubject(f Frame) string { return f.T("email.reset.subject", f.StoreName) }

// ResetText is a reset link's plain text.
func ResetText(f Frame, m ResetMail) string {
	return f.T("email.reset.heading") + "\n\n" + f.T("email.reset.body", m.Email, f.StoreName) + "\n\n" + m.Link + "\n\n" +
		f.T("email.reset.expires", views.FormatDateTime(f.Lang, m.ExpiresAt)) + "\n" + f.T("email.reset.ignore") + "\n" + TextFooter(f)
}

// InvitationSubject is an invitation's subject.
func InvitationSubject(f Frame) string { return f.T("email.invite.subject", f.StoreName) }

// inviter names who invited, in words.
func (m InvitationMail) inviter(f Frame) string {
	if m.InvitedBy == "cli" || m.InvitedBy == "" {
		return f.T("email.invite.by_admin")
	}
	return m.InvitedBy
}

// InvitationText is an invitation's plain text.
func InvitationText(f Frame, m InvitationMail) string {
	return f.T("email.invite.heading", f.StoreName) + "\n\n" + f.T("email.invite.body", m.inviter(f), f.StoreName, f.T("role."+m.Role)) +
		"\n\n" + m.Link + "\n\n" + f.T("email.invite.expires", views.FormatDateTime(f.Lang, m.ExpiresAt)) + "\n" + TextFooter(f)
}

// NoticeSubject is a notice's subject.
func NoticeSubject(f Frame, m NoticeMail) string {
	return f.T("email.notice."+m.Kind+".subject", f.StoreName)
}

// noticeBody is what a notice says.
func (m NoticeMail) body(f Frame) string {
	when := views.FormatDateTime(f.Lang, m.At)
	if m.Kind == NoticeRole {
		return f.T("email.notice.role.body", m.By, f.T("role."+m.Role), when)
	}
	return f.T("email.notice."+m.Kind+".body", m.By, when)
}

// NoticeText is a notice's plain text.
func NoticeText(f Frame, m NoticeMail) string {
	s := NoticeSubject(f, m) + "\n\n" + m.body(f) + "\n"
	if m.Kind != NoticeRemoved {
		s += "\n" + m.SignIn + "\n"
	}
	return s + "\n" + f.T("email.notice.not_you") + "\n" + TextFooter(f)
}
