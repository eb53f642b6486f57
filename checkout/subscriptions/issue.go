package subscriptions

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// issueBatch is how many subscriptions one read gives the issuer.
const issueBatch = 100

// Issue issues the charge of every period of an active subscription due within the lead days
// (the merchant's setting) of the clock's São Paulo day, and says how many it issued. Run it
// from any instance, as often as wanted: each period's charge is made once (the store refuses
// a second charge of a period), in one transaction with the subscription moved past the period
// (one commit a charge), and a run after a stop catches up on every period it missed.
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
		n, err := m.issueBatch(ctx, due, today, horizon)
		issued += n
		if err != nil {
			errs = append(errs, err)
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

// issueBatch issues the periods of the subscriptions due, m.workers at a time, and says how
// many charges it made, with the errors of those it could not issue.
func (m *Manager) issueBatch(ctx context.Context, due []Subscription, today, horizon Date) (int, error) {
	var (
		mu     sync.Mutex
		issued int
		errs   []error
		wg     sync.WaitGroup
	)
	next := make(chan Subscription)
	for range max(m.workers, 1) {
		wg.Go(func() {
			for s := range next {
				n, err := m.issue(ctx, s, today, horizon)
				mu.Lock()
				issued += n
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
			}
		})
	}
	for _, s := range due {
		next <- s
	}
	close(next)
	wg.Wait()
	return issued, errors.Join(errs...)
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
		next := s
		next.advance(true)
		next.Version++
		next.UpdatedAt = m.now().UTC()
		created, err := m.issuePeriod(ctx, &s, next, today)
		if err == nil && !created {
			// The period's charge was made before: only move s past it.
			if err = m.store.UpdateSubscription(ctx, next); err != nil {
				err = fmt.Errorf("subscriptions: storing subscription %s: %w", s.ID, err)
			}
		}
		if errors.Is(err, checkout.ErrConflict) && conflicts < 5 {
			// Another instance issued this period too, or the merchant changed s: read it again.
			conflicts++
			id := s.ID
			if s, err = m.store.Subscription(ctx, id); err != nil {
				return made, fmt.Errorf("subscriptions: reading subscription %s: %w", id, err)
			}
			continue
		}
		if err != nil {
			return made, err
		}
		if created {
			made++
		}
		s = next
	}
	return made, nil
}

// issuePeriod makes the charge of s's next period, through the charges' one way of making a
// charge, with next (s moved past the period) stored in the charge's transaction, and reports
// whether it made it (false: it was made already, by another instance or by a run that stopped
// before recording it on s; next is then not stored). A checkout.ErrConflict says s changed
// since it was read (nothing stored).
func (m *Manager) issuePeriod(ctx context.Context, s *Subscription, next Subscription, today Date) (bool, error) {
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
		ExternalCode: code, Period: period, Companion: next}
	_, err := m.charges.Create(ctx, "", "", in)
	if err == nil {
		return true, nil
	}
	if _, ferr := m.charges.ChargeOfPeriod(ctx, period); ferr == nil {
		return false, nil
	}
	return false, fmt.Errorf("subscriptions: issuing subscription %s's charge due %s: %w", s.ID, period.Due, err)
}
