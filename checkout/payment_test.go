package checkout_test

import (
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// waitEvent returns the next event of ch, failing after a generous timeout.
func waitEvent(t *testing.T, ch <-chan checkout.OrderEvent) checkout.OrderEvent {
	t.Helper()
	select {
	case ev := <-ch:
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no event published")
		return checkout.OrderEvent{}
	}
}

func TestWebhookDedupeAndPayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	events, stop := e.svc.Subscribe(o.ID)
	defer stop()

	e.control(tx, sandbox.ActionPay)
	if err := e.svc.HandleWebhook(e.ctx, "msg_1", "deposit.updated", tx); err != nil {
		t.Fatalf("HandleWebhook: %v", err)
	}
	if got := e.gw.getCount(tx); got != 1 {
		t.Errorf("GetDeposit calls = %d, want 1", got)
	}
	paid := e.order(o.ID)
	if paid.Status != checkout.StatusPaid || paid.LatePayment || paid.PaidAt.IsZero() || paid.CurrentAttempt().State != checkout.AttemptPaid {
		t.Fatalf("after the webhook: %s late %v paidAt %v", paid.Status, paid.LatePayment, paid.PaidAt)
	}
	if ev := waitEvent(t, events); ev.OrderID != o.ID || ev.Status != checkout.StatusPaid {
		t.Errorf("event = %+v", ev)
	}
	// The same delivery again: no gateway call, no change.
	if err := e.svc.HandleWebhook(e.ctx, "msg_1", "deposit.updated", tx); err != nil {
		t.Fatal(err)
	}
	if got := e.gw.getCount(tx); got != 1 {
		t.Errorf("a duplicate webhook called GetDeposit (%d calls)", got)
	}
	// Unknown ids, withdrawals and empty ids change nothing and call nothing.
	unknown := "0b6f1f6e-8d0c-4f43-9a55-3d2f7c1b9e01"
	for _, tc := range [][2]string{{"deposit.updated", unknown}, {"withdrawal.updated", tx}, {"deposit.updated", ""}} {
		if err := e.svc.HandleWebhook(e.ctx, "msg_"+checkout.NewID(), tc[0], tc[1]); err != nil {
			t.Errorf("HandleWebhook(%s, %s): %v", tc[0], tc[1], err)
		}
	}
	if e.gw.getCount(unknown) != 0 || e.gw.getCount(tx) != 1 {
		t.Errorf("ignored webhooks called the gateway: %v", e.gw.gets)
	}
	if got := e.order(o.ID); got.Version != paid.Version {
		t.Errorf("ignored webhooks changed the order (version %d -> %d)", paid.Version, got.Version)
	}
	select {
	case ev := <-events:
		t.Errorf("unexpected event %+v", ev)
	default:
	}
}

// TestWebhookRetriedAfterFailure: a delivery whose processing failed is processed again when
// redelivered.
func TestWebhookRetriedAfterFailure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	e.control(tx, sandbox.ActionPay)
	down := errors.New("gateway down")
	e.gw.set(func(w *wrapGateway) { w.beforeGet = func(string) error { return down } })
	if err := e.svc.HandleWebhook(e.ctx, "msg_9", "deposit.updated", tx); !errors.Is(err, down) {
		t.Fatalf("HandleWebhook while the gateway is down: %v", err)
	}
	if e.order(o.ID).Status != checkout.StatusAwaitingPayment {
		t.Fatal("order changed although the deposit could not be read")
	}
	e.gw.set(func(w *wrapGateway) { w.beforeGet = nil })
	if err := e.svc.HandleWebhook(e.ctx, "msg_9", "deposit.updated", tx); err != nil {
		t.Fatal(err)
	}
	if st := e.order(o.ID).Status; st != checkout.StatusPaid {
		t.Errorf("after redelivery: %s, want paid", st)
	}
}

// TestApplyDepositForwardOnly: stale or backward deposit states never move an order back.
func TestApplyDepositForwardOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	apply := func(s gatewayclient.DepositStatus) (*checkout.Order, bool) {
		t.Helper()
		got, changed, err := e.svc.ApplyDeposit(e.ctx, &gatewayclient.Deposit{ID: tx, Status: s, Amount: o.Amount})
		if err != nil {
			t.Fatalf("ApplyDeposit(%s): %v", s, err)
		}
		return got, changed
	}
	if got, changed := apply(gatewayclient.DepositPixQRCodeGenerated); changed || got.Status != checkout.StatusAwaitingPayment {
		t.Errorf("same state: changed %v status %s", changed, got.Status)
	}
	if got, _ := apply(gatewayclient.DepositPaid); got.Status != checkout.StatusPaid {
		t.Fatalf("PAID: %s", got.Status)
	}
	for _, s := range []gatewayclient.DepositStatus{gatewayclient.DepositPixQRCodeGenerated, gatewayclient.DepositPending,
		gatewayclient.DepositFailed} {
		if got, _ := apply(s); got.Status != checkout.StatusPaid {
			t.Errorf("%s after PAID moved the order to %s", s, got.Status)
		}
	}
	if got, _ := apply(gatewayclient.DepositProcessingRefund); got.Status != checkout.StatusRefunding {
		t.Errorf("PROCESSING_REFUND: %s", got.Status)
	}
	if got, _ := apply(gatewayclient.DepositRefunded); got.Status != checkout.StatusRefunded {
		t.Errorf("REFUNDED: %s", got.Status)
	}
	if got, changed := apply(gatewayclient.DepositPaid); got.Status != checkout.StatusRefunded {
		t.Errorf("PAID after REFUNDED: %s (changed %v)", got.Status, changed)
	}
	if _, _, err := e.svc.ApplyDeposit(e.ctx, &gatewayclient.Deposit{ID: "0b6f1f6e-8d0c-4f43-9a55-3d2f7c1b9e01", Status: gatewayclient.DepositPaid}); !errors.Is(err, checkout.ErrNotFound) {
		t.Errorf("unknown deposit: %v, want ErrNotFound", err)
	}
	got := e.order(o.ID)
	var path []checkout.OrderStatus
	for _, h := range got.History {
		path = append(path, h.To)
	}
	want := []checkout.OrderStatus{checkout.StatusPending, checkout.StatusAwaitingPayment, checkout.StatusPaid, checkout.StatusRefunding, checkout.StatusRefunded}
	if len(path) != len(want) {
		t.Fatalf("history %v, want %v", path, want)
	}
	for i := range want {
		if path[i] != want[i] {
			t.Errorf("history %v, want %v", path, want)
			break
		}
	}
}

// TestLatePaymentAfterExpiry: paying an expired QR code still makes the order paid, flagged.
func TestLatePaymentAfterExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	e.advance(31 * time.Minute)
	if _, err := e.svc.ExpireDue(e.ctx); err != nil {
		t.Fatal(err)
	}
	if st := e.order(o.ID).Status; st != checkout.StatusExpired {
		t.Fatalf("status %s, want expired", st)
	}
	e.control(tx, sandbox.ActionPay)
	got, err := e.svc.RefreshFromGateway(e.ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != checkout.StatusPaid || !got.LatePayment {
		t.Fatalf("late payment: status %s late %v", got.Status, got.LatePayment)
	}
	if last := got.History[len(got.History)-1]; last.From != checkout.StatusExpired || last.Reason.Code != checkout.ReasonLatePayment {
		t.Errorf("last history entry %+v", last)
	}
}

// TestLatePaymentOfReplacedQR: the shopper pays the old QR code after asking for a new one.
func TestLatePaymentOfReplacedQR(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	oldTx := o.CurrentAttempt().TransactionID
	e.advance(31 * time.Minute)
	if _, err := e.svc.ExpireDue(e.ctx); err != nil {
		t.Fatal(err)
	}
	r, err := e.svc.RegenerateQR(e.ctx, o.ID)
	if err != nil || r.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("RegenerateQR: %v, %v", r, err)
	}
	e.control(oldTx, sandbox.ActionPay)
	if err := e.svc.HandleWebhook(e.ctx, "msg_old", "deposit.updated", oldTx); err != nil {
		t.Fatal(err)
	}
	got := e.order(o.ID)
	if got.Status != checkout.StatusPaid || !got.LatePayment {
		t.Fatalf("status %s late %v", got.Status, got.LatePayment)
	}
	if got.Attempts[0].State != checkout.AttemptPaid || got.Attempts[1].State != checkout.AttemptSuperseded || got.QR() != nil {
		t.Errorf("attempts %s, %s; want paid, superseded", got.Attempts[0].State, got.Attempts[1].State)
	}
}

// TestPartialPaymentIsNotPaid: a deposit PAID with less than the order's amount puts the order
// under review (it must not ship), and re-reading the deposit never turns it paid; a payment of
// more than the amount makes it paid with the difference noted.
func TestPartialPaymentIsNotPaid(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	less := o.Amount - 1
	if _, err := e.sb.ControlDeposit(e.ctx, clientID, tx, sandbox.ActionPay, sandbox.DepositControl{AmountPaid: &less}); err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the second read must not move it on to paid
		got, err := e.svc.RefreshFromGateway(e.ctx, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != checkout.StatusUnderReview || !got.PaidAt.IsZero() {
			t.Fatalf("read %d: status %s paidAt %v, want under_review and not paid", i+1, got.Status, got.PaidAt)
		}
		if a := got.CurrentAttempt(); a.State != checkout.AttemptPaid || got.QR() != nil {
			t.Fatalf("read %d: attempt %s, QR shown %v", i+1, a.State, got.QR() != nil)
		}
		if last := got.History[len(got.History)-1]; last.Reason.Code != checkout.ReasonUnderpaid {
			t.Errorf("read %d: last history entry %+v", i+1, last)
		}
	}
	if _, err := e.svc.RegenerateQR(e.ctx, o.ID); !errors.Is(err, checkout.ErrNotRenewable) {
		t.Errorf("RegenerateQR of an underpaid order: %v, want ErrNotRenewable", err)
	}

	e2 := newEnv(t)
	o2 := e2.place()
	tx2 := o2.CurrentAttempt().TransactionID
	more := o2.Amount + 500
	if _, err := e2.sb.ControlDeposit(e2.ctx, clientID, tx2, sandbox.ActionPay, sandbox.DepositControl{AmountPaid: &more}); err != nil {
		t.Fatal(err)
	}
	got, err := e2.svc.RefreshFromGateway(e2.ctx, o2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != checkout.StatusPaid {
		t.Fatalf("overpaid order: %s, want paid", got.Status)
	}
	if last := got.History[len(got.History)-1]; !last.Reason.Overpaid() {
		t.Errorf("overpaid order's last history entry %+v", last)
	}
}

// A MED opened on a paid deposit puts the order under review (nothing may ship); the MED ends
// either with the deposit paid again (the order is paid again) or refunded (INFRACTION).
func TestMEDOnPaidOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	refresh := func(o *checkout.Order, want checkout.OrderStatus) {
		t.Helper()
		got, err := e.svc.RefreshFromGateway(e.ctx, o.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != want {
			t.Fatalf("order %s, want %s", got.Status, want)
		}
	}
	infraction := func(tx string, reject bool) {
		t.Helper()
		c := sandbox.DepositControl{}
		if reject {
			c.Outcome = "reject"
		}
		if _, err := e.sb.ControlDeposit(e.ctx, clientID, tx, sandbox.ActionInfraction, c); err != nil {
			t.Fatal(err)
		}
	}

	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	e.control(tx, sandbox.ActionPay)
	refresh(o, checkout.StatusPaid)
	infraction(tx, false) // BLOCKED
	refresh(o, checkout.StatusUnderReview)
	infraction(tx, true) // MED rejected: PAID again
	refresh(o, checkout.StatusPaid)
	if got := e.order(o.ID); got.LatePayment || got.PaidAt.IsZero() {
		t.Errorf("paid again after a rejected MED: late %v, paidAt %v", got.LatePayment, got.PaidAt)
	}

	o2 := e.place()
	tx2 := o2.CurrentAttempt().TransactionID
	e.control(tx2, sandbox.ActionPay)
	refresh(o2, checkout.StatusPaid)
	infraction(tx2, false) // BLOCKED
	refresh(o2, checkout.StatusUnderReview)
	infraction(tx2, false) // PROCESSING_INFRACTION
	refresh(o2, checkout.StatusUnderReview)
	infraction(tx2, false) // INFRACTION: the money went back
	refresh(o2, checkout.StatusRefunded)

	// A paid deposit held for compliance review holds the order too, until it is paid again.
	o3 := e.place()
	tx3 := o3.CurrentAttempt().TransactionID
	e.control(tx3, sandbox.ActionPay)
	refresh(o3, checkout.StatusPaid)
	e.control(tx3, sandbox.ActionCompliance) // PENDING_COMPLIANCE
	refresh(o3, checkout.StatusUnderReview)
	if _, err := e.sb.ControlDeposit(e.ctx, clientID, tx3, sandbox.ActionCompliance, sandbox.DepositControl{Outcome: "approve"}); err != nil {
		t.Fatal(err)
	}
	refresh(o3, checkout.StatusPaid)
}

// TestPaidAttemptKeepsTheEndToEndID: the transfer that paid an order is recorded on its attempt
// (the deposit's endToEnd), for the receipt and the merchant.
func TestPaidAttemptKeepsTheEndToEndID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	e.control(tx, sandbox.ActionPay)
	got, err := e.svc.RefreshFromGateway(e.ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.client.GetDeposit(e.ctx, tx)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != checkout.StatusPaid || got.PaidAttempt() == nil || d.EndToEnd == "" || got.PaidAttempt().EndToEnd != d.EndToEnd {
		t.Errorf("paid order %s: attempt %+v, deposit endToEnd %q", got.Status, got.PaidAttempt(), d.EndToEnd)
	}
	if e.order(o.ID).PaidAttempt().EndToEnd != d.EndToEnd {
		t.Error("the end-to-end id was not stored")
	}
}

// TestWebhookWithAKnownStatusReadsNothing: the webhook that follows a new transaction names
// the status the attempt already records, so the deposit is not read again; one naming a new
// status is followed as any webhook.
func TestWebhookWithAKnownStatusReadsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	if err := e.svc.HandleWebhookHint(e.ctx, "msg_generated", "deposit", tx, "pix_qrcode_generated"); err != nil {
		t.Fatal(err)
	}
	if got := e.gw.getCount(tx); got != 0 {
		t.Errorf("a webhook with the known status read the deposit %d times", got)
	}
	// Answered from the order's snapshot: not even its id was written down.
	if first, err := e.store.MarkWebhook(e.ctx, "msg_generated", time.Now()); err != nil || !first {
		t.Errorf("the webhook with the known status was recorded (%v): it cost a write", err)
	}
	e.control(tx, sandbox.ActionPay)
	if err := e.svc.HandleWebhookHint(e.ctx, "msg_paid", "deposit", tx, "PAID"); err != nil {
		t.Fatal(err)
	}
	if got := e.gw.getCount(tx); got != 1 {
		t.Errorf("a webhook with a new status read the deposit %d times, want 1", got)
	}
	if paid := e.order(o.ID); paid.Status != checkout.StatusPaid {
		t.Errorf("after the paid webhook: %s", paid.Status)
	}
	if first, err := e.store.MarkWebhook(e.ctx, "msg_paid", time.Now()); err != nil || first {
		t.Errorf("the webhook with a new status was not recorded (%v): its redelivery would be processed again", err)
	}
	// Its redelivery, now known: nothing read.
	if err := e.svc.HandleWebhookHint(e.ctx, "msg_paid_again", "deposit", tx, "PAID"); err != nil {
		t.Fatal(err)
	}
	if got := e.gw.getCount(tx); got != 1 {
		t.Errorf("a repeated PAID webhook read the deposit again (%d reads)", got)
	}
}

// TestQRGeneratedWebhookCostsNothing: the PIX_QRCODE_GENERATED webhook, even for an order this
// process holds no snapshot of (another instance placed it, or the webhook beat the attempt's
// write), is neither recorded nor followed by a read; the order is as it was.
func TestQRGeneratedWebhookCostsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	other := checkout.NewService(e.store, e.gw, checkout.ServiceOptions{MerchantName: "Loja Teste", Clock: e.sb.Now,
		Logger: slog.New(slog.DiscardHandler), QRImage: fakeQRImage})
	t.Cleanup(other.Close)
	if err := other.HandleWebhookHint(e.ctx, "msg_qr", "deposit", tx, "PIX_QRCODE_GENERATED"); err != nil {
		t.Fatal(err)
	}
	if got := e.gw.getCount(tx); got != 0 {
		t.Errorf("the QR-generated webhook read the deposit %d times", got)
	}
	if first, err := e.store.MarkWebhook(e.ctx, "msg_qr", time.Now()); err != nil || !first {
		t.Errorf("the QR-generated webhook was recorded (%v)", err)
	}
	if got := e.order(o.ID); got.Status != checkout.StatusAwaitingPayment || got.Version != o.Version {
		t.Errorf("order after the webhook: %s, version %d (was %d)", got.Status, got.Version, o.Version)
	}
	// Any other status from that instance is followed.
	e.control(tx, sandbox.ActionPay)
	if err := other.HandleWebhookHint(e.ctx, "msg_paid", "deposit", tx, "PAID"); err != nil {
		t.Fatal(err)
	}
	if got := e.order(o.ID); got.Status != checkout.StatusPaid {
		t.Errorf("after the paid webhook: %s", got.Status)
	}
}
