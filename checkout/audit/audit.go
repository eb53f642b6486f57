package audit

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// ActorCLI is the actor of what the `checkout` commands change.
const ActorCLI = "cli"

// The actions the audit log records.
const (
	SignIn          = "signin"
	SignInFailed    = "signin.failed"
	SignOut         = "signout"
	PasswordChanged = "password.changed"
	PasswordReset   = "password.reset"
	// PasswordResetAsked: a reset link was sent (requests that send nothing are not
	// recorded: they are answered like the others, and the log is no place for strangers).
	PasswordResetAsked = "password.reset_requested"
	SessionEnded       = "session.ended"
	TOTPEnabled        = "2fa.enabled"
	TOTPDisabled       = "2fa.disabled"
	TOTPRequired       = "2fa.required_changed"
	RecoveryUsed       = "2fa.recovery_code_used"
	UserInvited        = "user.invited"
	UserJoined         = "user.joined"
	UserAdded          = "user.added"
	UserRole           = "user.role_changed"
	UserRemoved        = "user.removed"
	InviteWithdrawn    = "user.invitation_withdrawn"
	KeyCreated         = "apikey.created"
	KeyRevoked         = "apikey.revoked"
	// KeyRights: a key gained or lost the personal-data right with its maker's role.
	KeyRights      = "apikey.rights_changed"
	Settings       = "settings.changed"
	Ping           = "settings.test_notification"
	SecretRotated  = "secret.rotated"
	SecretRevealed = "secret.revealed"
	ProductCreated = "product.created"
	ProductChanged = "product.changed"
	LinkCreated    = "link.created"
	LinkChanged    = "link.changed"
	Export         = "export"
	// PersonalShown: an owner showed an order's document and phones in full (object: the
	// order's number and id).
	PersonalShown = "personal_data.shown"
	// ExportUnmasked: an owner exported with documents and phones in full.
	ExportUnmasked = "export.unmasked"
	// The merchant's actions on an order (checkout/fulfilment.go); the object is the order's number.
	OrderShipped        = "order.shipped"
	OrderDelivered      = "order.delivered"
	OrderCanceled       = "order.canceled"
	OrderNoteAdded      = "order.note_added"
	OrderRefundRecorded = "order.refund_recorded"
	// The e-mail log: a message sent again, a test e-mail, an address cleared from the
	// suppression list (object: the message's id, the address).
	MailResent       = "mail.resent"
	MailTest         = "mail.test"
	MailUnsuppressed = "mail.unsuppressed"
	// StoreChanged: the store's face changed (brand.Profile), each field with its before and after.
	StoreChanged = "store.changed"
	// A charge's changes of status (object: the charge's id); the product itself is the actor
	// of an overdue charge and of a payment.
	ChargeCreated  = "charge.created"
	ChargeCanceled = "charge.canceled"
	ChargePaid     = "charge.paid"
	ChargeOverdue  = "charge.overdue"
	// A subscription's changes (object: its id): made, paused, resumed, canceled, its amount
	// changed (detail: before and after).
	SubscriptionCreated  = "subscription.created"
	SubscriptionPaused   = "subscription.paused"
	SubscriptionResumed  = "subscription.resumed"
	SubscriptionCanceled = "subscription.canceled"
	SubscriptionChanged  = "subscription.changed"
	// POSChanged: the point of sale's terminals, settings or a cashier's terminals changed
	// (object: the terminal, "settings" or the cashier's e-mail; detail: what).
	POSChanged = "pos.changed"
)

// Actions lists the actions, for the audit page's filter.
var Actions = []string{SignIn, SignInFailed, SignOut, PasswordChanged, PasswordReset, PasswordResetAsked,
	SessionEnded, TOTPEnabled, TOTPDisabled, TOTPRequired, RecoveryUsed, UserInvited,
	UserJoined, UserAdded, UserRole, UserRemoved, InviteWithdrawn, KeyCreated,
	KeyRevoked, KeyRights, Settings, Ping, SecretRotated, SecretRevealed, ProductCreated, ProductChanged,
	LinkCreated, LinkChanged, Export, SubjectSearch, SubjectExport, SubjectAnonymise,
	PersonalShown, ExportUnmasked,
	OrderShipped, OrderDelivered, OrderCanceled, OrderNoteAdded, OrderRefundRecorded,
	MailResent, MailTest, MailUnsuppressed, StoreChanged, ChargeCreated, ChargeCanceled, ChargePaid, ChargeOverdue,
	SubscriptionCreated, SubscriptionPaused, SubscriptionResumed, SubscriptionCanceled, SubscriptionChanged, POSChanged}

// Details of audit entries that are the same every time, as codes the dashboard says in the
// reader's language; other details (what changed, before and after) are data.
const (
	DetailWrongPassword        = "wrong_password"         // a sign-in's e-mail or password
	DetailWrongCode            = "wrong_code"             // a second factor wrong, expired or used
	DetailWithCode             = "with_code"              // signed in with an authenticator code
	DetailWithRecoveryCode     = "with_recovery_code"     // signed in with a recovery code
	DetailOtherSessionsEnded   = "other_sessions_ended"   // a password change ended the user's other sessions
	DetailWrongCurrentPassword = "wrong_current_password" // at a password change or turning 2FA off
	DetailWrongPasswordReveal  = "wrong_password_reveal"  // typed to reveal the signing secret
	DetailInvitation           = "invitation"             // signed in on accepting an invitation
	DetailResetLink            = "reset_link"             // a password reset with a link sent by e-mail
)

// DetailCodes lists the codes above.
var DetailCodes = []string{DetailWrongPassword, DetailWrongCode, DetailWithCode, DetailWithRecoveryCode,
	DetailOtherSessionsEnded, DetailWrongCurrentPassword, DetailWrongPasswordReveal, DetailInvitation, DetailResetLink}

// DefaultAuditRetention is how long the audit log keeps an entry unless configured.
const DefaultAuditRetention = 365 * 24 * time.Hour

// Entry is one line of the audit log: who did what to which object, when, from where,
// and what changed. It never holds a secret.
type Entry struct {
	ID      int64
	At      time.Time // UTC
	Actor   string    // the user's e-mail, ActorCLI, or the e-mail typed at a failed sign-in
	Action  string    // one of Actions
	Object  string    // by its name: a user's e-mail, a key's name, a product's title, an export's file
	Address string    // the client's address ("" from the CLI)
	Detail  string    // what changed: before → after for settings, never a secret
}

// Filter selects audit entries, newest first.
type Filter struct {
	Actor, Action string // "" : any
	BeforeID      int64  // > 0: only entries older than this one (the next page)
	Limit         int    // at most this many (0: no limit)
}

// Store keeps the audit log: entries are appended, never changed, and pruned only after
// the retention. Implementations must pass checkout/storetest.
type Store interface {
	// AppendAudit adds an entry (its ID is given by the store).
	AppendAudit(ctx context.Context, e Entry) error
	// Entries lists the entries f selects, newest first.
	Entries(ctx context.Context, f Filter) ([]Entry, error)
	// Actors lists every actor of the log, sorted.
	Actors(ctx context.Context) ([]string, error)
	// PruneAudit deletes the entries older than before, and says how many.
	PruneAudit(ctx context.Context, before time.Time) (int, error)
}

// Log records who changed what, from the dashboard and the commands alike.
type Log struct {
	store     Store
	now       func() time.Time
	retention time.Duration
}

// New returns the audit log on store; retention (0: DefaultAuditRetention) is how long
// Prune keeps an entry; clock nil is time.Now.
func New(store Store, retention time.Duration, clock func() time.Time) *Log {
	if retention <= 0 {
		retention = DefaultAuditRetention
	}
	if clock == nil {
		clock = time.Now
	}
	return &Log{store: store, now: clock, retention: retention}
}

// MaxText bounds each text of an entry: a failed sign-in records what was typed.
const MaxText = 512

// clip makes s storable and short: valid UTF-8 without NUL, at most MaxText bytes.
func clip(s string) string { return Clip(s, MaxText) }

// Clip makes s valid UTF-8 without NUL, of at most n bytes: storable text typed by anyone (the
// team's sign-ins keep their address and user agent clipped the same way).
func Clip(s string, n int) string {
	s = strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", ""), "\uFFFD")
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

// Record appends an entry at the current time. A nil log records nothing.
func (l *Log) Record(ctx context.Context, e Entry) error {
	if l == nil {
		return nil
	}
	e = l.Stamp(e)
	if err := l.store.AppendAudit(ctx, e); err != nil {
		return fmt.Errorf("audit: recording %s in the audit log: %w", e.Action, err)
	}
	return nil
}

// Stamp returns e as Record appends it (at the current time, each text clipped), for a store
// that writes it in the transaction of the change it records: the change and its entry are
// then committed together, in one turn of the database's writer.
func (l *Log) Stamp(e Entry) Entry {
	e.At = l.now().UTC()
	e.Actor, e.Action, e.Object, e.Address, e.Detail = clip(e.Actor), clip(e.Action), clip(e.Object), clip(e.Address), clip(e.Detail)
	return e
}

// Entries lists the entries f selects, newest first.
func (l *Log) Entries(ctx context.Context, f Filter) ([]Entry, error) {
	return l.store.Entries(ctx, f)
}

// Actors lists every actor of the log.
func (l *Log) Actors(ctx context.Context) ([]string, error) { return l.store.Actors(ctx) }

// Prune deletes the entries older than the retention.
func (l *Log) Prune(ctx context.Context) (int, error) {
	return l.store.PruneAudit(ctx, l.now().Add(-l.retention))
}

// Change describes a change for Entry.Detail: `name: "before" → "after"`.
func Change(name, before, after string) string {
	return fmt.Sprintf("%s: %q → %q", name, before, after)
}

// The audit log's actions of data subjects' requests. Their detail names the subject only
// masked (checkout.Subject.Masked), never the document or e-mail typed.
const (
	SubjectSearch    = "personal_data.search"
	SubjectExport    = "personal_data.export"
	SubjectAnonymise = "personal_data.anonymise"
)
