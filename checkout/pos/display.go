package pos

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Display is a customer's display paired with a terminal: a second screen facing the customer
// that shows that terminal's current sale. It holds a long-lived token (in its own cookie),
// kept here as its hash only, until an owner revokes it.
type Display struct {
	ID         string
	TerminalID string
	CreatedAt  time.Time
	// RevokedAt is when an owner revoked it (zero: it still shows its terminal's sales).
	RevokedAt time.Time
}

// Active reports whether the display still shows its terminal's sales.
func (d Display) Active() bool { return d.RevokedAt.IsZero() }

// CodeLifetime is how long a pairing code may be typed on a display; CodeDigits is its length.
const (
	CodeLifetime = 10 * time.Minute
	CodeDigits   = 6
)

// FieldCode names the pairing form's field.
const FieldCode = "code"

// DisplayStore keeps the pairing codes and the displays. Implementations must pass
// checkout/storetest.
type DisplayStore interface {
	// CreateDisplayCode stores a pairing code's hash for a terminal, forgetting the codes expired
	// by created; ok is false when an unexpired code has that hash (the caller draws another).
	CreateDisplayCode(ctx context.Context, codeHash, terminalID string, created, expires time.Time) (ok bool, err error)
	// PairDisplay uses the unexpired, unused code of codeHash (at now) and stores d, with
	// tokenHash, for the code's terminal, in one transaction; d.TerminalID is set from the code.
	// checkout.ErrNotFound when there is no such code (unknown, expired or used).
	PairDisplay(ctx context.Context, codeHash, tokenHash string, now time.Time, d *Display) error
	// DisplayByToken returns the display of a token's hash, revoked ones too;
	// checkout.ErrNotFound when there is none.
	DisplayByToken(ctx context.Context, tokenHash string) (*Display, error)
	// Displays lists every display, newest first.
	Displays(ctx context.Context) ([]Display, error)
	// RevokeDisplay marks display id revoked at at (once) and returns its terminal's id;
	// checkout.ErrNotFound when there is none.
	RevokeDisplay(ctx context.Context, id string, at time.Time) (terminalID string, err error)
}

// ErrBadCode: the pairing code is unknown, expired or used.
var ErrBadCode = &checkout.ValidationError{Kind: gatewayclient.KindValidation,
	Violations: []checkout.Violation{{Field: FieldCode, Code: string(checkout.CodeInvalid), Message: "this code is unknown, expired or used; ask for a new one at the terminal"}}}

// Displays is the point of sale's customer displays: pairing codes made at a terminal, the
// displays they pair, and their tokens.
type Displays struct {
	store DisplayStore
	pos   *Manager
	now   func() time.Time
	newID func() string
	// digits draws a pairing code (a field so that a test can make two draws collide).
	digits func() string
	// revoked, when set, is told the terminal of each display revoked (OnRevoke).
	revoked func(ctx context.Context, terminalID string)
}

// NewDisplays returns the displays of store, for the terminals of m; clock nil is time.Now.
func NewDisplays(store DisplayStore, m *Manager, clock func() time.Time) *Displays {
	if clock == nil {
		clock = time.Now
	}
	return &Displays{store: store, pos: m, now: clock, newID: checkout.NewID, digits: randomDigits}
}

// randomDigits draws CodeDigits random decimal digits.
func randomDigits() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// codeHash is the stored form of a pairing code.
func codeHash(code string) string { return team.TokenHash("pos-display-code:" + code) }

// NewCode makes a pairing code for terminal id, which u must be allowed to sell at, valid
// CodeLifetime and once; it returns the code and when it expires.
func (d *Displays) NewCode(ctx context.Context, u *team.User, terminalID string) (string, time.Time, error) {
	if _, err := d.pos.Terminal(ctx, u, terminalID); err != nil {
		return "", time.Time{}, err
	}
	now := d.now().UTC()
	expires := now.Add(CodeLifetime)
	for range 8 { // a collision with another terminal's live code is rare; a few draws end it
		code := d.digits()
		ok, err := d.store.CreateDisplayCode(ctx, codeHash(code), terminalID, now, expires)
		if err != nil {
			return "", time.Time{}, fmt.Errorf("pos: storing a pairing code: %w", err)
		}
		if ok {
			return code, expires, nil
		}
	}
	return "", time.Time{}, errors.New("pos: no free pairing code; try again")
}

// Pair pairs a display by the code typed on it: it returns the display and its token (the
// secret its cookie holds; only its hash is kept). A code that is malformed, unknown, expired or
// used is ErrBadCode.
func (d *Displays) Pair(ctx context.Context, code string) (*Display, string, error) {
	code = strings.Join(strings.Fields(code), "")
	if len(code) != CodeDigits || strings.Trim(code, "0123456789") != "" {
		return nil, "", ErrBadCode
	}
	var b [32]byte
	_, _ = rand.Read(b[:])
	token := base64.RawURLEncoding.EncodeToString(b[:])
	disp := &Display{ID: d.newID(), CreatedAt: d.now().UTC()}
	err := d.store.PairDisplay(ctx, codeHash(code), team.TokenHash(token), disp.CreatedAt, disp)
	switch {
	case errors.Is(err, checkout.ErrNotFound):
		return nil, "", ErrBadCode
	case err != nil:
		return nil, "", fmt.Errorf("pos: pairing a display: %w", err)
	}
	return disp, token, nil
}

// ByToken returns the active display a token belongs to; checkout.ErrNotFound for an unknown
// or revoked one.
func (d *Displays) ByToken(ctx context.Context, token string) (*Display, error) {
	if token == "" {
		return nil, checkout.ErrNotFound
	}
	disp, err := d.store.DisplayByToken(ctx, team.TokenHash(token))
	if err != nil {
		return nil, err
	}
	if !disp.Active() {
		return nil, checkout.ErrNotFound
	}
	return disp, nil
}

// List lists every display, newest first.
func (d *Displays) List(ctx context.Context) ([]Display, error) {
	ds, err := d.store.Displays(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: displays: %w", err)
	}
	return ds, nil
}

// OnRevoke makes Revoke call announce with the revoked display's terminal, once the revocation
// is stored: the caller wakes that terminal's display streams, which then find their token
// revoked and end. Set it before serving.
func (d *Displays) OnRevoke(announce func(ctx context.Context, terminalID string)) {
	d.revoked = announce
}

// Revoke revokes display id: its token shows nothing from then on, and its open stream ends
// (through OnRevoke's function).
func (d *Displays) Revoke(ctx context.Context, id string) error {
	terminal, err := d.store.RevokeDisplay(ctx, id, d.now().UTC())
	if err != nil {
		return fmt.Errorf("pos: revoking display %s: %w", id, err)
	}
	if d.revoked != nil {
		d.revoked(ctx, terminal)
	}
	return nil
}

// The state of a terminal's current sale, as its display shows it.
const (
	ShowIdle     = "idle"     // no sale: the store's logo
	ShowCharging = "charging" // a sale awaiting payment: the amount and the QR
	ShowPaid     = "paid"     // the sale just paid: the confirmation
	// ShowUnpaired is the last message of a revoked display's stream: its page asks for a
	// pairing code again.
	ShowUnpaired = "unpaired"
)

// PaidShownFor is how long a paid sale's confirmation stays on the display (until the next sale
// replaces it sooner).
const PaidShownFor = 2 * time.Minute

// SaleLister lists orders (checkout.Service and checkout.Store do).
type SaleLister interface {
	Orders(ctx context.Context, f checkout.OrderFilter) ([]*checkout.Order, error)
}

// CurrentSale returns the sale a terminal's display shows at now and how (ShowIdle with a nil
// order when none): the terminal's newest sale while it awaits payment (its QR live, or being
// made), or for PaidShownFor after it was paid.
func CurrentSale(ctx context.Context, orders SaleLister, terminalID string, now time.Time) (*checkout.Order, string, error) {
	os, err := orders.Orders(ctx, checkout.OrderFilter{TerminalID: terminalID, Limit: 1})
	if err != nil {
		return nil, "", fmt.Errorf("pos: the current sale of terminal %s: %w", terminalID, err)
	}
	if len(os) == 0 {
		return nil, ShowIdle, nil
	}
	o := os[0]
	switch {
	case o.Status.WasPaid() && now.Sub(o.PaidAt) < PaidShownFor:
		return o, ShowPaid, nil
	case o.Status == checkout.StatusPending:
		return o, ShowCharging, nil
	case o.QR() != nil && o.QR().ExpiresAt.After(now):
		return o, ShowCharging, nil
	}
	return nil, ShowIdle, nil
}

// Terminals lists every terminal, archived ones too (the displays' list names them).
func (d *Displays) Terminals(ctx context.Context) ([]Terminal, error) { return d.pos.Terminals(ctx) }

// TerminalsOf lists the active terminals u may sell at: those u may show a pairing code of.
func (d *Displays) TerminalsOf(ctx context.Context, u *team.User) ([]Terminal, error) {
	return d.pos.TerminalsOf(ctx, u)
}
