package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// orderStream is an open event stream of an order page.
type orderStream struct {
	t      *testing.T
	events chan sseEvent
}

// openOrderStream opens the event stream of the order page view of the order at pay.
func (e *env) openOrderStream(pay, view string) *orderStream {
	e.t.Helper()
	res := e.do(http.MethodGet, pay+"/events?view="+view+"&lang=en", nil)
	e.t.Cleanup(func() { res.Body.Close() })
	s := &orderStream{t: e.t.(*testing.T), events: make(chan sseEvent, 16)}
	go readEvents(res.Body, s.events)
	return s
}

// next is the stream's next status message.
func (s *orderStream) next() map[string]string {
	s.t.Helper()
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				s.t.Fatal("the order page's stream ended")
			}
			if ev.name != "status" {
				continue
			}
			var m map[string]string
			if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
				s.t.Fatal(err)
			}
			if m["redirect"] != "" {
				s.t.Fatalf("the order page was sent away: %v", m)
			}
			return m
		case <-time.After(20 * time.Second):
			s.t.Fatal("no event")
		}
	}
}

// TestOrderPageFollowsShipment: the receipt of a physical order follows it, live, to shipped
// (carrier, tracking code, the Correios' tracking page) and delivered; it promises no e-mail
// that no one sends.
func TestOrderPageFollowsShipment(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	cart := e.newCart("caneca-de-ceramica", "1")
	_, doc := e.get(cart + "/checkout")
	res, _ := e.post(cart+"/checkout", customer(requestKey(t, doc)))
	pay := e.location(res)
	id := orderID(pay)
	e.location(mustPost(e, pay+"/sandbox-pay"))
	e.waitStatus(id, checkout.StatusPaid)

	_, doc = e.get(pay + "/paid")
	checkStage(t, doc, "paid", "Pagamento confirmado")
	if next := doc.Find(testid("next-steps")).Text(); !strings.Contains(next, "Avenida Paulista") || strings.Contains(next, "e-mail") {
		t.Errorf("next steps %q", next)
	}
	if u := doc.Find("[data-order-live]").AttrOr("data-events-url", ""); u != pay+"/events?view=paid" {
		t.Errorf("events URL %q", u)
	}
	stream := e.openOrderStream(pay, "paid")
	if m := stream.next(); m["stage"] != "paid" {
		t.Fatalf("first message %v", m)
	}
	if _, _, err := e.svc.MarkShipped(ctx, id, checkout.ShipInput{Carrier: "Correios", TrackingCode: "AA123456789BR"}); err != nil {
		t.Fatal(err)
	}
	if m := stream.next(); m["stage"] != "shipped" || m["text"] != "Shipped" || m["status"] != "paid" {
		t.Fatalf("after shipping %v", m)
	}
	_, doc = e.get(pay + "/paid?lang=en")
	checkStage(t, doc, "shipped", "Shipped")
	if code := doc.Find(testid("tracking-code")).Text(); code != "AA123456789BR" {
		t.Errorf("tracking code %q", code)
	}
	if href := doc.Find(testid("tracking-link")).AttrOr("href", ""); href != "https://rastreamento.correios.com.br/app/index.php?objetos=AA123456789BR" {
		t.Errorf("tracking link %q", href)
	}
	if m := e.status(pay, "?view=paid"); m["stage"] != "shipped" || m["redirect"] != "" {
		t.Errorf("status %v", m)
	}
	if _, _, err := e.svc.MarkDelivered(ctx, id); err != nil {
		t.Fatal(err)
	}
	if m := stream.next(); m["stage"] != "delivered" {
		t.Fatalf("after delivery %v", m)
	}
	_, doc = e.get(pay + "/paid")
	checkStage(t, doc, "delivered", "Entregue")
	// The PIX page's own status still sends a paid order to its receipt.
	if m := e.status(pay); m["redirect"] != pay+"/paid" {
		t.Errorf("the PIX page's status of a paid order %v", m)
	}
}

// TestOrderPageAfterCancellation: a payment that lands after the shop canceled the order turns
// its open page, live, from "do not pay" into what happens next (the shop returns it), then
// says when it was returned.
func TestOrderPageAfterCancellation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	pay := e.placeOrder()
	id := orderID(pay)
	if _, _, err := e.svc.CancelOrder(ctx, id); err != nil {
		t.Fatal(err)
	}
	_, doc := e.get(pay)
	checkStage(t, doc, "canceled", "Pedido cancelado")
	if !strings.Contains(doc.Find(testid("canceled-text")).Text(), "Não pague") {
		t.Error("a canceled order's page does not say not to pay")
	}
	stream := e.openOrderStream(pay, "canceled")
	first := stream.next()
	// The shopper's bank pays the old code anyway.
	e.control(id, sandbox.ActionPay)
	if _, err := e.svc.RefreshFromGateway(ctx, id); err != nil {
		t.Fatal(err)
	}
	if m := stream.next(); m["stageKey"] == first["stageKey"] || m["stage"] != "canceled" {
		t.Fatalf("after the late payment %v (before %v)", m, first)
	}
	_, doc = e.get(pay)
	if doc.Find(testid("canceled-text")).Length() != 0 {
		t.Error("the page still says not to pay an order that was paid")
	}
	if due := doc.Find(testid("refund-due")).Text(); !strings.Contains(due, "depois que o pedido foi cancelado") || !strings.Contains(due, "R$ 29,90") {
		t.Errorf("refund due %q", due)
	}
	on := e.sb.Now().In(saoPaulo(t))
	if _, _, err := e.svc.RecordRefund(ctx, id, checkout.RefundInput{On: on, Amount: 2990, EndToEnd: "E12345678" + on.Format("200601021504") + "abcdefghijk"}); err != nil {
		t.Fatal(err)
	}
	stream.next()
	_, doc = e.get(pay + "?lang=en")
	if doc.Find(testid("refund-due")).Length() != 0 || !strings.Contains(doc.Find(testid("refund-recorded")).Text(), "The shop returned R$29.90 on") {
		t.Errorf("after the refund: %q", doc.Find(testid("order-progress")).Text())
	}
}

// TestOrderPageRefunded: a refund by the gateway turns the receipt, live, to "refund in
// progress" then "refunded" with the amount; the heading no longer says the payment is
// confirmed.
func TestOrderPageRefunded(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	pay := e.placeOrder()
	id := orderID(pay)
	e.location(mustPost(e, pay+"/sandbox-pay"))
	e.waitStatus(id, checkout.StatusPaid)
	stream := e.openOrderStream(pay, "paid")
	stream.next()
	e.control(id, sandbox.ActionRefund)
	if _, err := e.svc.RefreshFromGateway(ctx, id); err != nil {
		t.Fatal(err)
	}
	o, err := e.svc.Order(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if m := stream.next(); m["stage"] != string(o.Status) {
		t.Fatalf("after the refund %v (order %s)", m, o.Status)
	}
	_, doc := e.get(pay + "/paid")
	checkStage(t, doc, string(o.Status), map[checkout.OrderStatus]string{checkout.StatusRefunding: "Reembolso em andamento",
		checkout.StatusRefunded: "Pagamento reembolsado"}[o.Status])
	if h := doc.Find("h1").Text(); strings.Contains(h, "confirmado") {
		t.Errorf("a refunded order's heading %q", h)
	}
	if !strings.Contains(doc.Find(testid("order-progress")).Text(), "R$ 29,90") {
		t.Errorf("no amount in %q", doc.Find(testid("order-progress")).Text())
	}
}

// checkStage checks the order page's live status.
func checkStage(t *testing.T, doc *goquery.Document, stage, text string) {
	t.Helper()
	st := doc.Find(testid("order-status"))
	if st.AttrOr("data-status", "") != stage || strings.TrimSpace(st.Text()) != text || st.AttrOr("aria-live", "") != "polite" {
		t.Errorf("order-status %q %q, want %q %q", st.AttrOr("data-status", ""), st.Text(), stage, text)
	}
}

// mustPost posts an empty form.
func mustPost(e *env, path string) *http.Response {
	res, _ := e.post(path, url.Values{})
	return res
}

func saoPaulo(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// TestPaidPagePromisesTrackingByEmail: the paid page of a physical order promises the tracking
// code by e-mail when the shipped e-mail will go, and not when it is turned off.
func TestPaidPagePromisesTrackingByEmail(t *testing.T) {
	for _, on := range []bool{true, false} {
		e := newEnv(t, func(o *envOptions) {
			o.mailsShopper = func(_ context.Context, kind string) bool { return on && kind == settings.ShopperShipped }
		})
		cart := e.newCart("caneca-de-ceramica", "1")
		_, doc := e.get(cart + "/checkout")
		res, _ := e.post(cart+"/checkout", customer(requestKey(t, doc)))
		pay := e.location(res)
		e.location(mustPost(e, pay+"/sandbox-pay"))
		e.waitStatus(orderID(pay), checkout.StatusPaid)
		_, doc = e.get(pay + "/paid")
		next := doc.Find(testid("next-steps")).Text()
		if promised := strings.Contains(next, "chega no e-mail"); promised != on {
			t.Errorf("shipped e-mail on %v: next steps %q", on, next)
		}
	}
}
