package charges

import (
	"context"
	"fmt"
)

// Charge returns the charge with that id, or an error wrapping checkout.ErrNotFound.
func (m *Manager) Charge(ctx context.Context, id string) (Charge, error) {
	c, err := m.store.Charge(ctx, id)
	if err != nil {
		return Charge{}, fmt.Errorf("charges: reading charge %s: %w", id, err)
	}
	return c, nil
}

// Timeline returns the changes of the charge with that id, oldest first.
func (m *Manager) Timeline(ctx context.Context, id string) ([]Event, error) {
	evs, err := m.store.ChargeEvents(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("charges: reading the timeline of %s: %w", id, err)
	}
	return evs, nil
}

// List returns the charges f selects, newest first, and how many match f whatever its page,
// counted up to limit.
func (m *Manager) List(ctx context.Context, f Filter, limit int) ([]Charge, int, error) {
	list, err := m.store.ListCharges(ctx, f)
	if err != nil {
		return nil, 0, fmt.Errorf("charges: listing: %w", err)
	}
	n, err := m.store.CountCharges(ctx, f, limit)
	if err != nil {
		return nil, 0, fmt.Errorf("charges: counting: %w", err)
	}
	return list, n, nil
}

// ChargeOfPeriod returns the charge issued for subscription period p, or an error wrapping
// checkout.ErrNotFound.
func (m *Manager) ChargeOfPeriod(ctx context.Context, p Period) (Charge, error) {
	c, err := m.store.ChargeOfPeriod(ctx, p)
	if err != nil {
		return Charge{}, fmt.Errorf("charges: reading the charge of %s's period %s: %w", p.Subscription, p.Due, err)
	}
	return c, nil
}

// Receivables sums what the unpaid charges ask on the manager's São Paulo day: those due today
// or later, and those past their due date (overdue whether or not the sweep marked them yet).
func (m *Manager) Receivables(ctx context.Context) (Receivables, error) {
	r, err := m.store.Receivables(ctx, m.Today())
	if err != nil {
		return Receivables{}, fmt.Errorf("charges: summing the unpaid charges: %w", err)
	}
	return r, nil
}
