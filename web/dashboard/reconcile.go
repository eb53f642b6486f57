package dashboard

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
)

// The reconciliation: the gateway's deposits paid in a period beside the shop's orders of that
// period, matched by id, then by externalCode, as the checkout applies a deposit to an order
// (the contract does not say that a transaction and its deposit share an id). Nothing of it is
// kept: every reading asks the gateway and the store again.

// Divergence is one way a deposit and the shop's order of it disagree.
type Divergence string

// The divergences, in the order a row names them.
const (
	// DivergenceOutside: a deposit paid with no order of this checkout ("pago fora do checkout").
	DivergenceOutside Divergence = "outside"
	// DivergenceState: the order's state is not the one its deposit's state means (an order
	// paid here whose deposit the gateway does not show as paid, shows refunded, or does not
	// show at all; a deposit paid whose order is not).
	DivergenceState Divergence = "state"
	// DivergenceAmount: the deposit was paid with another amount than the order's.
	DivergenceAmount Divergence = "amount"
	// DivergenceRefund: what the checkout counts as refunded differs from the deposit's
	// refundAmount.
	DivergenceRefund Divergence = "refund"
	// DivergenceFee: the fee the order keeps differs from the deposit's feeAmount.
	DivergenceFee Divergence = "fee"
	// DivergenceExtra: another deposit paid for an order already paid (a refund is due).
	DivergenceExtra Divergence = "extra"
)

// divergences lists them in their order.
var divergences = []Divergence{DivergenceOutside, DivergenceState, DivergenceAmount, DivergenceRefund, DivergenceFee, DivergenceExtra}

// Bounds of one reconciliation, so that one page never reads without end: its period in days,
// the orders and deposits it holds in memory, and the deposits it reads one by one (the orders
// whose deposit the period's list does not hold: paid in the period, refunded in it but paid
// before).
const (
	maxReconDays     = 31
	maxReconOrders   = 20_000
	maxReconDeposits = 20_000
	maxDepositReads  = 100
)

// reconPaidStates are the states of a deposit that was paid: the list is read with them (the
// API's status filter), and then kept to those whose paymentDate is in the period.
var reconPaidStates = []gatewayclient.DepositStatus{gatewayclient.DepositPaid, gatewayclient.DepositProcessingRefund,
	gatewayclient.DepositRefunded, gatewayclient.DepositProcessingInfraction, gatewayclient.DepositInfraction,
	gatewayclient.DepositBlocked, gatewayclient.DepositPendingCompliance}

// errReconTooLarge is a period holding more than a reconciliation reads at once.
var errReconTooLarge = errors.New("the period holds too many orders or deposits to reconcile at once: choose a shorter one")

// reconRow is one line of a reconciliation: a deposit and its order (either may be missing).
type reconRow struct {
	Deposit   *gatewayclient.Deposit // nil: the gateway does not show one (or it was not read: !Checked)
	Order     *checkout.Order        // nil: no order of this checkout
	MatchedBy string                 // "id" or "externalCode" ("" without both)
	// Checked: the order's deposit was looked for (false past maxDepositReads).
	Checked bool
	// RefundHere is what the checkout counts as refunded of this deposit (the order's amount
	// when it is refunding or refunded, as the overview counts it; on another payment, the
	// refunds recorded on the order).
	RefundHere checkout.Cents
	Issues     []Divergence
}

// reconciliation is one period reconciled.
type reconciliation struct {
	From, Before time.Time // the period: São Paulo midnights, Before excluded
	Rows         []reconRow
	// Shop are the overview's figures of the period, from the orders read; Gateway the same
	// figures from the deposits read (Received: paid in the period; Refunded: refundAmount of
	// the refunds dated in it; Held: those paid in it under review now; Fees: their
	// feeAmount).
	Shop, Gateway checkout.MoneyTotals
	Outside       checkout.PaidTotal // deposits paid with no order of this checkout
	Counts        map[Divergence]int
	Unchecked     int // orders whose deposit was not read (past maxDepositReads)
	Divergent     int // rows with at least one divergence
	ListStart     time.Time
	ListEnd       time.Time // the deposit list read: the day before the period to its end (or now)
}

// reconSource is what a reconciliation reads: the shop's orders and the gateway's deposits.
type reconSource struct {
	svc *checkout.Service
	gw  Gateway
}

// reconcile reads and matches the period [from, before) (São Paulo midnights).
func (s reconSource) reconcile(ctx context.Context, from, before time.Time) (*reconciliation, error) {
	rc := &reconciliation{From: from, Before: before, Counts: map[Divergence]int{}}
	paid, err := s.orders(ctx, checkout.MoneyReceived, from, before)
	if err != nil {
		return nil, err
	}
	refunded, err := s.orders(ctx, checkout.MoneyRefunded, from, before)
	if err != nil {
		return nil, err
	}
	held, err := s.orders(ctx, checkout.MoneyHeld, from, before)
	if err != nil {
		return nil, err
	}
	deposits, err := s.deposits(ctx, rc, from, before)
	if err != nil {
		return nil, err
	}
	m := newMatcher(paid, refunded, held)
	for i := range deposits {
		dep := &deposits[i]
		o, by, err := m.orderOf(ctx, s.svc, dep)
		if err != nil {
			return nil, err
		}
		rc.Rows = append(rc.Rows, m.row(dep, o, by))
	}
	reads := 0
	for _, o := range m.orders {
		if m.done[o.ID] {
			continue
		}
		row := reconRow{Order: o, MatchedBy: "id"}
		if id := payingDeposit(o); id != "" && reads < maxDepositReads {
			reads++
			row.Checked = true
			dep, err := s.gw.GetDeposit(ctx, id)
			switch {
			case errors.Is(err, gatewayclient.ErrNotFound):
			case err != nil:
				return nil, fmt.Errorf("reading deposit %s: %w", id, err)
			default:
				row.Deposit = dep
			}
		} else if id == "" {
			row.Checked = true // no deposit at all: the gateway cannot show it paid
		}
		m.done[o.ID] = true
		row.RefundHere = refundedHere(o)
		row.Issues = issues(row)
		if !row.Checked {
			row.Issues, rc.Unchecked = nil, rc.Unchecked+1
		}
		rc.Rows = append(rc.Rows, row)
	}
	rc.totals(paid, refunded, held)
	return rc, nil
}

// orders reads the orders behind one of the overview's figures in the period.
func (s reconSource) orders(ctx context.Context, kind checkout.MoneyKind, from, before time.Time) ([]*checkout.Order, error) {
	list, err := s.svc.Orders(ctx, checkout.OrderFilter{Money: kind, MoneyFrom: from, MoneyBefore: before, Limit: maxReconOrders + 1})
	if err != nil {
		return nil, err
	}
	if len(list) > maxReconOrders {
		return nil, errReconTooLarge
	}
	return list, nil
}

// deposits reads the gateway's deposits paid in [from, before): the list from the day before
// the period (what its date filters filter on is not shown: a QR code made the evening before
// may be paid in the period) to the period's end, or now when it has not ended, by keyset
// (csvCursor), kept to those whose paymentDate is in the period.
func (s reconSource) deposits(ctx context.Context, rc *reconciliation, from, before time.Time) ([]gatewayclient.Deposit, error) {
	end := before.Add(-time.Millisecond)
	if now := s.svc.Now(); now.Before(end) {
		end = now
	}
	start := from.AddDate(0, 0, -1)
	if end.Before(start) {
		end = start
	}
	rc.ListStart, rc.ListEnd = start, end
	f := gatewayclient.DepositFilter{StartDate: start.UTC(), Status: reconPaidStates, PerPage: csvPageSize}
	cur := &csvCursor[gatewayclient.Deposit]{end: end.UTC(), key: depositKey,
		fetch: func(ctx context.Context, at time.Time, page int) ([]gatewayclient.Deposit, int, error) {
			f.EndDate, f.Page = at, page
			p, err := s.gw.ListDeposits(ctx, f)
			if err != nil {
				return nil, 0, err
			}
			return p.Data, p.TotalPages, nil
		}}
	var out []gatewayclient.Deposit
	seen := 0
	for !cur.done {
		items, err := cur.next(ctx)
		if err != nil {
			return nil, fmt.Errorf("listing the gateway's deposits: %w", err)
		}
		if seen += len(items); seen > maxReconDeposits {
			return nil, errReconTooLarge
		}
		for _, d := range items {
			if !d.PaymentDate.IsZero() && !d.PaymentDate.Before(from) && d.PaymentDate.Before(before) {
				out = append(out, d)
			}
		}
	}
	// Oldest payment first: the order a bookkeeper reads a statement in.
	slices.SortStableFunc(out, func(a, b gatewayclient.Deposit) int { return a.PaymentDate.Compare(b.PaymentDate) })
	return out, nil
}

// matcher finds the order of a deposit among the period's orders, then in the store.
type matcher struct {
	orders  []*checkout.Order          // the period's orders, paid ones first, each once
	byTx    map[string]*checkout.Order // by the gateway transaction id of any attempt
	byCode  map[string]*checkout.Order // by externalCode
	done    map[string]bool            // orders with a row
	paidDep map[string]string          // order id → the deposit of its first row
	refunds map[string]bool            // orders whose recorded refunds a row holds
}

func newMatcher(lists ...[]*checkout.Order) *matcher {
	m := &matcher{byTx: map[string]*checkout.Order{}, byCode: map[string]*checkout.Order{}, done: map[string]bool{},
		paidDep: map[string]string{}, refunds: map[string]bool{}}
	seen := map[string]bool{}
	for _, list := range lists {
		for _, o := range list {
			if seen[o.ID] {
				continue
			}
			seen[o.ID] = true
			m.orders = append(m.orders, o)
			for _, a := range o.Attempts {
				if a.TransactionID != "" {
					m.byTx[a.TransactionID] = o
				}
			}
			if o.ExternalCode != "" {
				m.byCode[o.ExternalCode] = o
			}
		}
	}
	return m
}

// orderOf returns the order of dep and how it was matched: by id, then by externalCode, among
// the period's orders, then in the store (an order paid a moment before the period, or
// refunded after it); nil when no order of this checkout is its.
func (m *matcher) orderOf(ctx context.Context, svc *checkout.Service, dep *gatewayclient.Deposit) (*checkout.Order, string, error) {
	if o := m.byTx[dep.ID]; o != nil {
		return o, "id", nil
	}
	if o := m.byCode[dep.ExternalCode]; o != nil && dep.ExternalCode != "" {
		return o, "externalCode", nil
	}
	o, err := svc.OrderByDeposit(ctx, dep.ID)
	if err == nil {
		return o, "id", nil
	}
	if !errors.Is(err, checkout.ErrNotFound) {
		return nil, "", err
	}
	if dep.ExternalCode == "" {
		return nil, "", nil
	}
	o, err = svc.OrderByExternalCode(ctx, dep.ExternalCode)
	switch {
	case errors.Is(err, checkout.ErrNotFound):
		return nil, "", nil
	case err != nil:
		return nil, "", err
	}
	return o, "externalCode", nil
}

// row is the line of dep and its order o (nil: none).
func (m *matcher) row(dep *gatewayclient.Deposit, o *checkout.Order, by string) reconRow {
	row := reconRow{Deposit: dep, Order: o, MatchedBy: by, Checked: true}
	if o == nil {
		row.Issues = []Divergence{DivergenceOutside}
		return row
	}
	if first, ok := m.paidDep[o.ID]; ok && first != dep.ID {
		// Another payment of an order already paid: what is refunded of it is recorded by hand.
		row.Issues = []Divergence{DivergenceExtra}
		if !m.refunds[o.ID] {
			m.refunds[o.ID] = true
			for _, rf := range o.RefundsRecorded() {
				row.RefundHere += rf.Amount
			}
		}
		if row.RefundHere != refundOf(dep) {
			row.Issues = append(row.Issues, DivergenceRefund)
		}
		return row
	}
	m.paidDep[o.ID] = dep.ID
	m.done[o.ID] = true
	row.RefundHere = refundedHere(o)
	row.Issues = issues(row)
	return row
}

// payingDeposit is the deposit that paid o: its attempt paid (the one with the payment's
// end-to-end id), else its current attempt's.
func payingDeposit(o *checkout.Order) string {
	for _, a := range o.Attempts {
		if a.EndToEnd != "" && a.TransactionID != "" {
			return a.TransactionID
		}
	}
	if a := o.CurrentAttempt(); a != nil {
		return a.TransactionID
	}
	return ""
}

// refundedHere is what the overview counts as refunded of o: its amount once its refund began.
func refundedHere(o *checkout.Order) checkout.Cents {
	if o.PaidAt.IsZero() || o.Status != checkout.StatusRefunding && o.Status != checkout.StatusRefunded {
		return 0
	}
	return o.Amount
}

func refundOf(d *gatewayclient.Deposit) checkout.Cents {
	if d == nil || d.RefundAmount == nil {
		return 0
	}
	return *d.RefundAmount
}

// paidOf is what a deposit was paid: amountPaid, else its amount.
func paidOf(d *gatewayclient.Deposit) checkout.Cents {
	if d.AmountPaid != nil {
		return *d.AmountPaid
	}
	return d.Amount
}

// issues are the divergences of an order's row with its deposit (nil: the gateway shows none).
func issues(row reconRow) []Divergence {
	o, dep := row.Order, row.Deposit
	if dep == nil {
		return []Divergence{DivergenceState}
	}
	var out []Divergence
	if checkout.MapDepositStatus(dep.Status) != o.Status {
		out = append(out, DivergenceState)
	}
	if !dep.PaymentDate.IsZero() && paidOf(dep) != o.Amount {
		out = append(out, DivergenceAmount)
	}
	if refundOf(dep) != row.RefundHere {
		out = append(out, DivergenceRefund)
	}
	if dep.FeeAmount != nil && (o.Fee == nil || *o.Fee != *dep.FeeAmount) {
		out = append(out, DivergenceFee)
	}
	return out
}

// totals sums the period's figures on both sides and counts the divergences.
func (rc *reconciliation) totals(paid, refunded, held []*checkout.Order) {
	add := func(t *checkout.PaidTotal, c checkout.Cents) { t.Orders, t.Amount = t.Orders+1, t.Amount+c }
	for _, o := range paid {
		add(&rc.Shop.Received, o.Amount)
		if o.Fee != nil {
			add(&rc.Shop.Fees, *o.Fee)
		} else {
			rc.Shop.FeeUnknown++
		}
	}
	for _, o := range refunded {
		add(&rc.Shop.Refunded, o.Amount)
	}
	for _, o := range held {
		add(&rc.Shop.Held, o.Amount)
	}
	for _, row := range rc.Rows {
		for _, k := range row.Issues {
			rc.Counts[k]++
		}
		if len(row.Issues) > 0 {
			rc.Divergent++
		}
		if row.Deposit != nil {
			rc.addDeposit(row, add)
		}
	}
}

// addDeposit adds a row's deposit to the gateway's figures: those of a payment in the period
// (and to the deposits paid outside the checkout when it has no order), its refund when dated
// in it.
func (rc *reconciliation) addDeposit(row reconRow, add func(*checkout.PaidTotal, checkout.Cents)) {
	dep := row.Deposit
	in := func(t time.Time) bool { return !t.IsZero() && !t.Before(rc.From) && t.Before(rc.Before) }
	if in(dep.PaymentDate) {
		add(&rc.Gateway.Received, paidOf(dep))
		if dep.FeeAmount != nil {
			add(&rc.Gateway.Fees, *dep.FeeAmount)
		} else {
			rc.Gateway.FeeUnknown++
		}
		if row.Order == nil {
			add(&rc.Outside, paidOf(dep))
		}
		if checkout.MapDepositStatus(dep.Status) == checkout.StatusUnderReview {
			add(&rc.Gateway.Held, paidOf(dep))
		}
	}
	if in(dep.RefundDate) && refundOf(dep) > 0 {
		add(&rc.Gateway.Refunded, refundOf(dep))
	}
}

// reconPeriod is the period of the São Paulo dates from and to (both included).
func reconPeriod(from, to time.Time) (time.Time, time.Time) {
	loc := views.SaoPaulo()
	f, t := from.In(loc), to.In(loc)
	start := time.Date(f.Year(), f.Month(), f.Day(), 0, 0, 0, 0, loc)
	return start, time.Date(t.Year(), t.Month(), t.Day()+1, 0, 0, 0, 0, loc)
}

// Divergences counts the divergences of the São Paulo day of day between the gateway's
// deposits and the shop's orders, as the reconciliation page shows them (its rows with at
// least one): what the owners' daily summary says. It reads the gateway and the store now.
func (d *Dashboard) Divergences(ctx context.Context, day time.Time) (int, error) {
	from, before := reconPeriod(day, day)
	rc, err := reconSource{svc: d.svc, gw: d.gateway}.reconcile(ctx, from, before)
	if err != nil {
		return 0, fmt.Errorf("dashboard: reconciling %s: %w", from.Format(time.DateOnly), err)
	}
	return rc.Divergent, nil
}
