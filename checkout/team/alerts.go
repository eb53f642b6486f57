package team

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// The merchant's alerts: e-mails to the dashboard's users about the shop (a paid order, or
// the daily summary; a refund due; the gateway failing and back; a background export ready),
// each user choosing in their own account which they receive. Who may receive one is the
// permission table's: an alert leads to a page, and goes only to users whose role may open
// that page now (a user who lost the permission keeps the choice, but no longer receives it).

// AlertKind names one of the merchant's alerts.
type AlertKind string

// The alerts.
const (
	AlertPaid      AlertKind = "paid"       // each paid order (AlertPrefs.Paid PaidEach)
	AlertSummary   AlertKind = "summary"    // yesterday's paid orders and money, at 08:00 (PaidDaily)
	AlertRefundDue AlertKind = "refund_due" // a late or double payment to return
	AlertGateway   AlertKind = "gateway"    // the gateway failing for more than 5 minutes, and back
	AlertExport    AlertKind = "export"     // the user's own background export is ready
)

// AlertPermission is the permission an alert's page needs, and so its recipient: the orders
// (and the overview's money) for paid orders, the summary and refunds due; the gateway's
// pages for its outages; exporting for an export.
func AlertPermission(k AlertKind) Permission {
	switch k {
	case AlertGateway:
		return PermGatewayRead
	case AlertExport:
		return PermExport
	}
	return PermOrdersRead
}

// PaidMode is how a user hears of paid orders.
type PaidMode string

// The ways to hear of paid orders.
const (
	PaidOff   PaidMode = "off"
	PaidEach  PaidMode = "each"  // an e-mail per paid order
	PaidDaily PaidMode = "daily" // the daily summary at 08:00 (Brasília)
)

// Valid reports whether m is one of the modes.
func (m PaidMode) Valid() bool { return m == PaidOff || m == PaidEach || m == PaidDaily }

// AlertPrefs are the alerts a user chose to receive, and in which language.
type AlertPrefs struct {
	UserID    string
	Paid      PaidMode
	RefundDue bool
	Gateway   bool
	Export    bool
	Lang      string    // "pt-BR" or "en"
	UpdatedAt time.Time // zero: never chosen, the defaults of the role
}

// DefaultAlertPrefs are the alerts of a user who has not chosen. Owners receive every alert,
// paid orders as the daily summary (one e-mail a day whatever the shop sells, with the money
// the overview shows; each order is one click away in the account). The other roles receive
// only their own exports' e-mails (they asked for the file; nobody else is told): the shop's
// alerts are the owner's to share out, and each user turns on what their work needs.
func DefaultAlertPrefs(u *User) AlertPrefs {
	p := AlertPrefs{UserID: u.ID, Paid: PaidOff, Export: true, Lang: "pt-BR"}
	if u.Role == RoleOwner {
		p.Paid, p.RefundDue, p.Gateway = PaidDaily, true, true
	}
	return p
}

// Wants reports whether the preferences ask for the alert kind (permissions aside).
func (p AlertPrefs) Wants(k AlertKind) bool {
	switch k {
	case AlertPaid:
		return p.Paid == PaidEach
	case AlertSummary:
		return p.Paid == PaidDaily
	case AlertRefundDue:
		return p.RefundDue
	case AlertGateway:
		return p.Gateway
	case AlertExport:
		return p.Export
	}
	return false
}

// Receives reports whether a user of role r with these preferences is sent the alert kind:
// they want it and their role may open its page.
func (p AlertPrefs) Receives(r Role, k AlertKind) bool {
	return p.Wants(k) && r.Can(AlertPermission(k))
}

// UserAlerts is a user and their alert preferences (the defaults when never chosen).
type UserAlerts struct {
	User  User
	Prefs AlertPrefs
}

// AlertStore keeps the alert preferences and the gateway's outages. Implementations must pass
// checkout/storetest.
type AlertStore interface {
	// AlertPrefs returns a user's chosen preferences, or checkout.ErrNotFound when they never
	// chose.
	AlertPrefs(ctx context.Context, userID string) (*AlertPrefs, error)
	// SaveAlertPrefs stores a user's preferences (replacing earlier ones); an unknown user is
	// checkout.ErrNotFound.
	SaveAlertPrefs(ctx context.Context, p AlertPrefs) error
	// UsersAlertPrefs lists every user with their chosen preferences (nil: never chosen).
	UsersAlertPrefs(ctx context.Context) ([]User, []*AlertPrefs, error)
	// OpenGatewayOutage records an outage that started at since, unless one is open already,
	// and returns the start of the open one: every instance gets the same, whoever saw it
	// first.
	OpenGatewayOutage(ctx context.Context, since time.Time) (time.Time, error)
	// CloseGatewayOutage marks the open outage recovered at at and returns its start; ok is
	// false when none was open (another instance closed it, or none was long enough).
	CloseGatewayOutage(ctx context.Context, at time.Time) (start time.Time, ok bool, err error)
}

// Alerts are the users' alert preferences on their store.
type Alerts struct {
	store AlertStore
	now   func() time.Time
}

// NewAlerts returns the alert preferences kept in store; clock nil is time.Now.
func NewAlerts(store AlertStore, clock func() time.Time) *Alerts {
	if clock == nil {
		clock = time.Now
	}
	return &Alerts{store: store, now: clock}
}

// Prefs returns u's preferences: as chosen, else the defaults of u's role.
func (a *Alerts) Prefs(ctx context.Context, u *User) (AlertPrefs, error) {
	p, err := a.store.AlertPrefs(ctx, u.ID)
	switch {
	case errors.Is(err, checkout.ErrNotFound):
		return DefaultAlertPrefs(u), nil
	case err != nil:
		return AlertPrefs{}, fmt.Errorf("team: reading alert preferences: %w", err)
	}
	return *p, nil
}

// FieldPaidAlert names the paid orders' choice in forms and ValidationError.
const FieldPaidAlert = "paid"

// SavePrefs stores u's preferences; a paid mode that is not one of the three is a
// *checkout.ValidationError on FieldPaidAlert. Alerts u's role may not receive are stored as
// chosen (they hold again if the role comes back) and never sent meanwhile.
func (a *Alerts) SavePrefs(ctx context.Context, u *User, p AlertPrefs) error {
	if !p.Paid.Valid() {
		return fieldErrors(&gatewayclient.Violation{Field: FieldPaidAlert, Code: gatewayclient.CodeFormat, Message: "must be off, each or daily"})
	}
	if p.Lang != "en" {
		p.Lang = "pt-BR"
	}
	p.UserID, p.UpdatedAt = u.ID, a.now().UTC()
	if err := a.store.SaveAlertPrefs(ctx, p); err != nil {
		return fmt.Errorf("team: saving alert preferences: %w", err)
	}
	return nil
}

// Recipients lists the users sent the alert kind now, with their preferences: those who want
// it and whose role may open its page.
func (a *Alerts) Recipients(ctx context.Context, k AlertKind) ([]UserAlerts, error) {
	users, prefs, err := a.store.UsersAlertPrefs(ctx)
	if err != nil {
		return nil, fmt.Errorf("team: reading the alerts' recipients: %w", err)
	}
	var out []UserAlerts
	for i := range users {
		p := DefaultAlertPrefs(&users[i])
		if prefs[i] != nil {
			p = *prefs[i]
		}
		if p.Receives(users[i].Role, k) {
			out = append(out, UserAlerts{User: users[i], Prefs: p})
		}
	}
	return out, nil
}

// OpenOutage records (or finds) the gateway's open outage; see AlertStore.OpenGatewayOutage.
func (a *Alerts) OpenOutage(ctx context.Context, since time.Time) (time.Time, error) {
	start, err := a.store.OpenGatewayOutage(ctx, since.UTC())
	if err != nil {
		return time.Time{}, fmt.Errorf("team: recording the gateway's outage: %w", err)
	}
	return start, nil
}

// CloseOutage ends the gateway's open outage; see AlertStore.CloseGatewayOutage.
func (a *Alerts) CloseOutage(ctx context.Context, at time.Time) (time.Time, bool, error) {
	start, ok, err := a.store.CloseGatewayOutage(ctx, at.UTC())
	if err != nil {
		return time.Time{}, false, fmt.Errorf("team: ending the gateway's outage: %w", err)
	}
	return start, ok, nil
}
