package storetest

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// PersonalDataStores is a store that keeps personal data: orders, checkout sessions, the
// delivery log of their notifications, and their anonymisation.
type PersonalDataStores interface {
	MerchantStores
	checkout.PersonalDataStore
}

// RunPersonalData runs the suite of personal data's retention and data subjects' requests.
// open must return a new, empty store for each call and arrange its closing with t.Cleanup.
func RunPersonalData(t *testing.T, open func(t *testing.T) PersonalDataStores) {
	t.Run("Key", func(t *testing.T) { testPersonalDataKey(t, open(t)) })
	t.Run("RetentionAndRequests", func(t *testing.T) { testPersonalData(t, open(t)) })
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

// testPersonalData places orders through the Service and the sandbox: paid ones (one from a
// checkout session, one shipped), one awaiting payment, one under review, one with a refund due,
// and somebody else's. Past the retention, the sweep anonymises the paid ones: no name,
// e-mail, phone, address or document left in the order, its attempts' transaction requests,
// its notifications' bodies, its session or the search index, while the amount, lines,
// status, gateway ids and end-to-end ids stay; the others keep everything. A request by CPF,
// and one by e-mail, then find the orders anonymised and those not, and one placed after; and
// anonymising on request anonymises what may be and says why the rest stays.
func testPersonalData(t *testing.T, s PersonalDataStores) {
	ctx := context.Background()
	const id, secret = "pd-test", "pd-test-secret"
	sb, err := sandbox.New(ctx, sandbox.Options{DataDir: filepath.Join(t.TempDir(), "sandbox"),
		Clients: []sandbox.ClientConfig{{ID: id, Secret: secret}}, RateLimit: sandbox.RateLimit{Requests: 100000, Burst: 100000}})
	if err != nil {
		t.Fatalf("sandbox.New: %v", err)
	}
	t.Cleanup(func() { sb.Close() })
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	client, err := gatewayclient.New(srv.URL, id, secret)
	if err != nil {
		t.Fatal(err)
	}
	key, err := checkout.LoadPersonalDataKey(ctx, s, sb.Now())
	if err != nil {
		t.Fatal(err)
	}
	svc := checkout.NewService(s, client, checkout.ServiceOptions{MerchantName: "Loja", Clock: sb.Now,
		Logger: slog.New(slog.DiscardHandler), Announcer: &merchant.Announcer{Sessions: s, Clock: sb.Now},
		PersonalDataKey: key})
	t.Cleanup(svc.Close)
	if err := checkout.SeedDemoCatalogue(ctx, s); err != nil {
		t.Fatal(err)
	}
	place := func(c checkout.Customer, physical bool) *checkout.Order {
		t.Helper()
		cart, err := svc.NewCart(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var addr *checkout.Address
		p := checkout.ProductID("ebook-receitas-do-cerrado")
		if physical {
			p = "caneca-de-ceramica"
			addr = &checkout.Address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1000", Neighborhood: "Bela Vista",
				City: "São Paulo", State: "SP"}
		}
		if _, err := svc.AddToCart(ctx, cart.ID, p, 1); err != nil {
			t.Fatal(err)
		}
		o, err := svc.PlaceOrder(ctx, checkout.PlaceOrderInput{Source: cart.ID, RequestKey: checkout.NewID(), Customer: c,
			Address: addr, Lang: "pt-BR", ShopperIP: "203.0.113.9"})
		if err != nil || o.Status != checkout.StatusAwaitingPayment {
			t.Fatalf("PlaceOrder: %v, %v", o, err)
		}
		return o
	}
	control := func(o *checkout.Order, action sandbox.DepositAction, want checkout.OrderStatus) *checkout.Order {
		t.Helper()
		if _, err := sb.ControlDeposit(ctx, id, o.CurrentAttempt().TransactionID, action, sandbox.DepositControl{}); err != nil {
			t.Fatalf("sandbox %s: %v", action, err)
		}
		got, err := svc.RefreshFromGateway(ctx, o.ID)
		if err != nil || got.Status != want {
			t.Fatalf("after %s: %v, %v; want %s", action, got, err, want)
		}
		return got
	}
	shipped := control(place(shopper, true), sandbox.ActionPay, checkout.StatusPaid)
	sess, _, err := svc.CreateCheckoutSession(ctx, checkout.CreateCheckoutSessionInput{
		Items:    []checkout.CheckoutSessionItem{{Title: "Consultoria", UnitPrice: 15000, Quantity: 1, Type: checkout.ItemDigital}},
		Customer: &checkout.Customer{Name: shopper.Name, Document: shopper.Document, Email: shopper.Email}})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	fromSession, err := svc.PlaceOrder(ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelSession, Source: sess.ID, Customer: shopper, Lang: "pt-BR"})
	if err != nil {
		t.Fatalf("PlaceOrder: %v", err)
	}
	fromSession = control(fromSession, sandbox.ActionPay, checkout.StatusPaid)
	awaiting := place(shopper, false)
	review := control(place(shopper, false), sandbox.ActionCompliance, checkout.StatusUnderReview)
	someoneElse := control(place(other, false), sandbox.ActionPay, checkout.StatusPaid)
	// A refund due: an order paid twice (stored as the store keeps it).
	refund := NewOrder("pd-refund-" + checkout.NewID())
	refund.Customer = checkout.Customer{Name: shopper.Name, Document: "52998224725", Email: shopper.Email, Phone: "11987654321"}
	refund.Status, refund.RefundDue, refund.PaidAt = checkout.StatusPaid, 1000, base
	refund.CreatedAt, refund.UpdatedAt = sb.Now().Add(-time.Hour), sb.Now().Add(-time.Hour)
	if _, _, err := s.CreateOrder(ctx, refund); err != nil {
		t.Fatal(err)
	}
	anonymised := []*checkout.Order{shipped, fromSession, someoneElse}
	kept := []*checkout.Order{awaiting, review, refund}
	for _, o := range anonymised {
		if ns, err := s.OrderNotifications(ctx, []string{o.ID}); err != nil || len(ns) == 0 || holdsPersonal(ns[0].Body) == "" && o != someoneElse {
			t.Fatalf("the paid order %s has no notification holding its shopper's data before: %d, %v", o.Number, len(ns), err)
		}
	}

	// Within the retention nothing changes; past it, the paid orders are anonymised.
	sweep := func(after time.Duration) checkout.Pruned {
		t.Helper()
		r := checkout.NewRetention(s, s, checkout.RetentionOptions{Batch: 2, Pause: time.Millisecond, Anonymiser: svc,
			Clock: func() time.Time { return sb.Now().Add(after) }})
		n, err := r.RunOnce(ctx)
		if err != nil {
			t.Fatalf("retention: %v", err)
		}
		return n
	}
	if n := sweep(checkout.DefaultPersonalDataRetention - time.Hour); n.PersonalData != 0 {
		t.Fatalf("%d orders anonymised within their retention", n.PersonalData)
	}
	// The shopper's page of one of them has it in memory.
	if snap, err := svc.Snapshot(ctx, shipped.ID); err != nil || snap.Customer.Name != shopper.Name {
		t.Fatalf("Snapshot before: %+v, %v", snap, err)
	}
	if n := sweep(checkout.DefaultPersonalDataRetention + time.Hour); n.PersonalData != len(anonymised) {
		t.Fatalf("%d orders anonymised past their retention, want the %d paid ones", n.PersonalData, len(anonymised))
	}
	if n := sweep(checkout.DefaultPersonalDataRetention + time.Hour); n.PersonalData != 0 {
		t.Errorf("a second sweep anonymised %d orders again", n.PersonalData)
	}
	for _, was := range anonymised {
		o, err := s.Order(ctx, was.ID)
		if err != nil {
			t.Fatal(err)
		}
		c := o.Customer
		if c.Name != "" || c.Email != "" || c.Phone != "" || o.Address != nil || o.ShopperIP != "" {
			t.Errorf("order %s keeps personal data: %+v, address %+v, ip %q", o.Number, c, o.Address, o.ShopperIP)
		}
		if want := "***." + brDigits(was.Customer.Document)[3:6] + "." + brDigits(was.Customer.Document)[6:9] + "-**"; c.Document != want {
			t.Errorf("order %s document = %q, want %q", o.Number, c.Document, want)
		}
		if o.Amount != was.Amount || o.Status != checkout.StatusPaid || !slices.Equal(o.Lines, was.Lines) ||
			!o.CreatedAt.Equal(was.CreatedAt) || !o.PaidAt.Equal(was.PaidAt) {
			t.Errorf("order %s lost what stays: %+v, want amount %d, lines %+v", o.Number, o, was.Amount, was.Lines)
		}
		a, wa := o.PaidAttempt(), was.PaidAttempt()
		if a == nil || wa == nil || a.EndToEnd == "" || a.EndToEnd != wa.EndToEnd || a.TransactionID != wa.TransactionID {
			t.Errorf("order %s lost its payment's ids: %+v, was %+v", o.Number, a, wa)
		}
		for _, at := range o.Attempts {
			if p := holdsPersonal(at.Request); p != "" {
				t.Errorf("order %s attempt %d's transaction request holds %q: %s", o.Number, at.N, p, at.Request)
			}
			if len(at.Request) > 0 && !bytes.Contains(at.Request, []byte(`"amount":`)) {
				t.Errorf("order %s attempt %d's transaction request lost its amount: %s", o.Number, at.N, at.Request)
			}
		}
		ns, err := s.OrderNotifications(ctx, []string{o.ID})
		if err != nil || len(ns) == 0 {
			t.Fatalf("order %s's notifications: %d, %v", o.Number, len(ns), err)
		}
		for _, n := range ns {
			if p := holdsPersonal(n.Body); p != "" || !bytes.Contains(n.Body, []byte(o.ID)) {
				t.Errorf("order %s's notification %s holds %q (or lost the order): %s", o.Number, n.Type, p, n.Body)
			}
		}
	}
	if snap, err := svc.Snapshot(ctx, shipped.ID); err != nil || snap.Customer.Name != "" || snap.Address != nil {
		t.Errorf("the page's snapshot still holds the shopper's data: %+v, %v", snap, err)
	}
	if got, err := s.CheckoutSession(ctx, sess.ID); err != nil || got.Customer.Name != "" || got.Customer.Email != "" ||
		got.Customer.Document != "***.982.247-**" {
		t.Errorf("the anonymised order's session keeps its prefill: %+v, %v", got, err)
	}
	for _, was := range kept {
		o, err := s.Order(ctx, was.ID)
		if err != nil || o.Customer != was.Customer {
			t.Errorf("order %s (%s, refund due %d) was anonymised: %+v, %v", o.Number, o.Status, o.RefundDue, o.Customer, err)
		}
	}
	// The search index no longer finds the anonymised orders by their shopper's data.
	for _, term := range []string{"Retida", "joana.retida@example.com.br", "52998224725", "Outro Comprador"} {
		found, _, err := s.OrderSummaries(ctx, checkout.OrderFilter{Search: term})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			for _, o := range anonymised {
				if f.ID == o.ID {
					t.Errorf("searching %q still finds the anonymised order %s", term, o.Number)
				}
			}
		}
	}

	// A request by CPF finds the orders anonymised (through the keyed hash) and those not, and one
	// placed after; so does a request by e-mail.
	after := place(shopper, false)
	after = control(after, sandbox.ActionPay, checkout.StatusPaid)
	mine := []string{shipped.ID, fromSession.ID, awaiting.ID, review.ID, refund.ID, after.ID}
	for _, typed := range []string{"529.982.247-25", "JOANA.RETIDA@example.com.br"} {
		subj, err := checkout.ParseSubject(typed)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := svc.SubjectRecords(ctx, subj)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range recs.Orders {
			got = append(got, o.ID)
		}
		if !sameSet(got, mine) {
			t.Errorf("request %q found orders %v, want %v", typed, got, mine)
		}
		if len(recs.AnonymisedAt) != 2 || recs.AnonymisedAt[shipped.ID].IsZero() || recs.AnonymisedAt[fromSession.ID].IsZero() {
			t.Errorf("request %q: anonymised %v, want the two paid before", typed, recs.AnonymisedAt)
		}
		if len(recs.Sessions) != 1 || recs.Sessions[0].ID != sess.ID {
			t.Errorf("request %q found sessions %v, want %s", typed, recs.Sessions, sess.ID)
		}
		if len(recs.Notifications) == 0 {
			t.Errorf("request %q found no notifications", typed)
		}
	}

	// Anonymising on request: the new paid order goes; the others stay, each with its reason.
	subj, _ := checkout.ParseSubject("52998224725")
	res, err := svc.AnonymiseSubject(ctx, subj)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Anonymised) != 1 || res.Anonymised[0].ID != after.ID || res.Anonymised[0].Customer.Name != "" {
		t.Errorf("anonymised now: %+v, want %s", res.Anonymised, after.Number)
	}
	if len(res.Already) != 2 {
		t.Errorf("already anonymised: %d, want 2", len(res.Already))
	}
	reasons := map[string]string{}
	for _, r := range res.Refused {
		reasons[r.Order.ID] = r.Reason
	}
	want := map[string]string{awaiting.ID: checkout.BlockedAwaitingPayment, review.ID: checkout.BlockedUnderReview,
		refund.ID: checkout.BlockedRefundDue}
	if len(reasons) != len(want) {
		t.Errorf("refused %v, want %v", reasons, want)
	}
	for id, r := range want {
		if reasons[id] != r {
			t.Errorf("order %s refused for %q, want %q", id, reasons[id], r)
		}
	}
	if o, err := s.Order(ctx, awaiting.ID); err != nil || o.Customer.Name != shopper.Name {
		t.Errorf("the order awaiting payment lost its data on request: %+v, %v", o, err)
	}
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
