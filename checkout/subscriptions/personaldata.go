package subscriptions

import (
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// A subscription's customer (name, document, e-mail, phone) is personal data under the LGPD, as
// a charge's is: the Manager is a checkout.PersonalDataHolder (ServiceOptions.
// PersonalDataHolders), so that data subjects' requests find, export and anonymise
// subscriptions with the orders and charges, and the retention rule anonymises one once it is
// canceled or ended and past the retention. An active or paused subscription keeps them: it
// still issues charges to its customer. (The charges it issued are charges, covered as such.)

// HeldKind is the kind of the subscriptions' records.
const HeldKind = "subscription"

var _ checkout.PersonalDataHolder = (*Manager)(nil)

// SubjectSubscription is a subscription a data subject's request found.
type SubjectSubscription struct {
	Subscription  Subscription
	AnonymisedAt  time.Time // zero: not anonymised
	Notifications []checkout.Notification
}

// HeldKind names the subscriptions among the records a data subject's request finds.
func (m *Manager) HeldKind() string { return HeldKind }

// SubjectHeld returns the subscriptions sm finds, newest first, as data subjects' requests show
// them.
func (m *Manager) SubjectHeld(ctx context.Context, sm checkout.SubjectMatch) ([]checkout.HeldRecord, error) {
	found, err := m.store.SubjectSubscriptions(ctx, sm)
	if err != nil {
		return nil, fmt.Errorf("subscriptions: finding a data subject's subscriptions: %w", err)
	}
	out := make([]checkout.HeldRecord, 0, len(found))
	for _, f := range found {
		s := f.Subscription
		r := checkout.HeldRecord{Kind: HeldKind, ID: s.ID, Status: string(s.Status), Description: s.Description,
			Amount: s.Terms.Amount, CreatedAt: s.CreatedAt, AnonymisedAt: f.AnonymisedAt, Notifications: f.Notifications,
			Customer: checkout.Customer{Name: s.Customer.Name, Document: s.Customer.Document, Email: s.Customer.Email,
				Phone: s.Customer.Phone}}
		if !s.Status.Final() && f.AnonymisedAt.IsZero() {
			r.Blocker = checkout.BlockedAwaitingPayment
		}
		out = append(out, r)
	}
	return out, nil
}

// AnonymiseHeld anonymises those of the subscriptions ids that are canceled or ended.
func (m *Manager) AnonymiseHeld(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := m.store.AnonymiseSubscriptions(ctx, ids, at, h)
	if err != nil {
		return nil, fmt.Errorf("subscriptions: anonymising subscriptions: %w", err)
	}
	return done, nil
}

// AnonymiseHeldDue anonymises at most limit subscriptions canceled or ended since before.
func (m *Manager) AnonymiseHeldDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := m.store.AnonymiseSubscriptionsDue(ctx, before, at, limit, h)
	if err != nil {
		return nil, fmt.Errorf("subscriptions: anonymising subscriptions past their retention: %w", err)
	}
	return done, nil
}
