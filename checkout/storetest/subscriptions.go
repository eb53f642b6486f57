package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// SubscriptionStores are the stores subscriptions use: theirs and the charges'.
type SubscriptionStores interface {
	ChargeStores
	subscriptions.Store
}

// RunSubscriptions runs the suite of subscriptions (subscriptions.Store through
// subscriptions.Manager, on an injected clock in São Paulo time). open must return a new,
// empty store for each call, and a function opening another store on the same database (as a
// second instance of the product would), and arrange their closing with t.Cleanup.
func RunSubscriptions(t *testing.T, open func(t *testing.T) (SubscriptionStores, func() SubscriptionStores)) {
	fixture := func(t *testing.T) *subFixture { s, again := open(t); return newSubFixture(t, s, again) }
	t.Run("MonthlyOverAYear", func(t *testing.T) { testSubMonthly(t, fixture(t)) })
	t.Run("PauseResumeCancelAmount", func(t *testing.T) { testSubLifecycle(t, fixture(t)) })
	t.Run("CatchUp", func(t *testing.T) { testSubCatchUp(t, fixture(t)) })
	t.Run("TwoInstances", func(t *testing.T) { testSubTwoInstances(t, fixture(t)) })
	t.Run("OneTransaction", func(t *testing.T) { testSubOneTransaction(t, fixture(t)) })
	t.Run("ChangedWhileIssuing", func(t *testing.T) { testSubChangedWhileIssuing(t, fixture(t)) })
	t.Run("Validate", func(t *testing.T) { testSubValidate(t, fixture(t)) })
	t.Run("List", func(t *testing.T) { testSubList(t, fixture(t)) })
	t.Run("PersonalData", func(t *testing.T) { testSubPersonalData(t, fixture(t)) })
}

type subFixture struct {
	t     *testing.T
	ctx   context.Context
	s     SubscriptionStores
	again func() SubscriptionStores
	m     *subscriptions.Manager
	mu    sync.Mutex
	now   time.Time
}

func newSubFixture(t *testing.T, s SubscriptionStores, again func() SubscriptionStores) *subFixture {
	f := &subFixture{t: t, ctx: context.Background(), s: s, again: again, now: spAt(2027, time.November, 25, 9, 0)}
	f.m = f.manager(s)
	return f
}

// manager is an instance of the product on s, on the fixture's clock.
func (f *subFixture) manager(s SubscriptionStores, opts ...subscriptions.Option) *subscriptions.Manager {
	clock := func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
	lg := audit.New(s, 24*time.Hour, clock)
	return subscriptions.NewManager(s, charges.NewManager(s, lg, clock), lg, clock, opts...)
}

func (f *subFixture) set(at time.Time) { f.mu.Lock(); f.now = at; f.mu.Unlock() }

// spAt is h:mm of a São Paulo day (UTC−3).
func spAt(y int, m time.Month, d, h, mi int) time.Time {
	return time.Date(y, m, d, h+3, mi, 0, 0, time.UTC)
}

func day(y int, m time.Month, d int) charges.Date { return charges.Date{Year: y, Month: m, Day: d} }

func subInput(sc subscriptions.Schedule) subscriptions.Input {
	return subscriptions.Input{
		Customer:    charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com", Phone: "(11) 98765-4321"},
		Description: "Mensalidade", ExternalCode: "ALUNO-7",
		Terms: charges.Terms{Amount: 12345, FineBps: 200, InterestBpsPerMonth: 100,
			Discount: charges.Discount{Bps: 1000}},
		DiscountDays: 5, Schedule: sc,
	}
}

func (f *subFixture) create(in subscriptions.Input) subscriptions.Subscription {
	f.t.Helper()
	s, err := f.m.Create(f.ctx, "ana@loja.example", "203.0.113.7", in)
	if err != nil {
		f.t.Fatalf("Create: %v", err)
	}
	return s
}

func (f *subFixture) issue(m *subscriptions.Manager) int {
	f.t.Helper()
	n, err := m.Issue(f.ctx)
	if err != nil {
		f.t.Fatalf("Issue at %s: %v", f.now, err)
	}
	return n
}

// issued is the charges of subscription id, oldest due first.
func (f *subFixture) issued(id string) []charges.Charge {
	f.t.Helper()
	list, err := f.s.ListCharges(f.ctx, charges.Filter{Subscription: id})
	if err != nil {
		f.t.Fatal(err)
	}
	slices.SortFunc(list, func(a, b charges.Charge) int { return charges.DaysBetween(b.Period.Due, a.Period.Due) })
	return list
}

// wantErr fails unless err is target (nil: no error).
func (f *subFixture) wantErr(err, target error, what string) {
	f.t.Helper()
	if (target == nil && err != nil) || !errors.Is(err, target) {
		f.t.Fatalf("%s: %v, want %v", what, err, target)
	}
}

// audited is the audit log's actions on id, oldest first.
func (f *subFixture) audited(id string) []string {
	f.t.Helper()
	es, err := f.s.Entries(f.ctx, audit.Filter{})
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for _, e := range slices.Backward(es) {
		if e.Object == id {
			out = append(out, e.Action+"/"+e.Actor)
		}
	}
	return out
}

func (f *subFixture) read(id string) subscriptions.Subscription {
	f.t.Helper()
	s, err := f.s.Subscription(f.ctx, id)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

// dues are the due dates of list.
func dues(list []charges.Charge) []charges.Date {
	out := make([]charges.Date, len(list))
	for i, c := range list {
		out[i] = c.Terms.Due
	}
	return out
}

// everyDay moves the clock a day at a time from its day to last, running Issue at 23:59:59
// and at midnight São Paulo time (02:59:59 and 03:00 UTC) and at noon.
func (f *subFixture) everyDay(last charges.Date, m *subscriptions.Manager) {
	f.t.Helper()
	for d := charges.Today(f.now); charges.DaysBetween(d, last) >= 0; d = charges.AddDays(d, 1) {
		midnight := time.Date(d.Year, d.Month, d.Day, 3, 0, 0, 0, time.UTC)
		for _, at := range []time.Time{midnight.Add(-time.Second), midnight, midnight.Add(9 * time.Hour)} {
			if at.Before(f.now) {
				continue // the clock never goes back
			}
			f.set(at)
			f.issue(m)
		}
	}
}

// testSubMonthly: monthly subscriptions on day 31 (February of a leap year, the 30-day
// months), on day 30 across a common year's February, and every two weeks, each issue exactly
// their charges over more than a year of the clock run at every São Paulo midnight, each ten
// days before its due date, none skipped or doubled.
func testSubMonthly(t *testing.T, f *subFixture) {
	d31 := f.create(subInput(subscriptions.Schedule{DayOfMonth: 31, Start: day(2027, time.December, 1), Count: 12}))
	d30 := f.create(subInput(subscriptions.Schedule{DayOfMonth: 30, Start: day(2028, time.March, 1), End: day(2029, time.February, 28)}))
	weeks := f.create(subInput(subscriptions.Schedule{EveryWeeks: 2, Start: day(2027, time.December, 1), End: day(2028, time.March, 1)}))
	f.everyDay(day(2029, time.March, 31), f.m)

	want31 := []charges.Date{day(2027, 12, 31), day(2028, 1, 31), day(2028, 2, 29), day(2028, 3, 31), day(2028, 4, 30),
		day(2028, 5, 31), day(2028, 6, 30), day(2028, 7, 31), day(2028, 8, 31), day(2028, 9, 30), day(2028, 10, 31), day(2028, 11, 30)}
	want30 := []charges.Date{day(2028, 3, 30), day(2028, 4, 30), day(2028, 5, 30), day(2028, 6, 30), day(2028, 7, 30),
		day(2028, 8, 30), day(2028, 9, 30), day(2028, 10, 30), day(2028, 11, 30), day(2028, 12, 30), day(2029, 1, 30), day(2029, 2, 28)}
	wantWeeks := []charges.Date{day(2027, 12, 1), day(2027, 12, 15), day(2027, 12, 29), day(2028, 1, 12), day(2028, 1, 26),
		day(2028, 2, 9), day(2028, 2, 23)}
	for _, c := range []struct {
		s    subscriptions.Subscription
		want []charges.Date
	}{{d31, want31}, {d30, want30}, {weeks, wantWeeks}} {
		list := f.issued(c.s.ID)
		if got := dues(list); !slices.Equal(got, c.want) {
			t.Fatalf("subscription %+v issued charges due\n%v, want\n%v", c.s.Schedule, got, c.want)
		}
		for _, ch := range list {
			want := charges.AddDays(ch.Terms.Due, -subscriptions.DefaultLeadDays)
			if charges.DaysBetween(want, day(2027, time.November, 25)) > 0 {
				want = day(2027, time.November, 25) // made after that day: issued when made
			}
			if got := charges.Today(ch.CreatedAt); got != want || ch.Period.Due != ch.Terms.Due || ch.Terms.Amount != 12345 ||
				ch.Terms.Discount.Until != charges.AddDays(ch.Terms.Due, -5) || ch.ExternalCode != "ALUNO-7/"+ch.Terms.Due.String() {
				t.Fatalf("charge due %s issued on %s (want %s): %+v", ch.Terms.Due, got, want, ch)
			}
		}
		if got := f.read(c.s.ID); got.Status != subscriptions.StatusEnded || got.Issued != len(c.want) || !got.NextDue.IsZero() {
			t.Fatalf("subscription after its schedule: %+v", got)
		}
	}
}

// testSubLifecycle: a new amount applies to the charges not issued yet; a paused subscription
// issues nothing, and once resumed skips the periods due meanwhile; a canceled one issues
// nothing more; each change is audited and a change its status refuses is an error.
func testSubLifecycle(t *testing.T, f *subFixture) {
	s := f.create(subInput(subscriptions.Schedule{DayOfMonth: 10, Start: day(2027, time.December, 1)}))
	f.everyDay(day(2027, time.November, 30), f.m)
	_, err := f.m.Resume(f.ctx, "ana@loja.example", "", s.ID)
	f.wantErr(err, subscriptions.ErrNotPaused, "resuming an active subscription")
	if _, err := f.m.SetAmount(f.ctx, "ana@loja.example", "", s.ID, 0); !errors.As(err, new(*gatewayclient.ValidationError)) ||
		!err.(*gatewayclient.ValidationError).Has("amount") {
		t.Fatalf("a zero amount: %v", err)
	}
	_, err = f.m.SetAmount(f.ctx, "ana@loja.example", "", s.ID, 20000)
	f.wantErr(err, nil, "a new amount")
	f.everyDay(day(2027, time.December, 31), f.m)
	_, err = f.m.Pause(f.ctx, "ana@loja.example", "", s.ID)
	f.wantErr(err, nil, "pausing")
	_, err = f.m.Pause(f.ctx, "ana@loja.example", "", s.ID)
	f.wantErr(err, subscriptions.ErrNotActive, "pausing twice")
	f.everyDay(day(2028, time.February, 15), f.m)
	if got := len(f.issued(s.ID)); got != 2 {
		t.Fatalf("%d charges issued by the time it was resumed, want 2", got)
	}
	r, err := f.m.Resume(f.ctx, "ana@loja.example", "", s.ID)
	if err != nil || r.Status != subscriptions.StatusActive || r.NextDue != day(2028, time.March, 10) || r.Issued != 2 {
		t.Fatalf("resumed: %+v, %v", r, err)
	}
	f.everyDay(day(2028, time.March, 1), f.m)
	_, err = f.m.Cancel(f.ctx, "ana@loja.example", "", s.ID)
	f.wantErr(err, nil, "canceling")
	_, err = f.m.Cancel(f.ctx, "ana@loja.example", "", s.ID)
	f.wantErr(err, subscriptions.ErrFinal, "canceling twice")
	f.everyDay(day(2028, time.May, 1), f.m)
	list := f.issued(s.ID)
	var got []string
	for _, c := range list {
		got = append(got, fmt.Sprintf("%s/%d", c.Terms.Due, c.Terms.Amount))
	}
	if want := []string{"2027-12-10/12345", "2028-01-10/20000", "2028-03-10/20000"}; !slices.Equal(got, want) {
		t.Fatalf("charges %v, want %v", got, want)
	}
	if actions := f.audited(s.ID); !slices.Equal(actions, []string{"subscription.created/ana@loja.example", "subscription.changed/ana@loja.example",
		"subscription.paused/ana@loja.example", "subscription.resumed/ana@loja.example",
		"subscription.canceled/ana@loja.example"}) {
		t.Fatalf("audited %v", actions)
	}
}

// testSubCatchUp: after the product stopped for months, a run issues every missed period once
// (due today); a period whose charge was made by a run that stopped before recording it is
// not made again.
func testSubCatchUp(t *testing.T, f *subFixture) {
	s := f.create(subInput(subscriptions.Schedule{DayOfMonth: 5, Start: day(2027, time.December, 1)}))
	f.set(spAt(2028, time.February, 20, 0, 30))
	// A run that made February's charge and stopped before recording it on the subscription.
	cm := charges.NewManager(f.s, nil, func() time.Time { return f.now })
	in := charges.Input{Customer: s.Customer, Description: s.Description, Terms: s.TermsFor(day(2028, time.February, 20), charges.Today(f.now)),
		Period: charges.Period{Subscription: s.ID, Due: day(2028, time.February, 5)}}
	if _, err := cm.Create(f.ctx, "", "", in); err != nil {
		t.Fatal(err)
	}
	if n := f.issue(f.m); n != 2 {
		t.Fatalf("the catch-up made %d charges, want 2 (December's and January's)", n)
	}
	if n := f.issue(f.m); n != 0 {
		t.Fatalf("a second run made %d", n)
	}
	list := f.issued(s.ID)
	if len(list) != 3 {
		t.Fatalf("%d charges", len(list))
	}
	periods := []charges.Date{day(2027, time.December, 5), day(2028, time.January, 5), day(2028, time.February, 5)}
	for i, c := range list {
		if c.Terms.Due != day(2028, time.February, 20) || c.Period.Due != periods[i] {
			t.Fatalf("charge %d: due %s for period %s", i, c.Terms.Due, c.Period.Due)
		}
	}
	if got := f.read(s.ID); got.NextDue != day(2028, time.March, 5) || got.Issued != 3 {
		t.Fatalf("after the catch-up: %+v", got)
	}
}

// testSubTwoInstances: two instances on one database issuing at once at every São Paulo
// midnight of two months issue each period once, one of them with four issuers at once.
func testSubTwoInstances(t *testing.T, f *subFixture) {
	f.set(spAt(2028, time.February, 20, 0, 30))
	other := f.manager(f.again(), subscriptions.WithWorkers(4))
	var subs []subscriptions.Subscription
	for range 12 {
		subs = append(subs, f.create(subInput(subscriptions.Schedule{EveryWeeks: 1, Start: day(2028, time.March, 1)})))
	}
	total := 0
	for d := day(2028, time.February, 21); charges.DaysBetween(d, day(2028, time.April, 20)) >= 0; d = charges.AddDays(d, 1) {
		f.set(time.Date(d.Year, d.Month, d.Day, 3, 0, 0, 0, time.UTC))
		var wg sync.WaitGroup
		made := make([]int, 2)
		errs := make([]error, 2)
		for i, m := range []*subscriptions.Manager{f.m, other} {
			wg.Go(func() { made[i], errs[i] = m.Issue(f.ctx) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("on %s: %v", d, err)
		}
		total += made[0] + made[1]
	}
	// Weekly from 1 March, issued ten days ahead through 20 April: due 1 March to 26 April.
	const weeks = 9
	for _, s := range subs {
		list := f.issued(s.ID)
		if len(list) != weeks || list[0].Terms.Due != day(2028, time.March, 1) || list[weeks-1].Terms.Due != day(2028, time.April, 26) {
			t.Fatalf("subscription issued %v", dues(list))
		}
	}
	if total != 12*weeks {
		t.Fatalf("the instances said they made %d charges, want %d", total, 12*weeks)
	}
}

// testSubValidate: a bad subscription names each field; the Idempotency-Key answers the
// subscription it made.
func testSubValidate(t *testing.T, f *subFixture) {
	bad := subInput(subscriptions.Schedule{DayOfMonth: 32, Start: day(2027, time.November, 1), Count: -1})
	bad.Customer.Email, bad.DiscountDays, bad.Terms.FineBps = "", 0, 300
	_, err := f.m.Create(f.ctx, "", "", bad)
	var ve *gatewayclient.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("a bad subscription: %v", err)
	}
	for _, field := range []string{"dayOfMonth", "startDate", "count", "customer.email", "discount.daysBefore", "fineBps"} {
		if !ve.Has(field) {
			t.Errorf("no violation of %s in %v", field, ve)
		}
	}
	in := subInput(subscriptions.Schedule{EveryWeeks: 4, Start: day(2027, time.December, 1)})
	a, created, err := f.m.CreateOnce(f.ctx, "", "", "key-1", in)
	if err != nil || !created {
		t.Fatal(created, err)
	}
	b, created, err := f.m.CreateOnce(f.ctx, "", "", "key-1", in)
	if err != nil || created || b.ID != a.ID {
		t.Fatalf("the same key again: %s %v %v", b.ID, created, err)
	}
	in.Terms.Amount++
	if _, _, err := f.m.CreateOnce(f.ctx, "", "", "key-1", in); checkout.ErrorCode(err) != checkout.CodeIdempotencyReused {
		t.Fatalf("the key with another body: %v", err)
	}
}

// testSubList: the list pages by key and filters by status and search.
func testSubList(t *testing.T, f *subFixture) {
	var made []subscriptions.Subscription
	for i := range 3 {
		in := subInput(subscriptions.Schedule{DayOfMonth: 10 + i, Start: day(2027, time.December, 1)})
		if i == 2 {
			in.Customer.Name, in.ExternalCode = "João Souza", "OUTRO"
		}
		f.now = f.now.Add(time.Minute)
		made = append(made, f.create(in))
	}
	if _, err := f.m.Pause(f.ctx, "", "", made[0].ID); err != nil {
		t.Fatal(err)
	}
	ids := func(list []subscriptions.Subscription, n int, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		out := []string{}
		for _, s := range list {
			out = append(out, s.ID)
		}
		return append(out, string(rune('0'+n)))
	}
	for _, c := range []struct {
		f    subscriptions.Filter
		want []string
	}{
		{subscriptions.Filter{}, []string{made[2].ID, made[1].ID, made[0].ID, "3"}},
		{subscriptions.Filter{Limit: 2}, []string{made[2].ID, made[1].ID, "3"}},
		{subscriptions.Filter{Limit: 2, AfterCreated: made[1].CreatedAt, AfterID: made[1].ID}, []string{made[0].ID, "3"}},
		{subscriptions.Filter{Status: []subscriptions.Status{subscriptions.StatusPaused}}, []string{made[0].ID, "1"}},
		{subscriptions.Filter{Search: "joão"}, []string{made[2].ID, "1"}},
		{subscriptions.Filter{Search: "52998224725"}, []string{made[2].ID, made[1].ID, made[0].ID, "3"}},
	} {
		if got := ids(f.m.List(f.ctx, c.f, 100)); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %v, want %v", c.f, got, c.want)
		}
	}
}

// testSubPersonalData: a data subject's request finds their subscriptions by CPF and by
// e-mail (an active one blocked: it still bills them); past the retention the sweep anonymises
// the canceled one only, which a later request still finds through the hashes; a request
// anonymises the active one once it is canceled.
func testSubPersonalData(t *testing.T, f *subFixture) {
	svc := checkout.NewService(f.s, nil, checkout.ServiceOptions{Logger: slog.New(slog.DiscardHandler),
		Clock: func() time.Time { return f.now }, PersonalDataKey: bytes.Repeat([]byte{9}, checkout.PersonalDataKeySize),
		PersonalDataHolders: []checkout.PersonalDataHolder{f.m}})
	in := subInput(subscriptions.Schedule{DayOfMonth: 10, Start: day(2027, time.December, 1)})
	in.Customer = charges.Customer{Name: shopper.Name, Document: shopper.Document, Email: shopper.Email, Phone: shopper.Phone}
	active, ended := f.create(in), f.create(in)
	_, err := f.m.Cancel(f.ctx, "", "", ended.ID)
	must(t, err)
	find := func(typed string) map[string]checkout.HeldRecord { return f.held(svc, typed) }
	got := find("52998224725")
	if len(got) != 2 || got[ended.ID].Kind != subscriptions.HeldKind || got[ended.ID].Customer.Name != shopper.Name ||
		got[active.ID].Blocker != checkout.BlockedAwaitingPayment || len(find(shopper.Email)) != 2 {
		t.Fatalf("by CPF: %+v", got)
	}
	f.set(f.now.Add(checkout.DefaultPersonalDataRetention + time.Hour))
	if n, err := svc.AnonymiseDue(f.ctx, f.now, 50); err != nil || n != 1 {
		t.Fatalf("AnonymiseDue = %d, %v; want the canceled subscription", n, err)
	}
	f.checkAnonymised(ended.ID)
	if s := f.read(active.ID); s.Customer.Name != shopper.Name {
		t.Fatalf("the active subscription lost its customer: %+v", s.Customer)
	}
	if got := find(shopper.Email); len(got) != 2 || got[ended.ID].AnonymisedAt.IsZero() {
		t.Fatalf("after the sweep, by e-mail (its hash): %+v", got)
	}
	_, err = f.m.Cancel(f.ctx, "", "", active.ID)
	must(t, err)
	subj, _ := checkout.ParseSubject(shopper.Document)
	res, err := svc.AnonymiseSubject(f.ctx, subj)
	must(t, err)
	if len(res.HeldAnonymised) != 1 || res.HeldAnonymised[0].ID != active.ID {
		t.Fatalf("request once canceled: %+v", res)
	}
	if list, _, err := f.m.List(f.ctx, subscriptions.Filter{Search: "Joana"}, 10); err != nil || len(list) != 0 {
		t.Fatalf("a search by the name still finds %d, %v", len(list), err)
	}
}

// held is what a data subject's request about typed finds of the records beside the orders,
// by id.
func (f *subFixture) held(svc *checkout.Service, typed string) map[string]checkout.HeldRecord {
	f.t.Helper()
	subj, err := checkout.ParseSubject(typed)
	must(f.t, err)
	recs, err := svc.SubjectRecords(f.ctx, subj)
	must(f.t, err)
	out := map[string]checkout.HeldRecord{}
	for _, r := range recs.Held {
		out[r.ID] = r
	}
	return out
}

// checkAnonymised: subscription id keeps its amount, its document only masked.
func (f *subFixture) checkAnonymised(id string) {
	f.t.Helper()
	if s := f.read(id); s.Customer.Name != "" || s.Customer.Email != "" || s.Customer.Phone != "" ||
		holdsPersonal([]byte(s.Customer.Document)) != "" || s.Terms.Amount != 12345 {
		f.t.Fatalf("subscription %s anonymised: %+v", id, s)
	}
}

// testSubOneTransaction: a period's charge, its audit entry and its subscription moved past
// the period are stored in one transaction: all of them, or none when the subscription changed
// since it was read (checkout.ErrConflict); a companion of a kind the store does not keep is
// refused with nothing stored.
func testSubOneTransaction(t *testing.T, f *subFixture) {
	s := f.create(subInput(subscriptions.Schedule{DayOfMonth: 5, Start: day(2027, time.December, 1)}))
	lg := audit.New(f.s, 24*time.Hour, func() time.Time { return f.now })
	cm := charges.NewManager(f.s, lg, func() time.Time { return f.now })
	period := charges.Period{Subscription: s.ID, Due: s.NextDue}
	moved := s
	moved.NextPeriod, moved.NextDue, moved.Issued, moved.Version = 1, day(2028, time.January, 5), 1, s.Version+1
	in := charges.Input{Customer: s.Customer, Description: s.Description, Terms: s.TermsFor(s.NextDue, charges.Today(f.now)),
		Period: period, Companion: moved}
	if _, err := cm.Create(f.ctx, "", "", charges.Input{Customer: in.Customer, Description: in.Description, Terms: in.Terms,
		Period: period, Companion: &moved}); err == nil {
		t.Fatal("a companion of an unknown kind was stored")
	}
	f.nothingIssued(period, "an unknown companion")
	// The merchant pauses it after the issuer read it.
	if _, err := f.m.Pause(f.ctx, "ana@loja.example", "", s.ID); err != nil {
		t.Fatal(err)
	}
	_, err := cm.Create(f.ctx, "", "", in)
	f.wantErr(err, checkout.ErrConflict, "a charge with its subscription changed since read")
	f.nothingIssued(period, "a stale subscription")
	if got := f.read(s.ID); got.Status != subscriptions.StatusPaused || got.NextPeriod != 0 {
		t.Fatalf("the paused subscription became %+v", got)
	}
	if _, err := f.m.Resume(f.ctx, "ana@loja.example", "", s.ID); err != nil {
		t.Fatal(err)
	}
	fresh := f.read(s.ID)
	moved.Version, moved.Status = fresh.Version+1, subscriptions.StatusActive
	in.Companion = moved
	c, err := cm.Create(f.ctx, "", "", in)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := f.s.ChargeOfPeriod(f.ctx, period); err != nil || got.ID != c.ID {
		t.Fatalf("the period's charge: %+v, %v", got, err)
	}
	if got := f.read(s.ID); got.Version != moved.Version || got.NextDue != moved.NextDue || got.Issued != 1 {
		t.Fatalf("the subscription stored with its charge: %+v", got)
	}
	if actions := f.audited(c.ID); !slices.Equal(actions, []string{"charge.created/system"}) {
		t.Fatalf("the charge audited %v", actions)
	}
}

// nothingIssued fails unless period has no charge and no charge's creation is audited.
func (f *subFixture) nothingIssued(period charges.Period, what string) {
	f.t.Helper()
	if _, err := f.s.ChargeOfPeriod(f.ctx, period); !errors.Is(err, checkout.ErrNotFound) {
		f.t.Fatalf("%s: the period's charge: %v", what, err)
	}
	es, err := f.s.Entries(f.ctx, audit.Filter{Action: audit.ChargeCreated})
	if err != nil || len(es) != 0 {
		f.t.Fatalf("%s: charges audited %v, %v", what, es, err)
	}
}

// pausingStore is a store on which the merchant pauses a subscription as soon as the issuer
// has read it among those due.
type pausingStore struct {
	SubscriptionStores
	pause func(id string)
}

func (p pausingStore) SubscriptionsDue(ctx context.Context, day, afterDue charges.Date, afterID string, limit int) ([]subscriptions.Subscription, error) {
	due, err := p.SubscriptionStores.SubscriptionsDue(ctx, day, afterDue, afterID, limit)
	for _, s := range due {
		p.pause(s.ID)
	}
	return due, err
}

// testSubChangedWhileIssuing: a subscription paused by the merchant while the issuer holds it
// issues nothing, and the issuer reports no error.
func testSubChangedWhileIssuing(t *testing.T, f *subFixture) {
	f.set(spAt(2027, time.November, 28, 9, 0))
	s := f.create(subInput(subscriptions.Schedule{DayOfMonth: 5, Start: day(2027, time.December, 1)}))
	issuer := f.manager(pausingStore{SubscriptionStores: f.s, pause: func(id string) {
		if _, err := f.m.Pause(f.ctx, "ana@loja.example", "", id); err != nil {
			t.Error(err)
		}
	}})
	if n := f.issue(issuer); n != 0 {
		t.Fatalf("issued %d charges of a paused subscription", n)
	}
	if list := f.issued(s.ID); len(list) != 0 {
		t.Fatalf("charges of a paused subscription: %v", dues(list))
	}
	if got := f.read(s.ID); got.Status != subscriptions.StatusPaused || got.Issued != 0 {
		t.Fatalf("the subscription became %+v", got)
	}
}
