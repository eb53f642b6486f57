package checkout

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ApplyDeposit applies a deposit record read from the gateway to its order, found by the
// attempt's transaction id (or by externalCode). It reports whether the order changed.
//
// The order only moves forward (CanTransition), never back to awaiting_payment. A payment
// always wins: a deposit PAID makes the order paid even after its QR expired, after the attempt
// failed, or when a newer attempt replaced it; such an order is flagged LatePayment and every
// other open attempt is superseded. A payment of less than the order's amount (amountPaid) puts
// the order under review instead, never paid; a payment of more makes it paid, noted in its
// history. A payment of another attempt of an order already paid (an old QR code and a new one)
// leaves the order as it is and adds the payment to Order.RefundDue, with a history note and a
// warning. Other states of an attempt that is neither the current one
// nor the paid one change nothing but the attempt's last seen deposit state. A deposit of no
// known order gives ErrNotFound and changes nothing. The payment of a charge's order counts
// towards its charge once per order, whenever it is applied (settleCharge).
func (s *Service) ApplyDeposit(ctx context.Context, d *gatewayclient.Deposit) (*Order, bool, error) {
	if d == nil || d.ID == "" {
		return nil, false, fmt.Errorf("checkout: applying a deposit without id: %w", ErrNotFound)
	}
	o, err := s.store.OrderByTransaction(ctx, d.ID)
	if errors.Is(err, ErrNotFound) && d.ExternalCode != "" {
		o, err = s.store.OrderByExternalCode(ctx, d.ExternalCode)
	}
	if err != nil {
		return nil, false, fmt.Errorf("checkout: deposit %s: %w", d.ID, err)
	}
	if o.AttemptByTransaction(d.ID) == nil {
		// Known externalCode but not this transaction: the answer that named it was never stored.
		// The reconciler's EnsurePayment replays it; until then the deposit cannot be placed.
		return o, false, nil
	}
	var before Order
	res, changed, err := s.update(ctx, o.ID, func(o *Order) (bool, error) {
		before = Order{RefundDue: o.RefundDue, Status: o.Status}
		return s.applyDeposit(o, d), nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("checkout: applying deposit %s: %w", d.ID, err)
	}
	if changed {
		if res, err = s.depositApplied(ctx, d, &before, res); err != nil {
			return nil, false, err
		}
	}
	if s.chargeCollected(res, d) {
		// Whether d changed the order now or before (a crash may have come between the
		// order's payment and its charge's): counted once per order.
		if res, err = s.settleCharge(ctx, d, res); err != nil {
			return nil, false, err
		}
	}
	return res, changed, nil
}

// depositApplied follows a change deposit d made to order res (before it): the merchant is
// warned of a refund due, a late payment or another amount than the order's, and a payment
// through a payment link is held to the link's maximum of payments.
func (s *Service) depositApplied(ctx context.Context, d *gatewayclient.Deposit, before, res *Order) (*Order, error) {
	if res.RefundDue > before.RefundDue {
		s.log.WarnContext(ctx, "order paid twice: a refund is due", "number", res.Number, "deposit", d.ID,
			"refund", int64(res.RefundDue-before.RefundDue), "refundDue", int64(res.RefundDue))
	}
	if justPaid := before.Status != StatusPaid && res.Status == StatusPaid; justPaid && res.LatePayment {
		s.log.WarnContext(ctx, "late payment", "number", res.Number, "deposit", d.ID)
	}
	if before.Status != StatusPaid && res.Status == StatusPaid && res.LinkID != "" {
		if err := s.settleLinkCap(ctx, res); err != nil {
			return nil, err
		}
		var err error
		if res, err = s.store.Order(ctx, res.ID); err != nil {
			return nil, fmt.Errorf("checkout: deposit %s: %w", d.ID, err)
		}
	}
	if d.Status == gatewayclient.DepositPaid && d.AmountPaid != nil && *d.AmountPaid != res.Amount {
		s.log.WarnContext(ctx, "amount paid differs from the order amount", "number", res.Number, "deposit", d.ID,
			"amountPaid", int64(*d.AmountPaid), "amount", int64(res.Amount))
	}
	return res, nil
}

// applyDeposit changes o according to d and reports whether anything changed: its state
// (applyState), then the gateway's fee on the deposit that paid it.
func (s *Service) applyDeposit(o *Order, d *gatewayclient.Deposit) bool {
	changed := s.applyState(o, d)
	if a := o.AttemptByTransaction(d.ID); a != nil && a.State == AttemptPaid && !o.PaidAt.IsZero() &&
		d.FeeAmount != nil && o.Fee == nil {
		// The first fee the gateway says for a payment of the order is its fee (a second
		// payment of another attempt is a refund due, whose fee the overview does not count).
		fee := *d.FeeAmount
		o.Fee = &fee
		changed = true
	}
	return changed
}

// applyState changes o's state according to d and reports whether anything changed.
func (s *Service) applyState(o *Order, d *gatewayclient.Deposit) bool {
	a := o.AttemptByTransaction(d.ID)
	target := MapDepositStatus(d.Status)
	if a == nil || target == "" {
		return false
	}
	now := s.now().UTC()
	changed := a.seen(d, now)
	current := a == o.CurrentAttempt()
	reason := Reason{Code: ReasonDeposit, DepositStatus: d.Status}
	switch target {
	case StatusPaid:
		return applyPaid(o, a, d, reason, now) || changed
	case StatusAwaitingPayment:
		// Only a pending order becomes payable through its deposit; an expired or failed one
		// needs a new QR code (RegenerateQR).
		return current && o.Status == StatusPending && o.setStatus(StatusAwaitingPayment, reason, now) || changed
	case StatusFailed:
		if !current || !a.open() {
			return changed
		}
		s.applyFailed(o, a, d, reason, now)
		return true
	default: // under review, refunding, refunded
		return (current || a.State == AttemptPaid) && o.setStatus(target, reason, now) || changed
	}
}

// open reports whether attempt a may still be paid through its own QR code (or get one).
func (a *Attempt) open() bool { return a.State == AttemptPending || a.State == AttemptActive }

// seen records on attempt a the deposit's state and the transfer that paid it (kept for the
// receipt and the merchant), and reports whether either changed.
func (a *Attempt) seen(d *gatewayclient.Deposit, now time.Time) bool {
	changed := false
	if a.DepositStatus != d.Status {
		a.DepositStatus, a.UpdatedAt = d.Status, now
		changed = true
	}
	if d.EndToEnd != "" && a.EndToEnd != d.EndToEnd && d.Status != gatewayclient.DepositPixQRCodeGenerated {
		a.EndToEnd = d.EndToEnd
		changed = true
	}
	return changed
}

// applyPaid applies a payment of attempt a to o and reports whether anything changed: o paid
// (late when its code had expired or been replaced, noting an overpayment), under review when
// underpaid, or a refund due when o was already past paid.
func applyPaid(o *Order, a *Attempt, d *gatewayclient.Deposit, reason Reason, now time.Time) bool {
	if o.Status == StatusPaid || !CanTransition(o.Status, StatusPaid) {
		return paidAgain(o, a, d, now)
	}
	if d.AmountPaid != nil && *d.AmountPaid < o.Amount {
		// A partial payment is money received, but not the order's price: the order is not
		// paid (nothing may ship), and the merchant settles it (refund, or collect the rest).
		// Every re-read of the deposit lands here again, so it never turns paid by itself.
		changed := a.State != AttemptPaid
		if changed {
			a.State, a.UpdatedAt = AttemptPaid, now
			supersedeOthers(o, a, now)
		}
		return o.setStatus(StatusUnderReview, Reason{Code: ReasonUnderpaid, Paid: *d.AmountPaid, Amount: o.Amount}, now) || changed
	}
	paidAt := d.PaymentDate
	if paidAt.IsZero() {
		paidAt = now
	}
	late := paidLate(o, a, paidAt)
	a.State, a.UpdatedAt = AttemptPaid, now
	supersedeOthers(o, a, now)
	if late {
		reason = Reason{Code: ReasonLatePayment}
	}
	if d.AmountPaid != nil && *d.AmountPaid > o.Amount {
		// Paid in full and more: the order is paid; the history tells the merchant to refund
		// the difference.
		reason.Paid, reason.Amount = *d.AmountPaid, o.Amount
	}
	o.LatePayment = late || o.LatePayment // paid again after a MED keeps its flag
	o.PaidAt = paidAt.UTC()
	o.setStatus(StatusPaid, reason, now)
	return true
}

// paidLate reports whether a payment of attempt a at paidAt came after its QR code could be
// paid: the order or the attempt had expired or failed, or a newer code had replaced it.
func paidLate(o *Order, a *Attempt, paidAt time.Time) bool {
	return o.Status == StatusExpired || o.Status == StatusFailed ||
		slices.Contains([]AttemptState{AttemptExpired, AttemptFailed, AttemptSuperseded}, a.State) ||
		(!a.ExpiresAt.IsZero() && paidAt.After(a.ExpiresAt))
}

// paidAgain applies a payment of attempt a to o, already paid or past it: paid twice (an old QR
// and a new one), or paid after the merchant canceled the order (the gateway cannot cancel a
// code). It is recorded on the attempt and the merchant is told what to refund, in the order
// and its history; the order's state stays as it is.
func paidAgain(o *Order, a *Attempt, d *gatewayclient.Deposit, now time.Time) bool {
	if a.State == AttemptPaid || !slices.Contains([]OrderStatus{StatusPaid, StatusRefunding, StatusRefunded, StatusCanceled}, o.Status) {
		return false
	}
	paid := o.Amount
	if d.AmountPaid != nil {
		paid = *d.AmountPaid
	}
	code := ReasonPaidTwice
	if o.Status == StatusCanceled {
		code = ReasonPaidAfterCancel
		o.LatePayment = true
	}
	a.State, a.UpdatedAt = AttemptPaid, now
	o.RefundDue += paid
	o.History = append(o.History, StatusChange{From: o.Status, To: o.Status, At: now,
		Reason: Reason{Code: code, Paid: paid, DepositID: d.ID}})
	return true
}

// applyFailed applies a failure of o's current attempt a, open: gateways report an expired QR
// code as a FAILED deposit, which is an expiry for the shopper (a new QR code is offered), not
// a failure.
func (s *Service) applyFailed(o *Order, a *Attempt, d *gatewayclient.Deposit, reason Reason, now time.Time) {
	msg := reason
	msg.Detail = d.ErrorMessage
	if a.State == AttemptActive && expiredFailure(a, d, now) {
		a.State, a.Error, a.UpdatedAt = AttemptExpired, msg, now
		o.setStatus(StatusExpired, Reason{Code: ReasonQRExpired, DepositStatus: d.Status, Detail: d.ErrorMessage}, now)
		return
	}
	s.failAttempt(o, a, msg, now)
}

// supersedeOthers marks every open attempt of o but a as superseded: a was paid, so no other QR
// code may be shown or completed.
func supersedeOthers(o *Order, a *Attempt, now time.Time) {
	for i := range o.Attempts {
		if b := &o.Attempts[i]; b != a && b.open() {
			b.State = AttemptSuperseded
			b.UpdatedAt = now
		}
	}
}

// RefreshFromGateway reads the deposit of the order's current attempt from the gateway and
// applies it. An order whose attempt is pending is completed with EnsurePayment instead.
func (s *Service) RefreshFromGateway(ctx context.Context, orderID string) (*Order, error) {
	o, err := s.store.Order(ctx, orderID)
	if err != nil {
		return nil, fmt.Errorf("checkout: order: %w", err)
	}
	a := o.CurrentAttempt()
	if a == nil {
		return o, nil
	}
	if a.State == AttemptPending {
		return s.ensure(ctx, orderID)
	}
	if a.TransactionID == "" {
		return o, nil
	}
	return s.refreshTransaction(ctx, o, a.TransactionID)
}

func (s *Service) refreshTransaction(ctx context.Context, o *Order, txID string) (*Order, error) {
	d, err := s.gw.GetDeposit(ctx, txID)
	if err != nil {
		return o, fmt.Errorf("checkout: reading deposit %s of order %s: %w", txID, o.Number, err)
	}
	if d.ID == "" {
		d.ID = txID
	}
	if d.ID != txID {
		return o, fmt.Errorf("checkout: the gateway answered deposit %s for %s", d.ID, txID)
	}
	res, _, err := s.ApplyDeposit(ctx, d)
	if err != nil {
		return o, err
	}
	return res, nil
}

// HandleWebhook processes a gateway notification as a hint. Deliveries are deduplicated by
// webhookID in the store (a repeated id is a no-op; an empty id is not deduplicated). Only
// deposit or transaction kinds naming a transaction of a known order are followed: the deposit
// is read again with GetDeposit and applied, so a forged payload changes nothing. When
// processing fails, the id is forgotten so that a redelivery is processed again.
func (s *Service) HandleWebhook(ctx context.Context, webhookID, kind, recordID string) error {
	return s.HandleWebhookHint(ctx, webhookID, kind, recordID, "")
}

// HandleWebhookHint is HandleWebhook with the status the payload gives the record (a hint too,
// "" when it gives none). PIX_QRCODE_GENERATED, the webhook that follows every new
// transaction, is dropped at once; any other status the order's attempt already records
// teaches nothing either: the deposit is not read again. A status that differs leads to the
// read as before: the hint can save a read, never change an order. (A
// late delivery naming an older status saves a read the newer status's own webhook makes, or
// else the reconciler.)
func (s *Service) HandleWebhookHint(ctx context.Context, webhookID, kind, recordID, status string) error {
	// PIX_QRCODE_GENERATED is where every deposit starts, and the answer that created it said
	// so: it can never move an order forward. Nor can it help when that answer was lost (the
	// attempt has no transaction id to find it by, and the pending attempt is asked again
	// with its idempotency key). It usually arrives before the attempt is even recorded, so
	// the snapshot below could not answer it: it costs no statement either way.
	if strings.EqualFold(status, string(gatewayclient.DepositPixQRCodeGenerated)) && ordersConcern(kind, recordID) {
		return nil
	}
	// A status the snapshot of the order already records teaches nothing, and is not worth a
	// write to remember the webhook by (its redelivery would teach nothing either): such a
	// redelivery costs no statement at all.
	if status != "" && ordersConcern(kind, recordID) {
		if o := s.snaps.byTransaction(recordID); o != nil && knowsStatus(o, recordID, status) {
			return nil
		}
	}
	if webhookID != "" {
		first, err := s.store.MarkWebhook(ctx, webhookID, s.now().UTC())
		if err != nil {
			return fmt.Errorf("checkout: recording webhook %s: %w", webhookID, err)
		}
		if !first {
			return nil
		}
	}
	err := s.handleWebhook(ctx, kind, recordID, status)
	if err != nil && webhookID != "" {
		if ferr := s.store.ForgetWebhook(context.WithoutCancel(ctx), webhookID); ferr != nil {
			s.log.ErrorContext(ctx, "forgetting a failed webhook", "webhook", webhookID, "err", ferr)
		}
	}
	return err
}

func (s *Service) handleWebhook(ctx context.Context, kind, recordID, status string) error {
	if !ordersConcern(kind, recordID) {
		return nil // withdrawals and unknown kinds do not concern orders
	}
	o, err := s.store.OrderByTransaction(ctx, recordID)
	if errors.Is(err, ErrNotFound) {
		return nil // not ours, or forged
	}
	if err != nil {
		return fmt.Errorf("checkout: webhook for %s: %w", recordID, err)
	}
	if status != "" && knowsStatus(o, recordID, status) {
		return nil // already known
	}
	_, err = s.refreshTransaction(ctx, o, recordID)
	return err
}

// ordersConcern reports whether a webhook of kind about recordID may concern an order: a
// deposit's (or a kind not given).
func ordersConcern(kind, recordID string) bool {
	k := strings.ToLower(kind)
	return recordID != "" && (k == "" || strings.Contains(k, "deposit") || strings.Contains(k, "transaction"))
}

// knowsStatus reports whether o's attempt of transaction txID records the deposit status.
func knowsStatus(o *Order, txID, status string) bool {
	for _, a := range o.Attempts {
		if a.TransactionID == txID && a.DepositStatus != "" && strings.EqualFold(string(a.DepositStatus), status) {
			return true
		}
	}
	return false
}

// ExpireDue expires the orders awaiting payment whose current QR code expired, and returns how
// many it expired. The reconciler calls it; a page showing one order uses CurrentOrder, which
// expires that order alone.
func (s *Service) ExpireDue(ctx context.Context) (int, error) {
	now := s.now().UTC()
	due, err := s.store.Orders(ctx, OrderFilter{Statuses: []OrderStatus{StatusAwaitingPayment}, ExpiresBefore: now})
	if err != nil {
		return 0, fmt.Errorf("checkout: listing due orders: %w", err)
	}
	n := 0
	var errs []error
	for _, o := range due {
		_, changed, err := s.update(ctx, o.ID, func(o *Order) (bool, error) { return expire(o, now), nil })
		if err != nil {
			errs = append(errs, fmt.Errorf("checkout: expiring order %s: %w", o.Number, err))
			continue
		}
		if changed {
			n++
		}
	}
	return n, errors.Join(errs...)
}

// CurrentOrder returns an order as a shopper's page must show it now: a pending attempt (the
// gateway's answer was lost, or the gateway was down) is completed first with its idempotency
// key, and a QR code whose time is over expires — this order only, without waiting for the
// reconciler's next pass. When the gateway still cannot be reached, the order is returned as
// stored, pending, without an error: the page says so and refreshes itself. The order is read
// from its Snapshot: it is shared and must not be changed.
func (s *Service) CurrentOrder(ctx context.Context, id string) (*Order, error) {
	o, err := s.Snapshot(ctx, id)
	if err != nil {
		return nil, err
	}
	if a := o.CurrentAttempt(); a != nil && a.State == AttemptPending {
		res, err := s.ensureForShopper(ctx, id, nil, nil)
		if err != nil {
			s.log.WarnContext(ctx, "completing a pending payment", "number", o.Number, "err", err)
		}
		if res != nil {
			o = res
		}
	}
	if a := o.QR(); a != nil && !a.ExpiresAt.After(s.now()) {
		now := s.now().UTC()
		res, _, err := s.update(ctx, id, func(o *Order) (bool, error) { return expire(o, now), nil })
		if err != nil {
			return nil, fmt.Errorf("checkout: expiring order %s: %w", o.Number, err)
		}
		o = res
	}
	return o, nil
}

// expireChecked expires an order whose QR code's time is over, after reading its deposit once:
// a payment made at the last second makes it paid instead, and a deposit the gateway failed is
// applied as such. When the deposit cannot be read the order expires all the same (a late
// payment still makes it paid later) and the error is returned.
func (s *Service) expireChecked(ctx context.Context, orderID string) (*Order, error) {
	_, readErr := s.RefreshFromGateway(ctx, orderID)
	now := s.now().UTC()
	o, _, err := s.update(ctx, orderID, func(o *Order) (bool, error) { return expire(o, now), nil })
	if err != nil {
		return nil, errors.Join(readErr, fmt.Errorf("checkout: expiring an order: %w", err))
	}
	return o, readErr
}

// expire moves o to expired when its current attempt is active and past its expiry.
func expire(o *Order, now time.Time) bool {
	a := o.CurrentAttempt()
	if o.Status != StatusAwaitingPayment || a == nil || a.State != AttemptActive || a.ExpiresAt.After(now) {
		return false
	}
	a.State = AttemptExpired
	a.UpdatedAt = now
	return o.setStatus(StatusExpired, Reason{Code: ReasonQRExpired}, now)
}

// expiredFailure reports whether a FAILED deposit of attempt a means that its QR code expired:
// its expiry has passed, or the gateway's message says so.
func expiredFailure(a *Attempt, d *gatewayclient.Deposit, now time.Time) bool {
	if !a.ExpiresAt.IsZero() && !now.Before(a.ExpiresAt) {
		return true
	}
	return strings.Contains(strings.ToLower(d.ErrorMessage), "expir")
}
