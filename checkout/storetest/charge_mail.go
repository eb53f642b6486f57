package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// scheduledMail is an announcer that writes, with a charge's creation, one e-mail about it due
// on its due date (as its reminders are), and nothing for later changes.
type scheduledMail struct{}

func (scheduledMail) Announce(_ context.Context, c *charges.Charge, e charges.Event) ([]checkout.OutboxMessage, error) {
	if e.Version != 1 {
		return nil, nil
	}
	return []checkout.OutboxMessage{{ID: c.ID + ".due@test", ChargeID: c.ID, Channel: checkout.ChannelMail, To: c.Customer.Email,
		Type: "charge.reminder", Payload: []byte(`{}`), CreatedAt: e.At, NotBefore: charges.ReminderAt(c.Terms.Due)}}, nil
}

func (scheduledMail) Announced() {}

// testChargeMailWithdrawn: a charge's e-mails still pending are given up (skipped, saying why)
// when it is paid or canceled, in that change; another charge's stay pending, and a partial
// payment gives up nothing.
func testChargeMailWithdrawn(t *testing.T, f *chargeFixture, s ChargeStores) {
	clock := func() time.Time { return f.now }
	f.m = charges.NewManager(s, nil, clock, charges.WithAnnouncer(scheduledMail{}))
	ob, err := s.Outbox(outbox.Options{Channel: outbox.ChannelSMTP, Sender: nopSender{}, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	paid, canceled, open := f.create(issue35()), f.create(issue35()), f.create(issue35())
	if _, err := f.m.Pay(f.ctx, paid.ID, 100, f.now); err != nil {
		t.Fatal(err)
	}
	status := func(id string) (string, string) {
		t.Helper()
		ds, err := ob.Deliveries(f.ctx, outbox.Filter{RecordID: id})
		if err != nil || len(ds) != 1 {
			t.Fatalf("the e-mails of %s: %+v, %v", id, ds, err)
		}
		return ds[0].Status, ds[0].LastError
	}
	if st, _ := status(paid.ID); st != outbox.StatusPending {
		t.Fatalf("after a partial payment, the e-mail is %s", st)
	}
	if _, err := f.m.Pay(f.ctx, paid.ID, 12345, f.now); err != nil {
		t.Fatal(err)
	}
	if _, err := f.m.Cancel(f.ctx, "rui@loja.example", "", canceled.ID); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string][2]string{paid.ID: {outbox.StatusSkipped, "charge paid"},
		canceled.ID: {outbox.StatusSkipped, "charge canceled"}, open.ID: {outbox.StatusPending, ""}} {
		if st, why := status(id); st != want[0] || why != want[1] {
			t.Errorf("charge %s: its e-mail %s (%q), want %s (%q)", id, st, why, want[0], want[1])
		}
	}
	f.now = charges.ReminderAt(issue35().Terms.Due)
	if n, err := ob.DeliverDue(f.ctx); n != 1 || err != nil {
		t.Errorf("on the due date, %d e-mails sent (%v), want the open charge's alone", n, err)
	}
}

// nopSender accepts every e-mail.
type nopSender struct{}

func (nopSender) Send(context.Context, outbox.Delivery) outbox.Outcome {
	return outbox.Outcome{Code: 250}
}
