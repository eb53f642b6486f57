package views

import (
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// The view models of the team's pages: users and invitations, the own account, the second
// sign-in step, and the audit log.

// UsersView is the users page (owners only).
type UsersView struct {
	DashPage
	Users        []UserRow
	Invitations  []InvitationRow
	Roles        []string // every role, for the selects
	InviteAction string   // POST target of the invitation form
	Email, Role  string   // as typed in the invitation form
	Errors       checkout.ValidationError
	// InviteLink, when set, is the invitation just made: shown this once, to be sent.
	InviteLink    string
	InviteEmail   string
	InviteExpires time.Time
	// MailSends: an SMTP server is configured, so the invitation went by e-mail and its link
	// is not shown.
	MailSends bool
	// RequireTOTP is the setting that makes every user sign in with a second factor;
	// RequireAction, when set, is the form that changes it.
	RequireTOTP   bool
	RequireAction string
	Notice        string
	Failed        string
}

// UserRow is one user of the users page.
type UserRow struct {
	ID, Email, Role string
	TOTP            bool
	LastSignInAt    time.Time // zero: never
	Self            bool      // the signed-in user
	RoleAction      string    // POST target changing the role
	RemoveAction    string    // POST target removing the user
}

// InvitationRow is one invitation not used yet.
type InvitationRow struct {
	Email, Role, InvitedBy string
	ExpiresAt              time.Time
	WithdrawAction         string
}

// InviteView is the page of an invitation's link: the invited person chooses a password.
type InviteView struct {
	DashPage
	Email, Role string
	ExpiresAt   time.Time
	Action      string
	Error       string // the refused password, in words
}

// AuditView is the audit log's page.
type AuditView struct {
	DashPage
	Entries       []AuditRow
	Actors        []string // every actor, for the filter
	Actions       []string // every action, for the filter
	Actor, Action string   // the filter in force
	FilterAction  string   // GET target of the filter
	CSVURL        string   // the export of the filter
	OlderURL      string   // the next page, "" on the last
	Failed        string
}

// AuditRow is one entry of the audit log.
type AuditRow struct {
	At                                     time.Time
	Actor, Action, Object, Address, Detail string
}

// AccountView is the own account page: the password, the sessions, the second factor.
type AccountView struct {
	DashPage
	Email          string
	PasswordAction string
	Errors         checkout.ValidationError // "current_password", "new_password", "code", "totp_password"
	Sessions       []SessionRow
	// The second factor: on (RecoveryLeft codes unused), or an enrolment under way (TOTPQR,
	// a PNG data URL, and TOTPSecret, to type by hand), or neither.
	TOTPEnabled       bool
	TOTPRequired      bool // the owners require it of everyone
	RecoveryLeft      int
	TOTPQR            string
	TOTPSecret        string
	TOTPURL           string   // the otpauth:// URL of the enrolment, a link a phone's app opens
	RecoveryCodes     []string // just made: shown this once
	TOTPStartAction   string
	TOTPConfirmAction string
	TOTPDisableAction string
	Alerts            *AlertsView // nil: no choice of alerts
	Notice            string
	Failed            string
}

// SessionRow is one session of the user.
type SessionRow struct {
	CreatedAt, SeenAt time.Time
	Address           string
	UserAgent         string
	Current           bool // this browser's
	EndAction         string
}

// SecondFactorView is the second step of the sign-in.
type SecondFactorView struct {
	DashPage
	Action string
	Error  string
	// Recovery: the form asks for a recovery code (letters, a text field) rather than the
	// app's six digits (a numeric field); SwitchURL is the same page asking for the other.
	Recovery  bool
	SwitchURL string
}

// auditDetail says an audit entry's detail: in the reader's language when it is one of the
// codes of the catalogue (audit_detail.…), else as recorded (what changed is data).
func auditDetail(lang Lang, detail string) string {
	if detail != "" && HasKey("audit_detail."+detail) {
		return T(lang, "audit_detail."+detail)
	}
	return detail
}

// groupedSecret writes a two-factor secret in groups of four characters, as it is easier to
// type by hand (authenticator apps ignore the spaces).
func groupedSecret(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// recoveryText is the recovery codes as the copied text and the downloaded file say them:
// one a line.
func recoveryText(codes []string) string { return strings.Join(codes, "\r\n") + "\r\n" }

// recoveryDownload is the recovery codes as a data: URL of a text file, downloaded by a link
// (no script needed).
func recoveryDownload(codes []string) templ.SafeURL {
	return templ.SafeURL("data:text/plain;charset=utf-8," + url.PathEscape(recoveryText(codes)))
}
