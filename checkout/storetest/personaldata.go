package storetest

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
)

// PersonalDataStores is a store that keeps personal data: orders, checkout sessions, the
// delivery log of their notifications, and their anonymisation.
type PersonalDataStores interface {
	MerchantStores
	checkout.PersonalDataStore
}

// Gateway is the payment gateway the personal-data suite places orders through, with a way to
// settle a deposit as the shopper's bank would. The stores' tests build it on the sandbox:
// storetest is a package, and only cmd may wire the sandbox into one.
type Gateway struct {
	Client checkout.Gateway
	// Now is the gateway's clock, which the suite's Service shares.
	Now func() time.Time
	// Pay pays the deposit of a transaction; Review holds it for compliance review.
	Pay, Review func(ctx context.Context, transactionID string) error
}

// RunPersonalData runs the suite of personal data's retention and data subjects' requests.
// open must return a new, empty store for each call and arrange its closing with t.Cleanup;
// gateway returns a new gateway, closed with t.Cleanup too.
func RunPersonalData(t *testing.T, open func(t *testing.T) PersonalDataStores, gateway func(t *testing.T) Gateway) {
	t.Run("Key", func(t *testing.T) { testPersonalDataKey(t, open(t)) })
	t.Run("RetentionAndRequests", func(t *testing.T) { testPersonalData(t, open(t), gateway(t)) })
}

// testPersonalDataKey: the key is made once; a second one offered later is not stored.
func testPersonalDataKey(t *testing.T, s PersonalDataStores) {
	ctx := context.Background()
	if _, err := s.PersonalDataKey(ctx); checkout.ErrorCode(err) != checkout.CodeNotFound {
		t.Fatalf("a new store has a key: %v", err)
	}
	k1, err := checkout.LoadPersonalDataKey(ctx, s, base)
	if err != nil || len(k1) != checkout.PersonalDataKeySize {
		t.Fatalf("LoadPersonalDataKey = %x, %v", k1, err)
	}
	k2, err := checkout.LoadPersonalDataKey(ctx, s, base)
	if err != nil || !bytes.Equal(k1, k2) {
		t.Errorf("the key changed between two starts: %x, %x, %v", k1, k2, err)
	}
	other := bytes.Repeat([]byte{7}, checkout.PersonalDataKeySize)
	if got, err := s.AddPersonalDataKey(ctx, other, base); err != nil || !bytes.Equal(got, k1) {
		t.Errorf("AddPersonalDataKey replaced the stored key: %x, %v", got, err)
	}
}

// shopper is the data subject of the suite; other is somebody else.
var (
	shopper = checkout.Customer{Name: "Joana Retida Prado", Document: "529.982.247-25", Email: "Joana.Retida@example.com.br",
		Phone: "(11) 98765-4321"}
	other = checkout.Customer{Name: "Outro Comprador", Document: "111.444.777-35", Email: "outro@example.com.br",
		Phone: "(21) 99876-5432"}
)

// orderData stands in for the merchant API's shape of an order (web/apijson.OrderEvent, which
// the stores may not import) as a notification's data: what the personal-data sweep looks for,
// the customer and the address, under the keys the API gives them.
func orderData(o *checkout.Order, _ *checkout.CheckoutSession, personal bool) any {
	customer := map[string]any{}
	if personal {
		customer = map[string]any{"name": o.Customer.Name, "document": o.Customer.Document, "email": o.Customer.Email,
			"phone": o.Customer.Phone, "address": o.Address}
	}
	return map[string]any{"id": o.ID, "customer": customer}
}

// personal are the texts of the shopper that no anonymised record may hold anywhere.
var personal = []string{"Joana", "Retida", "joana.retida", "52998224725", "529.982.247-25", "98765", "Avenida Paulista", "01310"}

func holdsPersonal(b []byte) string {
	low := strings.ToLower(string(b))
	for _, p := range personal {
		if strings.Contains(low, strings.ToLower(p)) {
			return p
		}
	}
	return ""
}

// subjectOrders are the orders of the suite's data subject, placed through a Service and the
// gateway: paid ones (one from a checkout session, one shipped), one awaiting payment, one under
// review, one with a refund due, and somebody else's paid one; after is placed once the sweep
// has run.
type subjectOrders struct {
	s                                                                  PersonalDataStores
	gw                                                                 Gateway
	svc                                                                *checkout.Service
	sess                                                               *checkout.CheckoutSession
	shipped, fromSession, awaiting, review, refund, someoneElse, after *checkout.Order
}

// anonymised are the orders the sweep anonymises; kept, those it may not.
func (f *subjectOrders) anonymised() []*checkout.Order {
	return []*checkout.Order{f.shipped, f.fromSession, f.someoneElse}
}

func (f *subjectOrders) kept() []*checkout.Order {
	return []*checkout.Order{f.awaiting, f.review, f.refund}
}

// testPersonalData: past the retention, the sweep anonymises the paid orders: no name, e-mail,
// phone, address or document left in the order, its attempts' transaction requests, its
// notifications' bodies, its session or the search index, while the amount, lines, status,
// gateway ids and end-to-end ids stay; the others keep everything. A request by CPF, and one by
// e-mail, then find the orders anonymised and those not, and one placed after; and anonymising
// on request anonymises what may be and says why the rest stays.
func testPersonalData(t *testing.T, s PersonalDataStores, gw Gateway) {
	f := newSubjectOrders(t, s, gw)
	t.Run("Sweep", f.testSweep)
	t.Run("Anonymised", f.testAnonymised)
	t.Run("Request", f.testRequests)
	t.Run("AnonymiseOnRequest", f.testAnonymiseOnRequest)
}

func newSubjectOrders(t *testing.T, s PersonalDataStores, gw Gateway) *subjectOrders {
	ctx := context.Background()
	key, err := checkout.LoadPersonalDataKey(ctx, s, gw.Now())
	must(t, err)
	svc := checkout.NewService(s, gw.Client, checkout.ServiceOptions{MerchantName: "Loja", Clock: gw.Now,
		Logger: slog.New(slog.DiscardHandler), Announcer: &notify.Announcer{Order: orderData, Sessions: s, Clock: gw.Now},
		PersonalDataKey: key})
	t.Cleanup(svc.Close)
	must(t, checkout.SeedDemoCatalogue(ctx, s))
	f := &subjectOrders{s: s, gw: gw, svc: svc}
	f.shipped = f.settle(t, f.place(t, shopper, true), gw.Pay, checkout.StatusPaid)
	f.sess, _, err = svc.CreateCheckoutSession(ctx, checkout.CreateCheckoutSessionInput{
		Items:    []checkout.CheckoutSessionItem{{Title: "Consultoria", UnitPrice: 15000, Quantity: 1, Type: checkout.ItemDigital}},
		Customer: &checkout.Customer{Name: shopper.Name, Document: shopper.Document, Email: shopper.Email}})
	must(t, err)
	fromSession, err := svc.PlaceOrder(ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelSession, Source: f.sess.ID,
		Customer: shopper, Lang: "pt-BR"})
	must(t, err)
	f.fromSession = f.settle(t, fromSession, gw.Pay, checkout.StatusPaid)
	f.awaiting = f.place(t, shopper, false)
	f.review = f.settle(t, f.place(t, shopper, false), gw.Review, checkout.StatusUnderReview)
	f.someoneElse = f.settle(t, f.place(t, other, false), gw.Pay, checkout.StatusPaid)
	// A refund due: an order paid twice (stored as the store keeps it).
	f.refund = NewOrder("pd-refund-" + checkout.NewID())
	f.refund.Customer = checkout.Customer{Name: shopper.Name, Document: "52998224725", Email: shopper.Email, Phone: "11987654321"}
	f.refund.Status, f.refund.RefundDue, f.refund.PaidAt = checkout.StatusPaid, 1000, base
	f.refund.CreatedAt, f.refund.UpdatedAt = gw.Now().Add(-time.Hour), gw.Now().Add(-time.Hour)
	_, _, err = s.CreateOrder(ctx, f.refund)
	must(t, err)
	for _, o := range f.anonymised() {
		if ns, err := s.OrderNotifications(ctx, []string{o.ID}); err != nil || len(ns) == 0 || holdsPersonal(ns[0].Body) == "" && o != f.someoneElse {
			t.Fatalf("the paid order %s has no notification holding its shopper's data before: %d, %v", o.Number, len(ns), err)
		}
	}
	return f
}

// place places an order of one product, physical (with an address) or digital.
func (f *subjectOrders) place(t *testing.T, c checkout.Customer, physical bool) *checkout.Order {
	t.Helper()
	ctx := context.Background()
	cart, err := f.svc.NewCart(ctx)
	must(t, err)
	in := checkout.PlaceOrderInput{Source: cart.ID, RequestKey: checkout.NewID(), Customer: c, Lang: "pt-BR", ShopperIP: "203.0.113.9"}
	p := checkout.ProductID("ebook-receitas-do-cerrado")
	if physical {
		p = "caneca-de-ceramica"
		in.Address = &checkout.Address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1000", Neighborhood: "Bela Vista",
			City: "São Paulo", State: "SP"}
	}
	_, err = f.svc.AddToCart(ctx, cart.ID, p, 1)
	must(t, err)
	o, err := f.svc.PlaceOrder(ctx, in)
	must(t, err)
	if !same(t, "a placed order's status", o.Status, checkout.StatusAwaitingPayment) {
		t.FailNow()
	}
	return o
}

// settle settles the order's deposit at the gateway and refreshes the order from it.
func (f *subjectOrders) settle(t *testing.T, o *checkout.Order, settle func(context.Context, string) error,
	want checkout.OrderStatus) *checkout.Order {
	t.Helper()
	ctx := context.Background()
	must(t, settle(ctx, o.CurrentAttempt().TransactionID))
	got, err := f.svc.RefreshFromGateway(ctx, o.ID)
	must(t, err)
	if !same(t, "status of "+o.Number+" refreshed from the gateway", got.Status, want) {
		t.FailNow()
	}
	return got
}

// sweep runs the retention once, after the given time past the gateway's clock.
func (f *subjectOrders) sweep(t *testing.T, after time.Duration) int {
	t.Helper()
	r := checkout.NewRetention(f.s, f.s, checkout.RetentionOptions{Batch: 2, Pause: time.Millisecond, Anonymiser: f.svc,
		Clock: func() time.Time { return f.gw.Now().Add(after) }})
	n, err := r.RunOnce(context.Background())
	must(t, err)
	return n.PersonalData
}

// testSweep: within the retention nothing changes; past it, the paid orders are anonymised, once.
func (f *subjectOrders) testSweep(t *testing.T) {
	if n := f.sweep(t, checkout.DefaultPersonalDataRetention-time.Hour); n != 0 {
		t.Fatalf("%d orders anonymised within their retention", n)
	}
	// The shopper's page of one of them has it in memory.
	if snap, err := f.svc.Snapshot(context.Background(), f.shipped.ID); err != nil || snap.Customer.Name != shopper.Name {
		t.Fatalf("Snapshot before: %+v, %v", snap, err)
	}
	if n := f.sweep(t, checkout.DefaultPersonalDataRetention+time.Hour); n != len(f.anonymised()) {
		t.Fatalf("%d orders anonymised past their retention, want the %d paid ones", n, len(f.anonymised()))
	}
	same(t, "orders a second sweep anonymised", f.sweep(t, checkout.DefaultPersonalDataRetention+time.Hour), 0)
}

// testAnonymised: the anonymised orders hold no personal data anywhere and keep the rest; the
// page's snapshot and the session forgot the shopper; the other orders keep everything.
func (f *subjectOrders) testAnonymised(t *testing.T) {
	ctx := context.Background()
	for _, was := range f.anonymised() {
		f.checkAnonymised(t, was)
	}
	if snap, err := f.svc.Snapshot(ctx, f.shipped.ID); err != nil || snap.Customer.Name != "" || snap.Address != nil {
		t.Errorf("the page's snapshot still holds the shopper's data: %+v, %v", snap, err)
	}
	got, err := f.s.CheckoutSession(ctx, f.sess.ID)
	must(t, err)
	same(t, "the anonymised order's session's prefill", got.Customer, checkout.Customer{Document: "***.982.247-**"})
	for _, was := range f.kept() {
		o, err := f.s.Order(ctx, was.ID)
		must(t, err)
		same(t, "customer of "+o.Number+" (not to anonymise)", o.Customer, was.Customer)
	}
	// The search index no longer finds the anonymised orders by their shopper's data.
	for _, term := range []string{"Retida", "joana.retida@example.com.br", "52998224725", "Outro Comprador"} {
		found, _, err := f.s.OrderSummaries(ctx, checkout.OrderFilter{Search: term})
		must(t, err)
		for _, o := range found {
			same(t, "searching "+term+" finds an anonymised order", slices.ContainsFunc(f.anonymised(),
				func(a *checkout.Order) bool { return a.ID == o.ID }), false)
		}
	}
}

// checkAnonymised checks one anonymised order, was before: its customer keeps the middle of the
// document, its payment and lines stay, and its transaction requests and notifications hold
// nothing of the shopper.
func (f *subjectOrders) checkAnonymised(t *testing.T, was *checkout.Order) {
	ctx := context.Background()
	o, err := f.s.Order(ctx, was.ID)
	must(t, err)
	doc := brDigits(was.Customer.Document)
	same(t, o.Number+"'s customer", o.Customer, checkout.Customer{Document: "***." + doc[3:6] + "." + doc[6:9] + "-**"})
	same(t, o.Number+"'s address and IP", []any{o.Address, o.ShopperIP}, []any{(*checkout.Address)(nil), ""})
	type stays struct {
		Amount          int64
		Status          checkout.OrderStatus
		Lines           []checkout.OrderLine
		Created, Paid   int64
		Payment, EndEnd string
	}
	kept := func(o *checkout.Order) stays {
		a := o.PaidAttempt()
		if a == nil {
			a = &checkout.Attempt{}
		}
		return stays{int64(o.Amount), o.Status, o.Lines, o.CreatedAt.UnixNano(), o.PaidAt.UnixNano(), a.TransactionID, a.EndToEnd}
	}
	same(t, o.Number+" anonymised", kept(o), kept(was))
	if kept(o).EndEnd == "" {
		t.Errorf("order %s has no end-to-end id", o.Number)
	}
	for _, at := range o.Attempts {
		if p := holdsPersonal(at.Request); p != "" || len(at.Request) > 0 && !bytes.Contains(at.Request, []byte(`"amount":`)) {
			t.Errorf("order %s attempt %d's transaction request holds %q (or lost its amount): %s", o.Number, at.N, p, at.Request)
		}
	}
	ns, err := f.s.OrderNotifications(ctx, []string{o.ID})
	if err != nil || len(ns) == 0 {
		t.Fatalf("order %s's notifications: %d, %v", o.Number, len(ns), err)
	}
	for _, n := range ns {
		if p := holdsPersonal(n.Body); p != "" || !bytes.Contains(n.Body, []byte(o.ID)) {
			t.Errorf("order %s's notification %s holds %q (or lost the order): %s", o.Number, n.Type, p, n.Body)
		}
	}
}

// testRequests: a request by CPF finds the orders anonymised (through the keyed hash) and those
// not, and one placed after; so does a request by e-mail.
func (f *subjectOrders) testRequests(t *testing.T) {
	f.after = f.settle(t, f.place(t, shopper, false), f.gw.Pay, checkout.StatusPaid)
	mine := []string{f.shipped.ID, f.fromSession.ID, f.awaiting.ID, f.review.ID, f.refund.ID, f.after.ID}
	for _, typed := range []string{"529.982.247-25", "JOANA.RETIDA@example.com.br"} {
		subj, err := checkout.ParseSubject(typed)
		must(t, err)
		recs, err := f.svc.SubjectRecords(context.Background(), subj)
		must(t, err)
		var got, sessions []string
		for _, o := range recs.Orders {
			got = append(got, o.ID)
		}
		for _, s := range recs.Sessions {
			sessions = append(sessions, s.ID)
		}
		same(t, "request "+typed+" found orders", sameSet(got, mine), true)
		same(t, "request "+typed+" found sessions", sessions, []string{f.sess.ID})
		same(t, "request "+typed+" found the two anonymised before", []bool{len(recs.AnonymisedAt) == 2,
			!recs.AnonymisedAt[f.shipped.ID].IsZero(), !recs.AnonymisedAt[f.fromSession.ID].IsZero()}, []bool{true, true, true})
		same(t, "request "+typed+" found notifications", len(recs.Notifications) > 0, true)
	}
}

// testAnonymiseOnRequest: the paid order placed after the sweep goes; the others stay, each with
// its reason.
func (f *subjectOrders) testAnonymiseOnRequest(t *testing.T) {
	ctx := context.Background()
	if f.after == nil {
		t.Skip("the request's order was not placed")
	}
	subj, _ := checkout.ParseSubject("52998224725")
	res, err := f.svc.AnonymiseSubject(ctx, subj)
	must(t, err)
	if len(res.Anonymised) != 1 || res.Anonymised[0].ID != f.after.ID || res.Anonymised[0].Customer.Name != "" {
		t.Errorf("anonymised now: %+v, want %s", res.Anonymised, f.after.Number)
	}
	same(t, "orders already anonymised", len(res.Already), 2)
	reasons := map[string]string{}
	for _, r := range res.Refused {
		reasons[r.Order.ID] = r.Reason
	}
	same(t, "reasons refused", reasons, map[string]string{f.awaiting.ID: checkout.BlockedAwaitingPayment,
		f.review.ID: checkout.BlockedUnderReview, f.refund.ID: checkout.BlockedRefundDue})
	o, err := f.s.Order(ctx, f.awaiting.ID)
	must(t, err)
	same(t, "the order awaiting payment's customer after the request", o.Customer, f.awaiting.Customer)
}

func brDigits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
