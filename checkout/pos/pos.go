// Package pos is the point of sale's own records: its terminals ("Caixa 1", "Caixa 2"), which
// terminals each cashier may use, and its settings (how long a sale's QR code lives, how long
// a cashier's session may stay idle). A sale itself is an order of checkout.ChannelPOS, placed
// through the one checkout source (checkout.Sale): this package only says where and by whom.
//
// Who may use the point of sale is the role's permission (team.PermPOS, in the one permission
// table); which terminals is the table beside it: a cashier is given every terminal until an
// owner narrows them to some (SetCashierTerminals), owners and operators use every terminal.
package pos

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// FirstTerminal is the terminal a new install has (made by the stores' migration).
const (
	FirstTerminal     = "caixa-1"
	FirstTerminalName = "Caixa 1"
)

// Terminal is one till of the point of sale. A sale belongs to one.
type Terminal struct {
	ID   string
	Name string // unique among the active terminals, 1 to MaxName characters
	// ArchivedAt is when an owner archived it (zero: active). An archived terminal keeps its
	// sales and takes no new one.
	ArchivedAt time.Time
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// Active reports whether the terminal takes sales.
func (t Terminal) Active() bool { return t.ArchivedAt.IsZero() }

// MaxName is the longest name of a terminal.
const MaxName = 40

// FieldName and FieldTerminals name the terminal form's fields, FieldQRMinutes and
// FieldIdleHours the settings'.
const (
	FieldName       = "name"
	FieldTerminals  = "terminals"
	FieldQRMinutes  = "qr_minutes"
	FieldIdleHours  = "idle_hours"
	FieldTerminalID = "terminal"
)

// Settings are the point of sale's settings, an owner's.
type Settings struct {
	// QRLifetime is how long a sale's QR code lives (the countdown the cashier sees).
	QRLifetime time.Duration
	// IdleLimit is how long a cashier's session may stay without a request (the shift),
	// instead of the dashboard's team.SignInIdleTimeout.
	IdleLimit time.Duration
	UpdatedAt time.Time
}

// The settings' defaults and bounds. A QR code lives at least the gateway's minimum.
const (
	DefaultQRLifetime = 5 * time.Minute
	MinQRLifetime     = time.Duration(gatewayclient.MinExpirationSeconds) * time.Second
	MaxQRLifetime     = 30 * time.Minute
	DefaultIdleLimit  = 12 * time.Hour
	MinIdleLimit      = team.SignInIdleTimeout
	MaxIdleLimit      = team.MaxSignInIdle
)

// DefaultSettings are the settings until an owner saves theirs.
func DefaultSettings() Settings {
	return Settings{QRLifetime: DefaultQRLifetime, IdleLimit: DefaultIdleLimit}
}

// Check returns the settings' violations, or nil.
func (s Settings) Check() error {
	fe := &checkout.ValidationError{Kind: gatewayclient.KindValidation}
	if s.QRLifetime < MinQRLifetime || s.QRLifetime > MaxQRLifetime {
		fe.Add(FieldQRMinutes, checkout.CodeRange, fmt.Sprintf("must be %d to %d minutes", int(MinQRLifetime.Minutes()), int(MaxQRLifetime.Minutes())))
	}
	if s.IdleLimit < MinIdleLimit || s.IdleLimit > MaxIdleLimit {
		fe.Add(FieldIdleHours, checkout.CodeRange, fmt.Sprintf("must be %s to %d hours", "0.5", int(MaxIdleLimit.Hours())))
	}
	return fe.Err()
}

// Store keeps the terminals, the cashiers' terminals and the settings. Implementations must
// pass checkout/storetest.
type Store interface {
	ClosingStore
	// Terminals lists every terminal, archived ones too, by name.
	Terminals(ctx context.Context) ([]Terminal, error)
	// CreateTerminal stores a new terminal; a name taken by an active terminal is ErrNameTaken.
	CreateTerminal(ctx context.Context, t Terminal) error
	// UpdateTerminal stores a terminal's name and archival; checkout.ErrNotFound when there is
	// none with its id, ErrNameTaken when its name is another active terminal's.
	UpdateTerminal(ctx context.Context, t Terminal) error
	// CashierTerminals lists the terminals a user was narrowed to (none: never narrowed).
	CashierTerminals(ctx context.Context, userID string) ([]string, error)
	// SetCashierTerminals replaces the terminals a user is narrowed to (none: every terminal).
	// An unknown user or terminal is checkout.ErrNotFound.
	SetCashierTerminals(ctx context.Context, userID string, terminals []string) error
	// POSSettings returns the saved settings, or checkout.ErrNotFound before the first save.
	POSSettings(ctx context.Context) (*Settings, error)
	// SavePOSSettings stores the settings.
	SavePOSSettings(ctx context.Context, s Settings) error
}

// Errors of the point of sale.
var (
	// ErrNameTaken: another active terminal has that name.
	ErrNameTaken = &checkout.ValidationError{Kind: gatewayclient.KindValidation,
		Violations: []checkout.Violation{{Field: FieldName, Code: "taken", Message: "another terminal has this name"}}}
	// ErrLastTerminal: the last active terminal cannot be archived.
	ErrLastTerminal = errors.New("pos: the last active terminal cannot be archived")
	// ErrNotAllowed: the user may not sell at that terminal (or it is archived, or unknown).
	ErrNotAllowed = errors.New("pos: this terminal is not one of the user's")
)

// Manager runs the point of sale's records.
type Manager struct {
	store Store
	now   func() time.Time
	newID func() string
}

// NewManager returns the manager of store; clock nil is time.Now.
func NewManager(store Store, clock func() time.Time) *Manager {
	if clock == nil {
		clock = time.Now
	}
	return &Manager{store: store, now: clock, newID: checkout.NewID}
}

// Terminals lists every terminal, archived ones too, by name.
func (m *Manager) Terminals(ctx context.Context) ([]Terminal, error) {
	ts, err := m.store.Terminals(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: terminals: %w", err)
	}
	return ts, nil
}

// CreateTerminal makes a terminal named name.
func (m *Manager) CreateTerminal(ctx context.Context, name string) (*Terminal, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	now := m.now().UTC()
	t := Terminal{ID: m.newID(), Name: name, CreatedAt: now, UpdatedAt: now}
	if err := m.store.CreateTerminal(ctx, t); err != nil {
		return nil, fmt.Errorf("pos: creating a terminal: %w", err)
	}
	return &t, nil
}

// RenameTerminal renames terminal id.
func (m *Manager) RenameTerminal(ctx context.Context, id, name string) (*Terminal, error) {
	name, err := checkName(name)
	if err != nil {
		return nil, err
	}
	return m.change(ctx, id, func(t *Terminal) error { t.Name = name; return nil })
}

// ArchiveTerminal archives terminal id: it keeps its sales and takes no new one. The last
// active terminal is ErrLastTerminal.
func (m *Manager) ArchiveTerminal(ctx context.Context, id string) (*Terminal, error) {
	ts, err := m.Terminals(ctx)
	if err != nil {
		return nil, err
	}
	active := 0
	for _, t := range ts {
		if t.Active() {
			active++
		}
	}
	return m.change(ctx, id, func(t *Terminal) error {
		if !t.Active() {
			return nil
		}
		if active <= 1 {
			return ErrLastTerminal
		}
		t.ArchivedAt = m.now().UTC()
		return nil
	})
}

// change applies edit to terminal id and stores it.
func (m *Manager) change(ctx context.Context, id string, edit func(*Terminal) error) (*Terminal, error) {
	ts, err := m.Terminals(ctx)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(ts, func(t Terminal) bool { return t.ID == id })
	if i < 0 {
		return nil, fmt.Errorf("pos: terminal %s: %w", id, checkout.ErrNotFound)
	}
	t := ts[i]
	if err := edit(&t); err != nil {
		return nil, err
	}
	t.UpdatedAt = m.now().UTC()
	if err := m.store.UpdateTerminal(ctx, t); err != nil {
		return nil, fmt.Errorf("pos: changing terminal %s: %w", id, err)
	}
	return &t, nil
}

// checkName returns a terminal's name as stored (spaces trimmed), or its violation.
func checkName(name string) (string, error) {
	name = strings.Join(strings.Fields(name), " ")
	fe := &checkout.ValidationError{Kind: gatewayclient.KindValidation}
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		fe.Add(FieldName, checkout.CodeRequired, "is required")
	case n > MaxName:
		fe.Add(FieldName, checkout.CodeMaxLength, fmt.Sprintf("must have at most %d characters", MaxName))
	}
	return name, fe.Err()
}

// TerminalsOf returns the active terminals u may sell at, by name: a cashier's (every one
// while an owner has not narrowed them), every active terminal for the other roles with
// team.PermPOS, none for the roles without it.
func (m *Manager) TerminalsOf(ctx context.Context, u *team.User) ([]Terminal, error) {
	if u == nil || !u.Role.Can(team.PermPOS) {
		return nil, nil
	}
	ts, err := m.Terminals(ctx)
	if err != nil {
		return nil, err
	}
	var given []string
	if u.Role == team.RoleCashier {
		if given, err = m.store.CashierTerminals(ctx, u.ID); err != nil {
			return nil, fmt.Errorf("pos: the terminals of user %s: %w", u.ID, err)
		}
	}
	out := ts[:0]
	for _, t := range ts {
		if t.Active() && (len(given) == 0 || slices.Contains(given, t.ID)) {
			out = append(out, t)
		}
	}
	return out, nil
}

// Terminal returns terminal id if u may sell at it, else ErrNotAllowed.
func (m *Manager) Terminal(ctx context.Context, u *team.User, id string) (*Terminal, error) {
	ts, err := m.TerminalsOf(ctx, u)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.ID == id {
			return &t, nil
		}
	}
	return nil, ErrNotAllowed
}

// CashierTerminals lists the terminals user id was narrowed to (none: every terminal).
func (m *Manager) CashierTerminals(ctx context.Context, userID string) ([]string, error) {
	ids, err := m.store.CashierTerminals(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("pos: the terminals of user %s: %w", userID, err)
	}
	return ids, nil
}

// SetCashierTerminals narrows user id to the terminals ids (none, or every active one:
// every terminal, those made later too).
func (m *Manager) SetCashierTerminals(ctx context.Context, userID string, ids []string) error {
	ts, err := m.Terminals(ctx)
	if err != nil {
		return err
	}
	active := 0
	for _, t := range ts {
		if t.Active() {
			active++
		}
	}
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	for _, id := range ids {
		if !slices.ContainsFunc(ts, func(t Terminal) bool { return t.ID == id }) {
			return &checkout.ValidationError{Kind: gatewayclient.KindValidation,
				Violations: []checkout.Violation{{Field: FieldTerminals, Code: checkout.CodeEnum, Message: "unknown terminal " + id}}}
		}
	}
	if len(ids) >= active {
		ids = nil
	}
	if err := m.store.SetCashierTerminals(ctx, userID, ids); err != nil {
		return fmt.Errorf("pos: narrowing the terminals of user %s: %w", userID, err)
	}
	return nil
}

// Settings returns the settings in force (DefaultSettings until an owner saves theirs).
func (m *Manager) Settings(ctx context.Context) (Settings, error) {
	s, err := m.store.POSSettings(ctx)
	if errors.Is(err, checkout.ErrNotFound) {
		return DefaultSettings(), nil
	}
	if err != nil {
		return Settings{}, fmt.Errorf("pos: settings: %w", err)
	}
	return *s, nil
}

// SaveSettings checks and stores s.
func (m *Manager) SaveSettings(ctx context.Context, s Settings) error {
	if err := s.Check(); err != nil {
		return err
	}
	s.UpdatedAt = m.now().UTC()
	if err := m.store.SavePOSSettings(ctx, s); err != nil {
		return fmt.Errorf("pos: saving the settings: %w", err)
	}
	return nil
}
