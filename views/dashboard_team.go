package views

import "time"

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
	Errors       map[string]string
	// InviteLink, when set, is the invitation just made: shown this once, to be sent.
	InviteLink    string
	InviteEmail   string
	InviteExpires time.Time
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
