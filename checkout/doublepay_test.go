package checkout_test

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// syncBuffer is a bytes.Buffer safe for concurrent writers (a log destination).
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestPaidTwiceFlagsRefund: the shopper pays an expired QR code that a new one replaced, then
// pays the new one too. The order stays paid by the first payment; the second makes a refund
// due, noted in the order's history and logged with the order number (never its id), once
// however often the deposit is read again.
func TestPaidTwiceFlagsRefund(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	e := newEnv(t, func(o *envOptions) {
		o.serviceOptions = func(so *checkout.ServiceOptions) {
			so.Logger = slog.New(slog.NewTextHandler(logs, nil))
		}
	})
	r := e.reconciler(checkout.ReconcilerOptions{})
	o := e.place()
	oldTx := o.CurrentAttempt().TransactionID
	e.advance(31 * time.Minute)
	e.runOnce(r)
	renewed, err := e.svc.RegenerateQR(e.ctx, o.ID)
	if err != nil || renewed.Status != checkout.StatusAwaitingPayment || len(renewed.Attempts) != 2 {
		t.Fatalf("RegenerateQR: %v, %v", renewed, err)
	}
	newTx := renewed.CurrentAttempt().TransactionID

	// The old QR code is paid first: the order is paid by it, the new attempt superseded.
	e.control(oldTx, sandbox.ActionPay)
	e.runOnce(r)
	paid := e.order(o.ID)
	if paid.Status != checkout.StatusPaid || paid.RefundDue != 0 {
		t.Fatalf("after the first payment: %s, refund due %d; want paid, nothing due", paid.Status, paid.RefundDue)
	}

	// The new QR code, already on the shopper's phone, is paid too.
	e.control(newTx, sandbox.ActionPay)
	for range 2 { // a redelivered webhook changes nothing more
		if err := e.svc.HandleWebhook(e.ctx, "", "deposit", newTx); err != nil {
			t.Fatalf("HandleWebhook: %v", err)
		}
	}
	got := e.order(o.ID)
	if got.Status != checkout.StatusPaid {
		t.Errorf("status after the second payment = %s, want paid", got.Status)
	}
	if got.RefundDue != o.Amount {
		t.Errorf("RefundDue = %d, want the second payment, %d", got.RefundDue, o.Amount)
	}
	if got.Attempts[0].State != checkout.AttemptPaid || got.Attempts[1].State != checkout.AttemptPaid {
		t.Errorf("attempts %s/%s, want both paid", got.Attempts[0].State, got.Attempts[1].State)
	}
	notes := 0
	for _, h := range got.History {
		if strings.HasPrefix(h.Reason.String(), "paid twice: refund 2990 cents") {
			notes++
			if h.From != checkout.StatusPaid || h.To != checkout.StatusPaid {
				t.Errorf("paid-twice note %s -> %s, want the status unchanged", h.From, h.To)
			}
		}
	}
	if notes != 1 {
		t.Errorf("%d paid-twice notes in the history, want 1: %+v", notes, got.History)
	}
	out := logs.String()
	if strings.Count(out, "paid twice") != 1 || !strings.Contains(out, o.Number) {
		t.Errorf("want one warning naming %s, got:\n%s", o.Number, out)
	}
	if strings.Contains(out, o.ID) {
		t.Errorf("the log holds the order id, a shopper's credential:\n%s", out)
	}
}
