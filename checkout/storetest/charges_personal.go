package storetest

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
)

// chargeEnqueuer is a store that takes outbox messages of their own (an e-mail about a charge).
type chargeEnqueuer interface {
	Enqueue(ctx context.Context, msgs ...checkout.OutboxMessage) error
}

// chargeData stands in for the merchant API's shape of a charge (web/apijson.ChargeEvent) as a
// notification's data: its customer under the key the API gives it.
func chargeData(c *charges.Charge, _ charges.Date, personal bool) any {
	customer := map[string]any{}
	if personal {
		customer = map[string]any{"name": c.Customer.Name, "document": c.Customer.Document, "email": c.Customer.Email,
			"phone": c.Customer.Phone}
	}
	return map[string]any{"id": c.ID, "customer": customer}
}

// chargeSubject is the suite's data subject's charges: one paid, one open, and somebody
// else's canceled, on a Service whose personal data holder is the fixture's Manager.
type chargeSubject struct {
	*chargeFixture
	svc               *checkout.Service
	paid, open, elses charges.Charge
}

// testChargePersonalData: a data subject's request finds their charges by CPF (as typed
// either way) and by e-mail, with the notifications and e-mails about them; past the retention
// the sweep anonymises the final charges only (paid, canceled: no name, e-mail, phone or
// document left in the charge, its notifications' bodies or its e-mails), and a later request
// still finds them through the hashes; anonymising on request takes the charge paid since and
// leaves somebody else's.
func testChargePersonalData(t *testing.T, f *chargeFixture) {
	f.m = charges.NewManager(f.s, nil, func() time.Time { return f.now },
		charges.WithAnnouncer(&notify.ChargeAnnouncer{Charge: chargeData, Clock: func() time.Time { return f.now }}))
	cs := &chargeSubject{chargeFixture: f, svc: checkout.NewService(f.s, nil, checkout.ServiceOptions{
		Logger: slog.New(slog.DiscardHandler), Clock: func() time.Time { return f.now }, Charges: f.m,
		PersonalDataKey: bytes.Repeat([]byte{9}, checkout.PersonalDataKeySize), PersonalDataHolders: []checkout.PersonalDataHolder{f.m}})}
	in := issue35()
	in.Customer = charges.Customer{Name: shopper.Name, Document: shopper.Document, Email: shopper.Email, Phone: shopper.Phone}
	cs.paid, cs.open = f.create(in), f.create(in)
	in.Customer = charges.Customer{Name: other.Name, Document: other.Document, Email: other.Email}
	cs.elses = f.create(in)
	if enq, ok := f.s.(chargeEnqueuer); ok {
		must(t, enq.Enqueue(f.ctx, checkout.OutboxMessage{ID: checkout.NewID(), Channel: checkout.ChannelMail, To: shopper.Email,
			ChargeID: cs.paid.ID, Type: "charge.reminder", Payload: []byte("Olá Joana Retida, sua cobrança vence amanhã"), CreatedAt: f.now}))
	}
	_, err := f.m.ChargePaid(f.ctx, cs.paid.ID, checkout.NewID(), 11110, f.now)
	must(t, err)
	_, err = f.m.Cancel(f.ctx, "ana@loja.example", "", cs.elses.ID)
	must(t, err)
	cs.testFound(t)
	cs.testSweep(t)
	cs.testOnRequest(t)
}

// find is what a request about typed finds of the records beside the orders, by id.
func (cs *chargeSubject) find(t *testing.T, typed string) map[string]checkout.HeldRecord {
	t.Helper()
	subj, err := checkout.ParseSubject(typed)
	must(t, err)
	recs, err := cs.svc.SubjectRecords(cs.ctx, subj)
	must(t, err)
	out := map[string]checkout.HeldRecord{}
	for _, r := range recs.Held {
		out[r.ID] = r
	}
	return out
}

func (cs *chargeSubject) testFound(t *testing.T) {
	got := cs.find(t, "52998224725")
	if p := got[cs.paid.ID]; len(got) != 2 || p.Customer.Name != shopper.Name || p.Blocker != "" || p.Kind != charges.HeldKind ||
		got[cs.open.ID].Blocker != checkout.BlockedAwaitingPayment {
		t.Fatalf("by CPF: %+v", got)
	}
	if n := len(got[cs.paid.ID].Notifications); n < 2 {
		t.Fatalf("the paid charge's notifications and e-mail: %d", n)
	}
	if byMail := cs.find(t, "joana.retida@EXAMPLE.com.br"); len(byMail) != 2 {
		t.Fatalf("by e-mail: %+v", byMail)
	}
}

// testSweep: an hour past the retention, the paid and the canceled charge lose their customer,
// the open one keeps it; a request still finds them all.
func (cs *chargeSubject) testSweep(t *testing.T) {
	cs.now = cs.now.Add(time.Hour)
	if n, err := cs.svc.AnonymiseDue(cs.ctx, cs.now, 50); err != nil || n != 2 {
		t.Fatalf("AnonymiseDue = %d, %v; want the paid and the canceled charge", n, err)
	}
	for _, id := range []string{cs.paid.ID, cs.elses.ID} {
		cs.checkAnonymised(t, id)
	}
	if c := cs.read(cs.open.ID); c.Customer.Name != shopper.Name || c.Customer.Email != shopper.Email {
		t.Errorf("the open charge lost its customer: %+v", c.Customer)
	}
	if n, err := cs.svc.AnonymiseDue(cs.ctx, cs.now, 50); err != nil || n != 0 {
		t.Fatalf("a second sweep = %d, %v", n, err)
	}
	got := cs.find(t, shopper.Document)
	if len(got) != 2 || got[cs.paid.ID].AnonymisedAt.IsZero() || !got[cs.open.ID].AnonymisedAt.IsZero() {
		t.Fatalf("after the sweep, by CPF: %+v", got)
	}
	for _, n := range got[cs.paid.ID].Notifications {
		if p := holdsPersonal(n.Body); p != "" {
			t.Errorf("notification %s of the anonymised charge holds %q: %s", n.Type, p, n.Body)
		}
	}
	if byMail := cs.find(t, shopper.Email); len(byMail) != 2 {
		t.Fatalf("after the sweep, by e-mail (its hash): %+v", byMail)
	}
}

// checkAnonymised: charge id keeps its amount and status, its document only masked.
func (cs *chargeSubject) checkAnonymised(t *testing.T, id string) {
	t.Helper()
	c := cs.read(id)
	if c.Customer.Name != "" || c.Customer.Email != "" || c.Customer.Phone != "" || c.Customer.Document == "" ||
		holdsPersonal([]byte(c.Customer.Document)) != "" || c.Terms.Amount != 12345 || !c.Status.Final() {
		t.Errorf("charge %s anonymised: %+v", id, c)
	}
}

// testOnRequest: the open charge is refused until paid, then anonymised.
func (cs *chargeSubject) testOnRequest(t *testing.T) {
	subj, _ := checkout.ParseSubject(shopper.Email)
	res, err := cs.svc.AnonymiseSubject(cs.ctx, subj)
	must(t, err)
	if len(res.HeldRefused) != 1 || res.HeldRefused[0].ID != cs.open.ID || len(res.HeldAlready) != 1 || len(res.HeldAnonymised) != 0 {
		t.Fatalf("request while open: %+v", res)
	}
	_, err = cs.m.ChargePaid(cs.ctx, cs.open.ID, checkout.NewID(), 11110, cs.now)
	must(t, err)
	res, err = cs.svc.AnonymiseSubject(cs.ctx, subj)
	must(t, err)
	if len(res.HeldAnonymised) != 1 || res.HeldAnonymised[0].ID != cs.open.ID || len(res.HeldRefused) != 0 {
		t.Fatalf("request once paid: %+v", res)
	}
	cs.checkAnonymised(t, cs.open.ID)
	list, err := cs.s.ListCharges(cs.ctx, charges.Filter{Search: "Joana"})
	must(t, err)
	if ids := chargeIDs(list); len(ids) != 0 {
		t.Errorf("a search by the name still finds %v", ids)
	}
}

func chargeIDs(list []charges.Charge) []string {
	out := make([]string, 0, len(list))
	for _, c := range list {
		out = append(out, c.ID)
	}
	return slices.Clip(out)
}

// testChargeReceivables: what the unpaid charges ask, split at the manager's São Paulo day: due
// that day or later is receivable, before it overdue (marked by the sweep or not yet); a
// partial payment counts off its principal, and paid or canceled charges ask nothing.
func testChargeReceivables(t *testing.T, f *chargeFixture) {
	due := func(day int, amount charges.Cents) charges.Charge {
		in := issue35()
		in.Terms = charges.Terms{Amount: amount, Due: marchDay(day)}
		return f.create(in)
	}
	due(5, 1000)
	partial := due(10, 2000)
	due(20, 4000)
	paid, canceled := due(12, 8000), due(12, 16000)
	_, err := f.m.ChargePaid(f.ctx, partial.ID, checkout.NewID(), 500, f.now)
	must(t, err)
	_, err = f.m.ChargePaid(f.ctx, paid.ID, checkout.NewID(), 8000, f.now)
	must(t, err)
	_, err = f.m.Cancel(f.ctx, "ana@loja.example", "", canceled.ID)
	must(t, err)
	check := func(when string, open, overdue charges.Owed) {
		t.Helper()
		got, err := f.m.Receivables(f.ctx)
		must(t, err)
		if got.Open != open || got.Overdue != overdue {
			t.Errorf("%s: %+v, want open %+v, overdue %+v", when, got, open, overdue)
		}
	}
	f.now = saoPauloAt(10, 23, 59) // day 10's last minute: due today is not late
	check("day 10, not swept", charges.Owed{Charges: 2, Amount: 1500 + 4000}, charges.Owed{Charges: 1, Amount: 1000})
	_, err = f.m.MarkOverdue(f.ctx)
	must(t, err)
	check("day 10, swept", charges.Owed{Charges: 2, Amount: 1500 + 4000}, charges.Owed{Charges: 1, Amount: 1000})
	f.now = saoPauloAt(11, 0, 0) // São Paulo's midnight: day 10's charge is late
	check("day 11", charges.Owed{Charges: 1, Amount: 4000}, charges.Owed{Charges: 2, Amount: 1000 + 1500})
}
