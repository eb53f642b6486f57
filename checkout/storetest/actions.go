package storetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// RunActions runs the tests of the merchant's actions on an order (checkout/fulfilment.go)
// through a checkout.Service on the store: allowed transitions only, each action once however
// often and however concurrently it is asked, a refund never beyond what is due. open must
// return a new, empty store for each call.
func RunActions(t *testing.T, open func(t *testing.T) checkout.Store) {
	t.Run("Ship", func(t *testing.T) { testShip(t, open(t)) })
	t.Run("ShipConcurrent", func(t *testing.T) { testShipConcurrent(t, open(t)) })
	t.Run("Deliver", func(t *testing.T) { testDeliver(t, open(t)) })
	t.Run("CancelThenPaid", func(t *testing.T) { testCancel(t, open(t)) })
	t.Run("Note", func(t *testing.T) { testNote(t, open(t)) })
	t.Run("RecordRefund", func(t *testing.T) { testRecordRefund(t, open(t)) })
	t.Run("RecordRefundConcurrent", func(t *testing.T) { testRecordRefundConcurrent(t, open(t)) })
	t.Run("Events", func(t *testing.T) { testEvents(t, open(t)) })
}

// actionsService is a service on s without a gateway: the actions never call it.
func actionsService(s checkout.Store) *checkout.Service {
	return checkout.NewService(s, nil, checkout.ServiceOptions{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Clock: func() time.Time { return base.Add(time.Hour) }})
}

// awaitingOrder stores an order whose QR code is shown (physical goods when physical).
func awaitingOrder(t *testing.T, s checkout.Store, physical bool) *checkout.Order {
	t.Helper()
	o := NewOrder("key-" + checkout.NewID())
	if !physical {
		o.Address, o.Physical = nil, false
		for i := range o.Lines {
			o.Lines[i].Physical = false
		}
	}
	o = mustCreate(t, s, o)
	at := base.Add(time.Minute)
	move(o, checkout.StatusAwaitingPayment, at)
	a := &o.Attempts[0]
	a.State, a.TransactionID, a.BRCode, a.ExpiresAt = checkout.AttemptActive, checkout.NewID(), "000201test", base.Add(30*time.Minute)
	must(t, s.UpdateOrder(context.Background(), o))
	return mustRead(t, s, o.ID)
}

// pay applies a PAID deposit of amount to o's attempt n (from 1), as the gateway reports it.
func pay(t *testing.T, svc *checkout.Service, o *checkout.Order, n int, amount gatewayclient.Cents) *checkout.Order {
	t.Helper()
	d := &gatewayclient.Deposit{ID: o.Attempts[n-1].TransactionID, Status: gatewayclient.DepositPaid, AmountPaid: &amount,
		PaymentDate: base.Add(2 * time.Minute), EndToEnd: "E12345678202603141202abcdefghijk"}
	res, _, err := svc.ApplyDeposit(context.Background(), d)
	must(t, err)
	return res
}

func paidOrder(t *testing.T, s checkout.Store, svc *checkout.Service, physical bool) *checkout.Order {
	t.Helper()
	o := awaitingOrder(t, s, physical)
	o = pay(t, svc, o, 1, o.Amount)
	if o.Status != checkout.StatusPaid {
		t.Fatalf("order is %s after its payment", o.Status)
	}
	return o
}

// entries counts the entries of o's history with code c.
func entries(o *checkout.Order, c checkout.ReasonCode) int {
	n := 0
	for _, h := range o.History {
		if h.Reason.Code == c {
			n++
		}
	}
	return n
}

// fieldCode returns the violation code of field in err, a *checkout.ValidationError, or "".
func fieldCode(err error, field string) string {
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) {
		return ""
	}
	return fe.Code(field)
}

func listed(t *testing.T, s checkout.Store, f checkout.OrderFilter, id string) bool {
	t.Helper()
	os, err := s.Orders(context.Background(), f)
	if err != nil {
		t.Fatalf("Orders(%+v): %v", f, err)
	}
	for _, o := range os {
		if o.ID == id {
			return true
		}
	}
	return false
}

func testShipConcurrent(t *testing.T, s checkout.Store) {
	svc := actionsService(s)
	o := paidOrder(t, s, svc, true)
	var wg sync.WaitGroup
	var mu sync.Mutex
	changes, failures := 0, 0
	for range 8 {
		wg.Go(func() {
			// Each its own service: eight instances on one database.
			_, changed, err := actionsService(s).MarkShipped(context.Background(), o.ID, checkout.ShipInput{Carrier: "Correios", TrackingCode: "AA123456789BR"})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failures++
				t.Errorf("MarkShipped: %v", err)
			}
			if changed {
				changes++
			}
		})
	}
	wg.Wait()
	if read := mustRead(t, s, o.ID); changes != 1 || entries(read, checkout.ReasonShipped) != 1 {
		t.Errorf("%d changes and %d shipped entries, want one each", changes, entries(read, checkout.ReasonShipped))
	}
}

func testDeliver(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	svc := actionsService(s)
	o := paidOrder(t, s, svc, true)
	sameErr(t, "delivering an order not shipped", errOf2(svc.MarkDelivered(ctx, o.ID)), checkout.ErrNotShipped)
	must(t, errOf2(svc.MarkShipped(ctx, o.ID, checkout.ShipInput{Carrier: "Correios", TrackingCode: "AA123456789BR"})))
	if _, changed, err := svc.MarkDelivered(ctx, o.ID); err != nil || !changed {
		t.Fatalf("MarkDelivered = %v, %v", changed, err)
	}
	if _, changed, err := svc.MarkDelivered(ctx, o.ID); err != nil || changed {
		t.Errorf("delivering again = %v, %v; want no change, no error", changed, err)
	}
	read := mustRead(t, s, o.ID)
	if read.DeliveredAt.IsZero() || entries(read, checkout.ReasonDelivered) != 1 || read.Fulfilment() != checkout.FulfilmentDelivered ||
		!listed(t, s, checkout.OrderFilter{Fulfilment: checkout.FulfilmentDelivered}, o.ID) {
		t.Errorf("delivered order as stored = %+v", read)
	}
	// A delivered order can be shipped no more (with another code), nor canceled.
	sameErr(t, "shipping a delivered order again", errOf2(svc.MarkShipped(ctx, o.ID, checkout.ShipInput{Carrier: "Jadlog", TrackingCode: "JD000111"})), checkout.ErrAlreadyShipped)
	sameErr(t, "canceling a paid order", errOf2(svc.CancelOrder(ctx, o.ID)), checkout.ErrNotCancelable)
}

// testCancel: only an order awaiting payment, or expired without a new QR code being made,
// cancels, once; its code paid all the same is a refund due.
func testCancel(t *testing.T, s checkout.Store) {
	t.Run("NotCancelable", func(t *testing.T) { testNotCancelable(t, s) })
	t.Run("Canceled", func(t *testing.T) { testCanceled(t, s) })
}

func testNote(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	svc := actionsService(s)
	o := awaitingOrder(t, s, false)
	if _, _, err := svc.AddNote(ctx, o.ID, "k1", "   "); fieldCode(err, checkout.FieldNote) != checkout.CodeRequired {
		t.Errorf("an empty note: %v", err)
	}
	if _, _, err := svc.AddNote(ctx, o.ID, "", "Cliente ligou"); fieldCode(err, checkout.FieldActionKey) == "" {
		t.Errorf("a note without its form's key: %v", err)
	}
	for range 2 { // a double click: one note
		must(t, errOf2(svc.AddNote(ctx, o.ID, "k1", "Cliente ligou:\r\npediu entrega à tarde")))
	}
	if _, changed, err := svc.AddNote(ctx, o.ID, "k2", "Segunda nota"); err != nil || !changed {
		t.Fatalf("AddNote = %v, %v", changed, err)
	}
	read := mustRead(t, s, o.ID)
	var notes []string
	for _, h := range read.History {
		if h.Reason.Code == checkout.ReasonNoteAdded {
			notes = append(notes, h.Reason.Detail)
			if h.Reason.String() != "internal note" {
				t.Errorf("a note's words for the API = %q, want none of its text", h.Reason.String())
			}
		}
	}
	if len(notes) != 2 || notes[0] != "Cliente ligou:\npediu entrega à tarde" || notes[1] != "Segunda nota" {
		t.Errorf("notes = %q", notes)
	}
	if read.Status != checkout.StatusAwaitingPayment {
		t.Errorf("a note moved the order to %s", read.Status)
	}
}

// doublyPaid is a paid order whose older QR code was paid too: its amount is a refund due.
func doublyPaid(t *testing.T, s checkout.Store, svc *checkout.Service) *checkout.Order {
	t.Helper()
	o := awaitingOrder(t, s, false)
	// A second attempt (a new QR code), both paid.
	o.Attempts[0].State = checkout.AttemptSuperseded
	o.Attempts = append(o.Attempts, checkout.Attempt{ID: checkout.NewID(), OrderID: o.ID, N: 2, IdempotencyKey: o.ID + "-2",
		State: checkout.AttemptActive, TransactionID: checkout.NewID(), BRCode: "000201second", ExpiresAt: base.Add(40 * time.Minute),
		CreatedAt: base.Add(5 * time.Minute), UpdatedAt: base.Add(5 * time.Minute)})
	must(t, s.UpdateOrder(context.Background(), o))
	o = pay(t, svc, mustRead(t, s, o.ID), 2, o.Amount)
	o = pay(t, svc, o, 1, o.Amount)
	if o.Status != checkout.StatusPaid || o.RefundDue != o.Amount {
		t.Fatalf("doubly paid order: %s, refund due %d", o.Status, o.RefundDue)
	}
	return o
}

// testRecordRefund: a refund due recorded in parts, each transfer once and for one order, never
// past what is due.
func testRecordRefund(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	svc := actionsService(s)
	o := doublyPaid(t, s, svc)
	due := o.RefundDue
	e2e1, e2e2 := "D12345678202603141300abcdefghijk", "E60701190202603141305ZZZZZZZZZZZ"
	for _, c := range []struct {
		in    checkout.RefundInput
		field string
	}{
		{checkout.RefundInput{On: base, Amount: due + 1, EndToEnd: e2e1}, checkout.FieldRefundAmount},
		{checkout.RefundInput{On: base, Amount: 0, EndToEnd: e2e1}, checkout.FieldRefundAmount},
		{checkout.RefundInput{On: base, Amount: 100, EndToEnd: "12345"}, checkout.FieldRefundE2E},
		{checkout.RefundInput{On: base.AddDate(0, 0, 2), Amount: 100, EndToEnd: e2e1}, checkout.FieldRefundOn},
		{checkout.RefundInput{Amount: 100, EndToEnd: e2e1}, checkout.FieldRefundOn},
	} {
		hasField(t, fmt.Sprintf("RecordRefund(%+v)", c.in), errOf2(svc.RecordRefund(ctx, o.ID, c.in)), c.field)
	}
	if r := mustRead(t, s, o.ID); r.RefundDue != due || len(r.RefundsRecorded()) != 0 {
		t.Fatalf("a refused refund changed the order: due %d", r.RefundDue)
	}
	part := gatewayclient.Cents(1000)
	if !same(t, "RecordRefund changed", changedOf(svc.RecordRefund(ctx, o.ID, checkout.RefundInput{On: base, Amount: part, EndToEnd: e2e1})), res(true, nil)) {
		t.FailNow()
	}
	// A retry of the same refund changes nothing; the same id with another amount is refused.
	same(t, "recording the same refund again changed", changedOf(svc.RecordRefund(ctx, o.ID, checkout.RefundInput{On: base, Amount: part, EndToEnd: e2e1})), res(false, nil))
	same(t, "the same end-to-end id with another amount", fieldCode(errOf2(svc.RecordRefund(ctx, o.ID,
		checkout.RefundInput{On: base, Amount: 5, EndToEnd: e2e1})), checkout.FieldRefundE2E), checkout.CodeDuplicate)
	// The same transfer cannot refund another order too.
	other := doublyPaid(t, s, svc)
	same(t, "an end-to-end id of another order's refund", fieldCode(errOf2(svc.RecordRefund(ctx, other.ID,
		checkout.RefundInput{On: base, Amount: part, EndToEnd: e2e1})), checkout.FieldRefundE2E), checkout.CodeDuplicate)
	if r := mustRead(t, s, other.ID); r.RefundDue != other.RefundDue || len(r.RefundsRecorded()) != 0 {
		t.Errorf("the refused refund changed the other order: due %d, %d refunds", r.RefundDue, len(r.RefundsRecorded()))
	}
	if r := mustRead(t, s, o.ID); r.RefundDue != due-part || !listed(t, s, checkout.OrderFilter{RefundDue: true}, o.ID) {
		t.Errorf("after a partial refund: due %d, want %d, and still listed", r.RefundDue, due-part)
	}
	same(t, "refunding past the rest due", fieldCode(errOf2(svc.RecordRefund(ctx, o.ID,
		checkout.RefundInput{On: base, Amount: due - part + 1, EndToEnd: e2e2})), checkout.FieldRefundAmount), checkout.CodeMax)
	must(t, errOf2(svc.RecordRefund(ctx, o.ID, checkout.RefundInput{On: base, Amount: due - part, EndToEnd: e2e2})))
	r := mustRead(t, s, o.ID)
	rs := r.RefundsRecorded()
	if r.RefundDue != 0 || len(rs) != 2 || rs[0].EndToEnd != e2e1 || rs[1].Amount != due-part || rs[1].On != "2026-03-14" ||
		listed(t, s, checkout.OrderFilter{RefundDue: true}, o.ID) {
		t.Errorf("after the whole refund: due %d, refunds %+v", r.RefundDue, rs)
	}
	sameErr(t, "a refund of an order that owes nothing", errOf2(svc.RecordRefund(ctx, o.ID,
		checkout.RefundInput{On: base, Amount: 1, EndToEnd: "E12345678202603141310abcdefghijk"})), checkout.ErrNoRefundDue)
	sameErr(t, "a refund of an order paid once", errOf2(svc.RecordRefund(ctx, paidOrder(t, s, svc, false).ID,
		checkout.RefundInput{On: base, Amount: 1, EndToEnd: e2e1})), checkout.ErrNoRefundDue)
}

func testRecordRefundConcurrent(t *testing.T, s checkout.Store) {
	svc := actionsService(s)
	o := doublyPaid(t, s, svc)
	ids := []string{"D12345678202603141300aaaaaaaaaaa", "D12345678202603141300bbbbbbbbbbb", "D12345678202603141300ccccccccccc",
		"D12345678202603141300ddddddddddd", "D12345678202603141300eeeeeeeeeee", "D12345678202603141300fffffffffff"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	recorded := 0
	for _, id := range ids {
		wg.Go(func() {
			// Each the whole refund due, with its own id, from its own instance: one is recorded.
			_, changed, err := actionsService(s).RecordRefund(context.Background(), o.ID,
				checkout.RefundInput{On: base, Amount: o.RefundDue, EndToEnd: id})
			mu.Lock()
			defer mu.Unlock()
			if changed {
				recorded++
			} else if !errors.Is(err, checkout.ErrNoRefundDue) && fieldCode(err, checkout.FieldRefundAmount) == "" {
				t.Errorf("a refund beyond what is due: %v", err)
			}
		})
	}
	wg.Wait()
	r := mustRead(t, s, o.ID)
	if recorded != 1 || r.RefundDue != 0 || len(r.RefundsRecorded()) != 1 {
		t.Errorf("%d refunds recorded, %d stored, %d due; want one whole refund", recorded, len(r.RefundsRecorded()), r.RefundDue)
	}
}

// hasField reports, and the test goes on, when err holds no violation on field.
func hasField(t *testing.T, what string, err error, field string) {
	t.Helper()
	if fieldCode(err, field) == "" {
		t.Errorf("%s: %v, want an error on %s", what, err, field)
	}
}

// changedOf is whether an action changed its order, with the action's error.
func changedOf[T any](_ T, changed bool, err error) result[bool] {
	return result[bool]{changed, err}
}

// testShip: only a paid physical order ships, with a valid carrier and code, once; the lists
// follow it from awaiting shipment to shipped.
func testShip(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	svc := actionsService(s)
	ship := checkout.ShipInput{Carrier: " Correios ", TrackingCode: "AA123456789BR"}

	digital := paidOrder(t, s, svc, false)
	sameErr(t, "shipping a digital order", errOf2(svc.MarkShipped(ctx, digital.ID, ship)), checkout.ErrNotShippable)
	awaiting := awaitingOrder(t, s, true)
	sameErr(t, "shipping an unpaid order", errOf2(svc.MarkShipped(ctx, awaiting.ID, ship)), checkout.ErrNotShippable)
	o := paidOrder(t, s, svc, true)
	for in, field := range map[checkout.ShipInput]string{
		{Carrier: "", TrackingCode: "AA123456789BR"}:       checkout.FieldCarrier,
		{Carrier: "Correios", TrackingCode: "AA1"}:         checkout.FieldTrackingCode,
		{Carrier: "Correios", TrackingCode: "AA 12345678"}: checkout.FieldTrackingCode,
	} {
		hasField(t, fmt.Sprintf("MarkShipped(%+v)", in), errOf2(svc.MarkShipped(ctx, o.ID, in)), field)
	}
	awaitingShipment := checkout.OrderFilter{Fulfilment: checkout.FulfilmentAwaitingShipment}
	same(t, "the awaiting-shipment filter lists (paid physical, digital, unpaid)", []bool{listed(t, s, awaitingShipment, o.ID),
		listed(t, s, awaitingShipment, digital.ID), listed(t, s, awaitingShipment, awaiting.ID)}, []bool{true, false, false})
	got, changed, err := svc.MarkShipped(ctx, o.ID, ship)
	if err != nil || !changed {
		t.Fatalf("MarkShipped = %v, %v", changed, err)
	}
	read := mustRead(t, s, o.ID)
	if read.Carrier != "Correios" || read.TrackingCode != "AA123456789BR" || read.ShippedAt.IsZero() ||
		read.Status != checkout.StatusPaid || entries(read, checkout.ReasonShipped) != 1 || read.Fulfilment() != checkout.FulfilmentShipped {
		t.Errorf("shipped order as stored = %+v", read)
	}
	same(t, "returned ShippedAt is the stored one", got.ShippedAt.Equal(read.ShippedAt), true)
	same(t, "a shipped order listed (awaiting shipment, shipped)", []bool{listed(t, s, awaitingShipment, o.ID),
		listed(t, s, checkout.OrderFilter{Fulfilment: checkout.FulfilmentShipped}, o.ID)}, []bool{false, true})
	same(t, "shipping again alike changed", changedOf(svc.MarkShipped(ctx, o.ID, ship)), res(false, nil))
	sameErr(t, "shipping again with another code", errOf2(svc.MarkShipped(ctx, o.ID,
		checkout.ShipInput{Carrier: "Jadlog", TrackingCode: "JD000111"})), checkout.ErrAlreadyShipped)
	same(t, "shipped entries", entries(mustRead(t, s, o.ID), checkout.ReasonShipped), 1)
}

func testNotCancelable(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	svc := actionsService(s)
	pending := mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	sameErr(t, "canceling an order whose QR code is being made", errOf2(svc.CancelOrder(ctx, pending.ID)), checkout.ErrNotCancelable)
	// An expired order whose new QR code the gateway has not answered yet.
	renewing := awaitingOrder(t, s, false)
	renewing.Attempts[0].State = checkout.AttemptExpired
	move(renewing, checkout.StatusExpired, base.Add(31*time.Minute))
	renewing.Attempts = append(renewing.Attempts, checkout.Attempt{ID: checkout.NewID(), OrderID: renewing.ID, N: 2,
		IdempotencyKey: renewing.ID + "-2", State: checkout.AttemptPending, CreatedAt: base.Add(32 * time.Minute), UpdatedAt: base.Add(32 * time.Minute)})
	must(t, s.UpdateOrder(ctx, renewing))
	sameErr(t, "canceling an order whose new QR code is being made", errOf2(svc.CancelOrder(ctx, renewing.ID)), checkout.ErrNotCancelable)
	// An expired order (its QR code's time is over, no new one asked): canceled, so none is made.
	expired := awaitingOrder(t, s, false)
	expired.Attempts[0].State = checkout.AttemptExpired
	move(expired, checkout.StatusExpired, base.Add(31*time.Minute))
	must(t, s.UpdateOrder(ctx, expired))
	if got, changed, err := svc.CancelOrder(ctx, expired.ID); err != nil || !changed || got.Status != checkout.StatusCanceled {
		t.Errorf("canceling an expired order = %v, %v", changed, err)
	}
	sameErr(t, "canceling a paid order", errOf2(svc.CancelOrder(ctx, paidOrder(t, s, svc, false).ID)), checkout.ErrNotCancelable)
}

func testCanceled(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	svc := actionsService(s)
	o := awaitingOrder(t, s, true)
	if o.QR() == nil {
		t.Fatal("an order awaiting payment shows no QR code")
	}
	got, changed, err := svc.CancelOrder(ctx, o.ID)
	must(t, err)
	if !changed {
		t.Fatal("CancelOrder changed nothing")
	}
	read := mustRead(t, s, o.ID)
	if read.Status != checkout.StatusCanceled || read.QR() != nil || read.Attempts[0].State != checkout.AttemptCanceled ||
		entries(read, checkout.ReasonCanceled) != 1 || got.Status != checkout.StatusCanceled {
		t.Errorf("canceled order as stored = %+v", read)
	}
	same(t, "canceling again changed", changedOf(svc.CancelOrder(ctx, o.ID)), res(false, nil))
	sameErr(t, "a new QR code for a canceled order", errOf(svc.RegenerateQR(ctx, o.ID)), checkout.ErrNotRenewable)
	// The code was paid all the same: the order stays canceled, the payment is a refund due.
	paid := pay(t, svc, read, 1, o.Amount)
	if paid.Status != checkout.StatusCanceled || paid.RefundDue != o.Amount || !paid.LatePayment ||
		entries(paid, checkout.ReasonPaidAfterCancel) != 1 {
		t.Errorf("canceled order paid = status %s, refund due %d, late %v", paid.Status, paid.RefundDue, paid.LatePayment)
	}
	if due := paid.DuePayments(); len(due) != 1 || due[0].DepositID != o.Attempts[0].TransactionID || due[0].Amount != o.Amount {
		t.Errorf("DuePayments = %+v", due)
	}
	// The same deposit read again changes nothing.
	again := pay(t, svc, paid, 1, o.Amount)
	same(t, "the payment applied twice (refund due, late payment entries)", []int64{int64(again.RefundDue),
		int64(entries(again, checkout.ReasonPaidAfterCancel))}, []int64{int64(o.Amount), 1})
	same(t, "the refund-due filter lists the canceled order paid", listed(t, s, checkout.OrderFilter{RefundDue: true}, o.ID), true)
}
