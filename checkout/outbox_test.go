package checkout_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// recordingAnnouncer announces every change it is given and records what it was asked.
type recordingAnnouncer struct {
	mu        sync.Mutex
	fail      error
	asked     []string // "status:from>to,…" per call
	announced int      // calls of Announced
}

func (a *recordingAnnouncer) Announce(_ context.Context, o *checkout.Order, changes []checkout.StatusChange) ([]checkout.OutboxMessage, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := string(o.Status) + ":"
	var out []checkout.OutboxMessage
	for _, c := range changes {
		s += string(c.From) + ">" + string(c.To) + ","
		out = append(out, checkout.OutboxMessage{ID: "msg_" + checkout.NewID(), OrderID: o.ID, Type: "order." + string(c.To),
			Payload: []byte(`{}`), CreatedAt: c.At})
	}
	a.asked = append(a.asked, s)
	if a.fail != nil {
		return nil, a.fail
	}
	return out, nil
}

func (a *recordingAnnouncer) Announced() {
	a.mu.Lock()
	a.announced++
	a.mu.Unlock()
}

func (a *recordingAnnouncer) calls() ([]string, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.asked...), a.announced
}

// TestAnnouncerAskedForEachChange: the service asks its Announcer for the messages of every
// change of state it stores (with the changes that update adds), writes them with the change,
// and says so once committed; an update that changes no state asks nothing; an Announcer's
// error leaves the order as it was.
func TestAnnouncerAskedForEachChange(t *testing.T) {
	t.Parallel()
	an := &recordingAnnouncer{}
	e := newEnv(t, func(o *envOptions) {
		o.serviceOptions = func(so *checkout.ServiceOptions) { so.Announcer = an }
	})
	o := e.place()
	tx := o.CurrentAttempt().TransactionID
	if asked, n := an.calls(); len(asked) != 1 || asked[0] != "awaiting_payment:pending>awaiting_payment," || n != 1 {
		t.Fatalf("after placing: asked %q, announced %d", asked, n)
	}
	// The same deposit state again changes nothing: nothing to announce.
	if err := e.svc.HandleWebhook(e.ctx, "msg_a", "deposit.updated", tx); err != nil {
		t.Fatal(err)
	}
	if asked, _ := an.calls(); len(asked) != 1 {
		t.Fatalf("an update without a change of state asked %q", asked)
	}
	// Paid, with the announcer failing: the change is not stored.
	e.control(tx, sandbox.ActionPay)
	an.mu.Lock()
	an.fail = errors.New("session store down")
	an.mu.Unlock()
	if err := e.svc.HandleWebhook(e.ctx, "msg_b", "deposit.updated", tx); err == nil {
		t.Fatal("HandleWebhook succeeded while the announcer failed")
	}
	if st := e.order(o.ID).Status; st != checkout.StatusAwaitingPayment {
		t.Fatalf("status after a failed announcement = %s, want awaiting_payment (nothing stored)", st)
	}
	if _, n := an.calls(); n != 1 {
		t.Errorf("Announced called %d times, want 1 (the failed update committed nothing)", n)
	}
	an.mu.Lock()
	an.fail = nil
	an.mu.Unlock()
	if err := e.svc.HandleWebhook(e.ctx, "msg_c", "deposit.updated", tx); err != nil {
		t.Fatal(err)
	}
	if st := e.order(o.ID).Status; st != checkout.StatusPaid {
		t.Fatalf("status = %s, want paid", st)
	}
	asked, n := an.calls()
	if last := asked[len(asked)-1]; last != "paid:awaiting_payment>paid," || n != 2 {
		t.Errorf("after the payment: asked %q, announced %d", asked, n)
	}
}
