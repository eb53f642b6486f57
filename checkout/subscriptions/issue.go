package subscriptions

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// issueBatch is how many subscriptions one read gives the issuer.
const issueBatch = 100

// Issue issues the charge of every period of an active subscription due within the lead days
// (the merchant's setting) of the clock's São Paulo day, and says how many it issued. Run it
// from any instance, as often as wanted: each period's charge is made once (the store refuses
// a second charge of a period), and a run after a stop catches up on every period it missed.
// A period whose due date passed meanwhile is issued due today (no fine for the product's
// stop). A subscription whose charge cannot be made is left for the next run, the others
// issued, and its error returned with theirs.
func (m *Manager) Issue(ctx context.Context) (int, error) {
	lead, err := m.leadDays(ctx)
	if err != nil {
		return 0, err
	}
	today := charges.Today(m.now())
	horizon := charges.AddDays(today, lead)
	issued := 0
	var errs []error
	var afterDue Date
	afterID := ""
	for {
		due, err := m.store.SubscriptionsDue(ctx, horizon, afterDue, afterID, issueBatch)
		if err != nil {
			return issued, errors.Join(append(errs, fmt.Errorf("subscriptions: reading the subscriptions due: %w", err))...)
		}
		for _, s := range due {
			n, err := m.issue(ctx, s, today, horizon)
			issued += n
			if err != nil {
				errs = append(errs, err)
			}
		}
		if len(due) < issueBatch {
			return issued, errors.Join(errs...)
		}
		afterDue, afterID = due[len(due)-1].NextDue, due[len(due)-1].ID
		if m.pause > 0 {
			select {
			case <-ctx.Done():
				return issued, ctx.Err()
			case <-time.After(m.pause):
			}
		}
	}
}

// leadDays is the merchant's setting, DefaultLeadDays when unset.
func (m *Manager) leadDays(ctx context.Context) (int, error) {
	if m.lead == nil {
		return DefaultLeadDays, nil
	}
	n, err := m.lead(ctx)
	if err != nil {
		return 0, fmt.Errorf("subscriptions: reading the days before the due date to issue on: %w", err)
	}
	if n <= 0 {
		n = DefaultLeadDays
	}
	return n, nil
}

// issue issues s's periods due on or before horizon, advancing it past each, and says how many
// charges it made (not counting those another instance made first).
func (m *Manager) issue(ctx context.Context, s Subscription, today, horizon Date) (int, error) {
	made := 0
	for conflicts := 0; s.Status == StatusActive && !s.NextDue.IsZero() && charges.DaysBetween(s.NextDue, horizon) >= 0; {
		created, err := m.issuePeriod(ctx, &s, today)
		if err != nil {
			return made, err
		}
		if created {
			made++
		}
		s.advance(true)
		s.Version++
		s.UpdatedAt = m.now().UTC()
		err = m.store.UpdateSubscription(ctx, s)
		if errors.Is(err, checkout.ErrConflict) && conflicts < 5 {
			// Another instance issued this period too, or the merchant changed it: read it again.
			conflicts++
			if s, err = m.store.Subscription(ctx, s.ID); err != nil {
				return made, fmt.Errorf("subscriptions: reading subscription %s: %w", s.ID, err)
			}
			continue
		}
		if err != nil {
			return made, fmt.Errorf("subscriptions: storing subscription %s: %w", s.ID, err)
		}
	}
	return made, nil
}

// issuePeriod makes the charge of s's next period, through the charges' one way of making a
// charge, and reports whether it made it (false: it was made already, by another instance or a
// run that stopped before recording it on s).
func (m *Manager) issuePeriod(ctx context.Context, s *Subscription, today Date) (bool, error) {
	period := charges.Period{Subscription: s.ID, Due: s.NextDue}
	due := s.NextDue
	if charges.DaysBetween(today, due) < 0 {
		due = today
	}
	code := s.ExternalCode
	if code != "" {
		code += "/" + period.Due.String()
	}
	in := charges.Input{Customer: s.Customer, Description: s.Description, Terms: s.TermsFor(due, today),
		ExternalCode: code, Period: period}
	_, err := m.charges.Create(ctx, "", "", in)
	if err == nil {
		return true, nil
	}
	if _, ferr := m.charges.ChargeOfPeriod(ctx, period); ferr == nil {
		return false, nil
	}
	return false, fmt.Errorf("subscriptions: issuing subscription %s's charge due %s: %w", s.ID, period.Due, err)
}
