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
	AuditSignIn          = "signin"
	AuditSignInFailed    = "signin.failed"
	AuditSignOut         = "signout"
	AuditPasswordChanged = "password.changed"
	AuditPasswordReset   = "password.reset"
	// AuditPasswordResetAsked: a reset link was sent (requests that send nothing are not
	// recorded: they are answered like the others, and the log is no place for strangers).
	AuditPasswordResetAsked = "password.reset_requested"
	AuditSessionEnded       = "session.ended"
	AuditTOTPEnabled        = "2fa.enabled"
	AuditTOTPDisabled       = "2fa.disabled"
	AuditTOTPRequired       = "2fa.required_changed"
	AuditRecoveryUsed       = "2fa.recovery_code_used"
	AuditUserInvited        = "user.invited"
	AuditUserJoined         = "user.joined"
	AuditUserAdded          = "user.added"
	AuditUserRole           = "user.role_changed"
	AuditUserRemoved        = "user.removed"
	AuditInviteWithdrawn    = "user.invitation_withdrawn"
	AuditKeyCreated         = "apikey.created"
	AuditKeyRevoked         = "apikey.revoked"
	// AuditKeyRights: a key gained or lost the personal-data right with its maker's role.
	AuditKeyRights      = "apikey.rights_changed"
	AuditSettings       = "settings.changed"
	AuditPing           = "settings.test_notification"
	AuditSecretRotated  = "secret.rotated"
	AuditSecretRevealed = "secret.revealed"
	AuditProductCreated = "product.created"
	AuditProductChanged = "product.changed"
	AuditLinkCreated    = "link.created"
	AuditLinkChanged    = "link.changed"
	AuditExport         = "export"
	// AuditPersonalShown: an owner showed an order's document and phones in full (object: the
	// order's number and id).
	AuditPersonalShown = "personal_data.shown"
	// AuditExportUnmasked: an owner exported with documents and phones in full.
	AuditExportUnmasked = "export.unmasked"
	// The merchant's actions on an order (checkout/fulfilment.go); the object is the order's number.
	AuditOrderShipped        = "order.shipped"
	AuditOrderDelivered      = "order.delivered"
	AuditOrderCanceled       = "order.canceled"
	AuditOrderNoteAdded      = "order.note_added"
	AuditOrderRefundRecorded = "order.refund_recorded"
	// The e-mail log: a message sent again, a test e-mail, an address cleared from the
	// suppression list (object: the message's id, the address).
	AuditMailResent       = "mail.resent"
	AuditMailTest         = "mail.test"
	AuditMailUnsuppressed = "mail.unsuppressed"
	// AuditStoreChanged: the store's face changed (brand.Profile), each field with its before and after.
	AuditStoreChanged = "store.changed"
)

// AuditActions lists the actions, for the audit page's filter.
var AuditActions = []string{AuditSignIn, AuditSignInFailed, AuditSignOut, AuditPasswordChanged, AuditPasswordReset, AuditPasswordResetAsked,
	AuditSessionEnded, AuditTOTPEnabled, AuditTOTPDisabled, AuditTOTPRequired, AuditRecoveryUsed, AuditUserInvited,
	AuditUserJoined, AuditUserAdded, AuditUserRole, AuditUserRemoved, AuditInviteWithdrawn, AuditKeyCreated,
	AuditKeyRevoked, AuditKeyRights, AuditSettings, AuditPing, AuditSecretRotated, AuditSecretRevealed, AuditProductCreated, AuditProductChanged,
	AuditLinkCreated, AuditLinkChanged, AuditExport, AuditSubjectSearch, AuditSubjectExport, AuditSubjectAnonymise,
	AuditPersonalShown, AuditExportUnmasked,
	AuditOrderShipped, AuditOrderDelivered, AuditOrderCanceled, AuditOrderNoteAdded, AuditOrderRefundRecorded,
	AuditMailResent, AuditMailTest, AuditMailUnsuppressed, AuditStoreChanged}

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

// AuditEntry is one line of the audit log: who did what to which object, when, from where,
// and what changed. It never holds a secret.
type AuditEntry struct {
	ID      int64
	At      time.Time // UTC
	Actor   string    // the user's e-mail, ActorCLI, or the e-mail typed at a failed sign-in
	Action  string    // one of AuditActions
	Object  string    // by its name: a user's e-mail, a key's name, a product's title, an export's file
	Address string    // the client's address ("" from the CLI)
	Detail  string    // what changed: before → after for settings, never a secret
}

// AuditFilter selects audit entries, newest first.
type AuditFilter struct {
	Actor, Action string // "" : any
	BeforeID      int64  // > 0: only entries older than this one (the next page)
	Limit         int    // at most this many (0: no limit)
}

// AuditStore keeps the audit log: entries are appended, never changed, and pruned only after
// the retention. Implementations must pass checkout/storetest.
type AuditStore interface {
	// AppendAudit adds an entry (its ID is given by the store).
	AppendAudit(ctx context.Context, e AuditEntry) error
	// AuditEntries lists the entries f selects, newest first.
	AuditEntries(ctx context.Context, f AuditFilter) ([]AuditEntry, error)
	// AuditActors lists every actor of the log, sorted.
	AuditActors(ctx context.Context) ([]string, error)
	// PruneAudit deletes the entries older than before, and says how many.
	PruneAudit(ctx context.Context, before time.Time) (int, error)
}

// AuditLog records who changed what, from the dashboard and the commands alike.
type AuditLog struct {
	store     AuditStore
	now       func() time.Time
	retention time.Duration
}

// NewAuditLog returns the audit log on store; retention (0: DefaultAuditRetention) is how long
// Prune keeps an entry; clock nil is time.Now.
func NewAuditLog(store AuditStore, retention time.Duration, clock func() time.Time) *AuditLog {
	if retention <= 0 {
		retention = DefaultAuditRetention
	}
	if clock == nil {
		clock = time.Now
	}
	return &AuditLog{store: store, now: clock, retention: retention}
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
func (l *AuditLog) Record(ctx context.Context, e AuditEntry) error {
	if l == nil {
		return nil
	}
	e.At = l.now().UTC()
	e.Actor, e.Action, e.Object, e.Address, e.Detail = clip(e.Actor), clip(e.Action), clip(e.Object), clip(e.Address), clip(e.Detail)
	if err := l.store.AppendAudit(ctx, e); err != nil {
		return fmt.Errorf("audit: recording %s in the audit log: %w", e.Action, err)
	}
	return nil
}

// Entries lists the entries f selects, newest first.
func (l *AuditLog) Entries(ctx context.Context, f AuditFilter) ([]AuditEntry, error) {
	return l.store.AuditEntries(ctx, f)
}

// Actors lists every actor of the log.
func (l *AuditLog) Actors(ctx context.Context) ([]string, error) { return l.store.AuditActors(ctx) }

// Prune deletes the entries older than the retention.
func (l *AuditLog) Prune(ctx context.Context) (int, error) {
	return l.store.PruneAudit(ctx, l.now().Add(-l.retention))
}

// AuditChange describes a change for AuditEntry.Detail: `name: "before" → "after"`.
func AuditChange(name, before, after string) string {
	return fmt.Sprintf("%s: %q → %q", name, before, after)
}

// The audit log's actions of data subjects' requests. Their detail names the subject only
// masked (checkout.Subject.Masked), never the document or e-mail typed.
const (
	AuditSubjectSearch    = "personal_data.search"
	AuditSubjectExport    = "personal_data.export"
	AuditSubjectAnonymise = "personal_data.anonymise"
)
