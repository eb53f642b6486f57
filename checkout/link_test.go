package checkout_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

func (e *env) link(in checkout.LinkInput) *checkout.PaymentLink {
	e.t.Helper()
	l, created, err := e.svc.CreateLink(e.ctx, in)
	if err != nil || !created {
		e.t.Fatalf("CreateLink: %v, created %v", err, created)
	}
	return l
}

func (e *env) placeLink(slug string, amount gatewayclient.Cents) (*checkout.Order, error) {
	return e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelLink, Source: slug, RequestKey: checkout.NewID(),
		Amount: amount, Customer: customer(), Lang: "pt-BR"})
}

// TestLinkCapUnderLoad: a link of 3 payments and 50 shoppers at the same moment: exactly 3 get
// a PIX code (3 gateway transactions), every other one is told the link has no payment left.
// Once the 3 are paid, the link counts 3 payments and still refuses a new shopper.
func TestLinkCapUnderLoad(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l := e.link(checkout.LinkInput{Title: "Aula de violão", Amount: 5000, Description: "Uma aula", MaxPayments: 3})
	const shoppers = 50
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		placed  []*checkout.Order
		refused int
	)
	start := make(chan struct{})
	for range shoppers {
		wg.Go(func() {
			<-start
			o, err := e.placeLink(l.Slug, 0)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, checkout.ErrLinkFull):
				refused++
			case err != nil:
				t.Errorf("PlaceOrder: %v", err)
			default:
				placed = append(placed, o)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(placed) != 3 || refused != shoppers-3 {
		t.Fatalf("placed %d, refused %d; want 3 and %d", len(placed), refused, shoppers-3)
	}
	if n := e.deposits(); n != 3 {
		t.Errorf("gateway transactions = %d, want 3", n)
	}
	for _, o := range placed {
		if o.Status != checkout.StatusAwaitingPayment || o.LinkID != l.ID {
			t.Errorf("order %s: %s, link %q; want awaiting_payment, %q", o.Number, o.Status, o.LinkID, l.ID)
		}
		e.control(o.CurrentAttempt().TransactionID, sandbox.ActionPay)
		if got, err := e.svc.RefreshFromGateway(e.ctx, o.ID); err != nil || got.Status != checkout.StatusPaid {
			t.Fatalf("paying %s: %v, %v", o.Number, got, err)
		}
	}
	st, err := e.svc.LinkStats(e.ctx, l.ID)
	if err != nil || st[l.ID].Payments != 3 || st[l.ID].Received != 15000 {
		t.Errorf("LinkStats = %+v, %v; want 3 payments, 15000", st, err)
	}
	tagged, err := e.svc.Orders(e.ctx, checkout.OrderFilter{LinkID: l.ID})
	if err != nil || len(tagged) != 3 {
		t.Errorf("orders of the link = %d, %v; want 3", len(tagged), err)
	}
	if _, err := e.placeLink(l.Slug, 0); !errors.Is(err, checkout.ErrLinkFull) {
		t.Errorf("a shopper after 3 payments: %v, want ErrLinkFull", err)
	}
}

// TestLinkPlaceReleasedOnExpiry: a 1-payment link's place is held by a QR code until it
// expires (the same form sent again finds its order); then another shopper gets it. The first code, paid late after the second shopper
// paid, pays its order as a late payment with its amount due back, noted in its history; the
// link keeps one payment that counts.
func TestLinkPlaceReleasedOnExpiry(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l := e.link(checkout.LinkInput{Title: "Ingresso", Amount: 2000, Description: "Show", MaxPayments: 1})
	firstKey := checkout.NewID()
	first, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelLink, Source: l.Slug, RequestKey: firstKey,
		Customer: customer(), Lang: "pt-BR"})
	if err != nil {
		t.Fatalf("first shopper: %v", err)
	}
	if _, err := e.placeLink(l.Slug, 0); !errors.Is(err, checkout.ErrLinkFull) {
		t.Fatalf("second shopper while the first QR code may be paid: %v, want ErrLinkFull", err)
	}
	// The first shopper's form sent again (a double click) is their order, not a refusal.
	again, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelLink, Source: l.Slug, RequestKey: firstKey,
		Customer: customer(), Lang: "pt-BR"})
	if err != nil || again.ID != first.ID {
		t.Fatalf("the same form again: %v, %v; want order %s", again, err, first.ID)
	}
	// A new QR code of the held order is not refused: its own place is renewed.
	e.advance(31 * time.Minute)
	second, err := e.placeLink(l.Slug, 0)
	if err != nil {
		t.Fatalf("second shopper after the first QR code expired: %v", err)
	}
	if _, err := e.svc.RegenerateQR(e.ctx, first.ID); !errors.Is(err, checkout.ErrLinkFull) {
		t.Errorf("a new QR code for the first order while the second holds the place: %v, want ErrLinkFull", err)
	}
	e.control(second.CurrentAttempt().TransactionID, sandbox.ActionPay)
	if got, err := e.svc.RefreshFromGateway(e.ctx, second.ID); err != nil || got.Status != checkout.StatusPaid || got.RefundDue != 0 {
		t.Fatalf("second payment: %+v, %v", got, err)
	}
	e.control(first.CurrentAttempt().TransactionID, sandbox.ActionPay)
	for range 2 { // read again: nothing more
		if _, err := e.svc.RefreshFromGateway(e.ctx, first.ID); err != nil {
			t.Fatalf("late payment: %v", err)
		}
	}
	got := e.order(first.ID)
	if got.Status != checkout.StatusPaid || !got.LatePayment || got.RefundDue != 2000 {
		t.Errorf("late payment beyond the cap: %s, late %v, refund due %d; want paid, late, 2000", got.Status,
			got.LatePayment, got.RefundDue)
	}
	notes := 0
	for _, h := range got.History {
		if h.Reason.Code == checkout.ReasonLinkBeyondCap && h.Reason.Paid == 2000 {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("history notes of the refund = %d, want 1: %+v", notes, got.History)
	}
	if s := e.order(second.ID); s.RefundDue != 0 || s.LatePayment {
		t.Errorf("the payment on time: refund %d, late %v; want neither", s.RefundDue, s.LatePayment)
	}
}

// TestLinkTypedAmount: a link whose amount the payer types takes it within its bounds, and
// the formats payers type.
func TestLinkTypedAmount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	l := e.link(checkout.LinkInput{Title: "Doação", CustomAmount: &checkout.CustomAmount{Min: 500, Max: 200000}})
	for _, c := range []gatewayclient.Cents{499, 200001, 0} {
		_, err := e.placeLink(l.Slug, c)
		var fe *checkout.ValidationError
		if !errors.As(err, &fe) || !fe.Has(checkout.FieldLinkAmount) {
			t.Errorf("amount %d: %v, want a violation of %q", c, err, checkout.FieldLinkAmount)
		}
	}
	for in, want := range map[string]gatewayclient.Cents{"R$ 1.234,56": 123456, "1234,56": 123456, "1234.56": 123456, "15": 1500} {
		got, err := checkout.ParseReais(in)
		if err != nil || got != want {
			t.Errorf("ParseReais(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	o, err := e.placeLink(l.Slug, 123456)
	if err != nil || o.Amount != 123456 || o.Lines[0].Title != "Doação" {
		t.Fatalf("typed amount: %+v, %v", o, err)
	}
}

// TestLinkRules: impossible links are refused naming the field; a chosen slug is kept and
// unique; an inactive or expired link takes no order.
func TestLinkRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	past := e.svc.Now().Add(-time.Hour)
	for name, c := range map[string]struct {
		in    checkout.LinkInput
		field string
	}{
		"min above max":  {checkout.LinkInput{Title: "xy", CustomAmount: &checkout.CustomAmount{Min: 900, Max: 100}}, "customAmount.min"},
		"over gateway":   {checkout.LinkInput{Title: "xy", Amount: gatewayclient.MaxAmount + 1}, "amount"},
		"expired":        {checkout.LinkInput{Title: "xy", Amount: 100, ExpiresAt: &past}, "expiresAt"},
		"no amount":      {checkout.LinkInput{Title: "x"}, "amount"},
		"two kinds":      {checkout.LinkInput{Title: "xy", Amount: 100, CustomAmount: &checkout.CustomAmount{}}, "amount"},
		"no title":       {checkout.LinkInput{Amount: 100}, "title"},
		"bad slug":       {checkout.LinkInput{Title: "xy", Amount: 100, Slug: "a b"}, "slug"},
		"unknown item":   {checkout.LinkInput{Title: "xy", Items: []checkout.CheckoutSessionItem{{ProductID: "nope", Quantity: 1}}}, "items[0].productId"},
		"negative limit": {checkout.LinkInput{Title: "xy", Amount: 100, MaxPayments: -1}, "maxPayments"},
	} {
		_, _, err := e.svc.CreateLink(e.ctx, c.in)
		var fe *checkout.ValidationError
		if !errors.As(err, &fe) || !fe.Has(c.field) {
			t.Errorf("%s: %v, want a violation of %s", name, err, c.field)
		}
	}
	l := e.link(checkout.LinkInput{Title: "Caneca", Slug: "caneca", Items: []checkout.CheckoutSessionItem{{ProductID: caneca, Quantity: 2}}})
	if l.Slug != "caneca" || l.Amount != 11800 || !l.Physical() {
		t.Errorf("items link: slug %q, amount %d, physical %v", l.Slug, l.Amount, l.Physical())
	}
	if _, _, err := e.svc.CreateLink(e.ctx, checkout.LinkInput{Title: "yy", Amount: 100, Slug: "caneca"}); err == nil ||
		!strings.Contains(err.Error(), "slug") {
		t.Errorf("a taken slug: %v", err)
	}
	placed, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelLink, Source: "caneca", RequestKey: checkout.NewID(),
		Customer: customer(), Address: address(), Lang: "pt-BR"})
	if err != nil || placed.Amount != 11800 || placed.Address == nil {
		t.Fatalf("items link order: %+v, %v", placed, err)
	}
	off := false
	if _, err := e.svc.UpdateLink(e.ctx, l.ID, func(in *checkout.LinkInput) { in.Active = &off }); err != nil {
		t.Fatalf("deactivating: %v", err)
	}
	if _, err := e.placeLink("caneca", 0); !errors.Is(err, checkout.ErrLinkClosed) {
		t.Errorf("inactive link: %v, want ErrLinkClosed", err)
	}
	// The order placed before still completes.
	e.control(placed.CurrentAttempt().TransactionID, sandbox.ActionPay)
	if got, err := e.svc.RefreshFromGateway(e.ctx, placed.ID); err != nil || got.Status != checkout.StatusPaid {
		t.Errorf("an order of a deactivated link: %v, %v; want paid", got, err)
	}
	soon := e.svc.Now().Add(time.Hour)
	x := e.link(checkout.LinkInput{Title: "zz", Amount: 100, ExpiresAt: &soon})
	e.advance(2 * time.Hour)
	if _, err := e.placeLink(x.Slug, 0); !errors.Is(err, checkout.ErrLinkClosed) {
		t.Errorf("expired link: %v, want ErrLinkClosed", err)
	}
	// An expired link may still be renamed or deactivated: its past expiry is not refused.
	if _, err := e.svc.UpdateLink(e.ctx, x.ID, func(in *checkout.LinkInput) { in.Title = "zzz"; in.Active = &off }); err != nil {
		t.Errorf("changing an expired link: %v", err)
	}
	// The form may leave the e-mail and the phone out: then neither is required.
	bare := e.link(checkout.LinkInput{Title: "Rifa", Amount: 500, CustomerFields: []string{}})
	if bare.AskEmail || bare.AskPhone || len(bare.NotAsked()) != 2 {
		t.Errorf("a link asking neither: %+v", bare)
	}
	nameOnly := checkout.Customer{Name: "Maria da Silva", Document: validCPF}
	if o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelLink, Source: bare.Slug, RequestKey: checkout.NewID(),
		Customer: nameOnly}); err != nil || o.Status != checkout.StatusAwaitingPayment {
		t.Errorf("an order without e-mail and phone: %v, %v", o, err)
	}
	phoneOnly := e.link(checkout.LinkInput{Title: "Rifa 2", Amount: 500, CustomerFields: []string{"phone"}})
	_, err = e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelLink, Source: phoneOnly.Slug, RequestKey: checkout.NewID(),
		Customer: nameOnly})
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || checkout.FormViolations(fe)[checkout.FieldPhone] == nil || checkout.FormViolations(fe)[checkout.FieldEmail] != nil {
		t.Errorf("a link asking the phone only: %v; want the phone, not the e-mail, required", err)
	}
	if _, _, err := e.svc.CreateLink(e.ctx, checkout.LinkInput{Title: "xy", Amount: 100, CustomerFields: []string{"cpf"}}); !errors.As(err, &fe) ||
		!fe.Has("customerFields[0]") {
		t.Errorf("an unknown customer field: %v", err)
	}
	// Idempotency: the same key and request give the same link; another request is refused.
	in := checkout.LinkInput{IdempotencyKey: "k1", Title: "Idem", Amount: 300}
	a, created, err := e.svc.CreateLink(e.ctx, in)
	b, again, err2 := e.svc.CreateLink(e.ctx, in)
	if err != nil || err2 != nil || !created || again || a.ID != b.ID {
		t.Errorf("replay: %v %v %v %v", err, err2, created, again)
	}
	in.Amount = 400
	if _, _, err := e.svc.CreateLink(e.ctx, in); checkout.ErrorCode(err) != checkout.CodeIdempotencyReused {
		t.Errorf("same key, another request: %v", err)
	}
}
