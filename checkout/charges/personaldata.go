package charges

import (
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// A charge's customer (name, document, e-mail, phone) is personal data under the LGPD, as an
// order's shopper is: the Manager is a checkout.PersonalDataHolder (ServiceOptions.
// PersonalDataHolders), so that data subjects' requests find, export and anonymise charges with
// the orders, and the retention rule anonymises a charge once it is final (paid or canceled)
// and past the retention. An open or overdue charge keeps them: it may still be paid, and is
// still reminded.

// HeldKind is the kind of the charges' records (and of their notifications in the delivery
// log).
const HeldKind = "charge"

var _ checkout.PersonalDataHolder = (*Manager)(nil)

// HeldKind names the charges among the records a data subject's request finds.
func (m *Manager) HeldKind() string { return HeldKind }

// SubjectHeld returns the charges sm finds, newest first, as data subjects' requests show them.
func (m *Manager) SubjectHeld(ctx context.Context, sm checkout.SubjectMatch) ([]checkout.HeldRecord, error) {
	found, err := m.store.SubjectCharges(ctx, sm)
	if err != nil {
		return nil, fmt.Errorf("charges: finding a data subject's charges: %w", err)
	}
	out := make([]checkout.HeldRecord, 0, len(found))
	for _, f := range found {
		c := f.Charge
		r := checkout.HeldRecord{Kind: HeldKind, ID: c.ID, Status: string(c.Status), Description: c.Description,
			Amount: c.Terms.Amount, CreatedAt: c.CreatedAt, AnonymisedAt: f.AnonymisedAt, Notifications: f.Notifications,
			Customer: checkout.Customer{Name: c.Customer.Name, Document: c.Customer.Document, Email: c.Customer.Email,
				Phone: c.Customer.Phone}}
		if !c.Status.Final() && f.AnonymisedAt.IsZero() {
			r.Blocker = checkout.BlockedAwaitingPayment
		}
		out = append(out, r)
	}
	return out, nil
}

// AnonymiseHeld anonymises those of the charges ids that are final.
func (m *Manager) AnonymiseHeld(ctx context.Context, ids []string, at time.Time, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := m.store.AnonymiseCharges(ctx, ids, at, h)
	if err != nil {
		return nil, fmt.Errorf("charges: anonymising charges: %w", err)
	}
	return done, nil
}

// AnonymiseHeldDue anonymises at most limit charges final since before.
func (m *Manager) AnonymiseHeldDue(ctx context.Context, before, at time.Time, limit int, h *checkout.PersonalDataHasher) ([]string, error) {
	done, err := m.store.AnonymiseChargesDue(ctx, before, at, limit, h)
	if err != nil {
		return nil, fmt.Errorf("charges: anonymising charges past their retention: %w", err)
	}
	return done, nil
}
