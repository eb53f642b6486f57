package checkout_test

import (
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// A placed order's snapshot is held from the start; a change made elsewhere on the same
// database (another instance) is not seen until the snapshot is read again, while a change
// made through the service replaces it at once.
func TestSnapshotIsReplacedByChangesThroughTheService(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	snap, err := e.svc.Snapshot(e.ctx, o.ID)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Status != checkout.StatusAwaitingPayment || snap.Version != o.Version {
		t.Fatalf("snapshot = %s v%d, want the placed order's awaiting_payment v%d", snap.Status, snap.Version, o.Version)
	}
	if a := snap.CurrentAttempt(); a.Request != nil || a.BRCode == "" || len(a.QRCodePNG) == 0 {
		t.Errorf("snapshot attempt: request %d bytes (want none), code %q, image %d bytes", len(a.Request), a.BRCode, len(a.QRCodePNG))
	}

	// Another instance pays it: this service's snapshot does not know (it is served from memory).
	other := checkout.NewService(e.store, e.gw, checkout.ServiceOptions{Clock: e.sb.Now})
	e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
	if _, err := other.RefreshFromGateway(e.ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	if snap, _ := e.svc.Snapshot(e.ctx, o.ID); snap.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("snapshot = %s: read from the store, not from memory", snap.Status)
	}
	if st := e.order(o.ID).Status; st != checkout.StatusPaid {
		t.Fatalf("stored status %s, want paid", st)
	}

	// The same change made through this service replaces the snapshot.
	if _, err := e.svc.RefreshFromGateway(e.ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	if snap, _ := e.svc.Snapshot(e.ctx, o.ID); snap.Status != checkout.StatusPaid {
		t.Errorf("snapshot = %s after the service read the payment, want paid", snap.Status)
	}
}

// With SnapshotMaxAge, a change made by another instance is not seen while the snapshot is
// younger, and is seen once it is older (the age is the service's clock's).
func TestSnapshotMaxAge(t *testing.T) {
	t.Parallel()
	const maxAge = time.Minute
	clock := sandbox.NewManualClock(time.Now())
	e := newEnv(t, func(o *envOptions) {
		o.serviceOptions = func(so *checkout.ServiceOptions) { so.SnapshotMaxAge, so.Clock = maxAge, clock.Now }
	})
	o := e.place()
	other := checkout.NewService(e.store, e.gw, checkout.ServiceOptions{Clock: e.sb.Now})
	e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
	if _, err := other.RefreshFromGateway(e.ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	if snap, err := e.svc.Snapshot(e.ctx, o.ID); err != nil || snap.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("snapshot younger than its age = %v, %v; want the one held, awaiting_payment", snap.Status, err)
	}
	clock.Advance(maxAge + time.Millisecond)
	if snap, err := e.svc.Snapshot(e.ctx, o.ID); err != nil || snap.Status != checkout.StatusPaid {
		t.Errorf("snapshot past its age = %v, %v; want paid", snap.Status, err)
	}
}

// A snapshot is filled by the first read (a service that never saw the order), and an unknown
// order is not found.
func TestSnapshotFilledOnFirstRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o := e.place()
	fresh := checkout.NewService(e.store, e.gw, checkout.ServiceOptions{Clock: e.sb.Now})
	snap, err := fresh.Snapshot(e.ctx, o.ID)
	if err != nil || snap.ID != o.ID || snap.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("first read = %+v, %v", snap, err)
	}
	if _, err := fresh.Snapshot(e.ctx, "no-such-order"); checkout.ErrorCode(err) != checkout.CodeNotFound {
		t.Errorf("unknown order: %v, want not found", err)
	}
}
