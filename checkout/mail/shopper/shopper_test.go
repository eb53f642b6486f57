package shopper_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/mail/shopper"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

const public = "https://loja.example.com.br"

// paidAt is 21:30 in Brasília on Nov 28th: 00:30 UTC the day after.
var paidAt = time.Date(2026, 11, 29, 0, 30, 0, 0, time.UTC)

func announcer(sends map[string]bool) *shopper.Announcer {
	a := &shopper.Announcer{Composer: &mail.Composer{PublicURL: public},
		Store: email.Frame{StoreName: "Loja Demo", PublicURL: public, SupportEmail: "ajuda@loja.example.com.br"},
		Payee: views.Merchant{LegalName: "Loja Demo Ltda", Document: "11222333000181", Address: "Rua das Flores, 10\n\nGoiânia - GO"}}
	if sends != nil {
		a.Sends = func(_ context.Context, kind string) (bool, error) { return sends[kind], nil }
	}
	return a
}

// paidOrder is a physical order with shipping, in lang, paid at paidAt: its history ends with
// the payment, the changes of the update that paid it.
func paidOrder(lang string) (*checkout.Order, []checkout.StatusChange) {
	o := &checkout.Order{ID: "ord7k3m9qz2abcdefghijklmnop", Number: "PX-7K3M9QZ2", Status: checkout.StatusPaid, Lang: lang,
		Lines:    []checkout.OrderLine{{Title: "Camiseta Cerrado", UnitPrice: 5990, Quantity: 2, Physical: true}},
		Shipping: 1500, Amount: 13480, Physical: true, PaidAt: paidAt,
		Customer: checkout.Customer{Name: "Ana Lima", Email: "Ana@Example.com"},
		Attempts: []checkout.Attempt{{N: 1, State: checkout.AttemptPaid, EndToEnd: "E6070119020261129003012345678901"}},
		History: []checkout.StatusChange{
			{From: "", To: checkout.StatusPending, Reason: checkout.Reason{Code: checkout.ReasonOrderPlaced}},
			{From: checkout.StatusPending, To: checkout.StatusAwaitingPayment, Reason: checkout.Reason{Code: checkout.ReasonQRGenerated}},
			{From: checkout.StatusAwaitingPayment, To: checkout.StatusPaid, At: paidAt, Reason: checkout.Reason{Code: checkout.ReasonDeposit}},
		}}
	return o, o.History[2:]
}

// TestReceiptDraft: the receipt of a paid order, in its language, says its number, items,
// shipping and total in reais, who was paid (its legal name, CNPJ and the store's address, as
// Decreto 7.962/2013 asks), when in Brasília, the end-to-end id, and links to
// the order's page; its Message-ID derives from the order and the paid entry; composing it
// again gives the same message.
func TestReceiptDraft(t *testing.T) {
	for _, tc := range []struct {
		lang                                  string
		subject, total, shipping, when, payee string
	}{
		{"pt-BR", "Recibo do pedido PX-7K3M9QZ2 — Loja Demo", "R$ 134,80", "R$ 15,00", "28/11/2026 21:30 (horário de Brasília)", "Pago a: Loja Demo Ltda, CNPJ 11.222.333/0001-81"},
		{"en", "Receipt for order PX-7K3M9QZ2 — Loja Demo", "R$134.80", "R$15.00", "Nov 28, 2026, 9:30 PM (Brasília time)", "Paid to: Loja Demo Ltda, CNPJ 11.222.333/0001-81"},
	} {
		o, changes := paidOrder(tc.lang)
		msgs, err := announcer(nil).Announce(context.Background(), o, changes)
		if err != nil || len(msgs) != 1 {
			t.Fatalf("%s: %v %+v", tc.lang, err, msgs)
		}
		m := msgs[0]
		wantID := mail.MessageID("shopper.paid", o.ID+".2", "ana@example.com", "loja.example.com.br")
		if m.ID != wantID || m.Type != shopper.Type(settings.ShopperPaid) || m.OrderID != o.ID || m.To != "ana@example.com" ||
			m.Channel != checkout.ChannelMail || !m.CreatedAt.Equal(paidAt) {
			t.Errorf("%s: message %+v, want id %s", tc.lang, m, wantID)
		}
		c, err := mail.ContentOf(m.Payload)
		if err != nil {
			t.Fatal(err)
		}
		if c.Subject != tc.subject || c.Lang != tc.lang || c.ToName != "Ana Lima" {
			t.Errorf("%s: subject %q lang %q name %q", tc.lang, c.Subject, c.Lang, c.ToName)
		}
		if !strings.Contains(c.Text, tc.payee+"\n  Rua das Flores, 10\n  Goiânia - GO\n") ||
			!strings.Contains(c.HTML, "Rua das Flores, 10") || !strings.Contains(c.HTML, "Goiânia - GO") {
			t.Errorf("%s: the receipt lacks the store's address under the payee:\n%s\n%s", tc.lang, c.Text, c.HTML)
		}
		for _, body := range []string{c.Text, c.HTML} {
			for _, want := range []string{"PX-7K3M9QZ2", "2 × Camiseta Cerrado", tc.total, tc.shipping, tc.when, tc.payee,
				"E6070119020261129003012345678901", public + "/pay/" + o.ID} {
				if !strings.Contains(body, want) {
					t.Errorf("%s: the receipt lacks %q:\n%s", tc.lang, want, body)
				}
			}
		}
		again, err := announcer(nil).Announce(context.Background(), o, changes)
		if err != nil || len(again) != 1 || again[0].ID != m.ID || string(again[0].Payload) != string(m.Payload) {
			t.Errorf("%s: composed again: %v %+v", tc.lang, err, again)
		}
	}
}

// TestNews: each entry of an order's life sends its own e-mail, of its kind, when the merchant
// sends that kind; a kind turned off, an order without e-mail, and a paid order back from a
// review send nothing.
func TestNews(t *testing.T) {
	o, _ := paidOrder("pt-BR")
	o.Status = checkout.StatusAwaitingPayment
	o.Attempts = []checkout.Attempt{{N: 1, State: checkout.AttemptActive, BRCode: "00020126580014br.gov.bcb.pix0136abc",
		ExpiresAt: paidAt.Add(time.Hour)}}
	placed := o.History[1:2]
	o.History = o.History[:2]
	all := map[string]bool{}
	for _, k := range settings.ShopperMessages() {
		all[k] = true
	}
	check := func(name string, a *shopper.Announcer, o *checkout.Order, changes []checkout.StatusChange, kind string, wants ...string) {
		t.Helper()
		msgs, err := a.Announce(context.Background(), o, changes)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if kind == "" {
			if len(msgs) != 0 {
				t.Errorf("%s: sent %+v, want nothing", name, msgs)
			}
			return
		}
		if len(msgs) != 1 || msgs[0].Type != shopper.Type(kind) {
			t.Fatalf("%s: %+v, want one %s", name, msgs, kind)
		}
		c, err := mail.ContentOf(msgs[0].Payload)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(c.Text, w) || !strings.Contains(c.HTML+c.Subject, w) {
				t.Errorf("%s: lacks %q:\n%s\n%s", name, w, c.Subject, c.Text)
			}
		}
	}
	check("order placed, off by default", announcer(nil), o, placed, "")
	check("order placed, on", announcer(all), o, placed, settings.ShopperOrderPlaced,
		"PX-7K3M9QZ2", "R$ 134,80", "00020126580014br.gov.bcb.pix0136abc", "28/11/2026 22:30 (horário de Brasília)")

	p, _ := paidOrder("pt-BR")
	add := func(o *checkout.Order, c checkout.StatusChange) []checkout.StatusChange {
		o.History = append(o.History, c)
		return o.History[len(o.History)-1:]
	}
	shipped := add(p, checkout.StatusChange{From: checkout.StatusPaid, To: checkout.StatusPaid, At: paidAt,
		Reason: checkout.Reason{Code: checkout.ReasonShipped, Carrier: "Correios", TrackingCode: "AA123456789BR"}})
	check("shipped", announcer(nil), p, shipped, settings.ShopperShipped, "Correios", "AA123456789BR",
		public+"/pay/"+p.ID+"/tracking", public+"/pay/"+p.ID)
	off := map[string]bool{settings.ShopperPaid: true}
	check("shipped, turned off", announcer(off), p, shipped, "")
	loggi := add(p, checkout.StatusChange{From: checkout.StatusPaid, To: checkout.StatusPaid, At: paidAt,
		Reason: checkout.Reason{Code: checkout.ReasonShipped, Carrier: "Loggi", TrackingCode: "LG-1"}})
	check("shipped by a carrier without a tracking page", announcer(nil), p, loggi, settings.ShopperShipped, "Loggi", "LG-1")
	delivered := add(p, checkout.StatusChange{From: checkout.StatusPaid, To: checkout.StatusPaid, At: paidAt,
		Reason: checkout.Reason{Code: checkout.ReasonDelivered}})
	check("delivered", announcer(nil), p, delivered, settings.ShopperDelivered, "PX-7K3M9QZ2", "entregue")
	twice := add(p, checkout.StatusChange{From: checkout.StatusPaid, To: checkout.StatusPaid, At: paidAt,
		Reason: checkout.Reason{Code: checkout.ReasonPaidTwice, Paid: 13480}})
	check("paid twice", announcer(nil), p, twice, settings.ShopperRefundDue, "pago duas vezes", "R$ 134,80")
	recorded := add(p, checkout.StatusChange{From: checkout.StatusPaid, To: checkout.StatusPaid, At: paidAt,
		Reason: checkout.Reason{Code: checkout.ReasonRefundRecorded, Paid: 13480, On: "2026-12-01"}})
	check("refund recorded", announcer(nil), p, recorded, settings.ShopperRefunded, "R$ 134,80", "01/12/2026")
	review := add(p, checkout.StatusChange{From: checkout.StatusPaid, To: checkout.StatusUnderReview, At: paidAt})
	check("under review", announcer(nil), p, review, "")
	back := add(p, checkout.StatusChange{From: checkout.StatusUnderReview, To: checkout.StatusPaid, At: paidAt})
	check("paid again after a review", announcer(nil), p, back, "")
	refunded := add(p, checkout.StatusChange{From: checkout.StatusPaid, To: checkout.StatusRefunded, At: paidAt,
		Reason: checkout.Reason{Code: checkout.ReasonDeposit}})
	check("refunded by the gateway", announcer(nil), p, refunded, settings.ShopperRefunded, "R$ 134,80")

	c, _ := paidOrder("en")
	c.Status, c.History = checkout.StatusCanceled, c.History[:2]
	canceled := add(c, checkout.StatusChange{From: checkout.StatusAwaitingPayment, To: checkout.StatusCanceled, At: paidAt,
		Reason: checkout.Reason{Code: checkout.ReasonCanceled}})
	check("canceled", announcer(nil), c, canceled, settings.ShopperCanceled, "canceled", "Do not pay")
	late := add(c, checkout.StatusChange{From: checkout.StatusCanceled, To: checkout.StatusCanceled, At: paidAt,
		Reason: checkout.Reason{Code: checkout.ReasonPaidAfterCancel, Paid: 13480}})
	check("paid after it was canceled", announcer(nil), c, late, settings.ShopperRefundDue, "after the order was canceled", "R$134.80")

	c.Customer.Email = ""
	check("no e-mail", announcer(nil), c, canceled, "")

	failing := announcer(nil)
	failing.Sends = func(context.Context, string) (bool, error) { return false, errors.New("database down") }
	if _, err := failing.Announce(context.Background(), p, delivered); err == nil {
		t.Error("the settings unread, the update goes on: want an error (it is retried)")
	}
}

// TestReceiptOverSMTP: the receipt reaches a real SMTP server whole (both parts, in the
// order's language), and a line break in the shopper's name does not make a header of its own.
func TestReceiptOverSMTP(t *testing.T) {
	srv := mailtest.Start(t)
	server, err := mail.ParseServer(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := mail.ParseFrom("Loja Demo <loja@example.com.br>")
	sender, err := mail.NewSender(mail.SenderOptions{Server: server, From: from, RootCAs: srv.RootCAs, Timeout: 10 * time.Second,
		ReplyTo: func(context.Context) (string, error) { return "ajuda@loja.example.com.br", nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sender.Close)
	o, changes := paidOrder("en")
	o.Customer.Name = "Ana\r\nBcc: intruso@example.net\r\nSubject: grátis"
	msgs, err := announcer(nil).Announce(context.Background(), o, changes)
	if err != nil || len(msgs) != 1 {
		t.Fatalf("%v %+v", err, msgs)
	}
	m := msgs[0]
	if out := sender.Send(context.Background(), outbox.Delivery{ID: 1, MessageID: m.ID, Channel: m.Channel, Recipient: m.To,
		Type: m.Type, Body: m.Payload}); out.Error != "" || out.Permanent {
		t.Fatalf("send: %+v", out)
	}
	got := srv.Next(t, 20*time.Second)
	if len(got.To) != 1 || !strings.EqualFold(got.To[0], "ana@example.com") || got.Header.Get("Bcc") != "" ||
		len(got.Header["Subject"]) != 1 || got.Subject != "Receipt for order PX-7K3M9QZ2 — Loja Demo" {
		t.Errorf("recipients %v, header %v", got.To, got.Header)
	}
	if !strings.Contains(got.Header.Get("To"), "<Ana@Example.com>") || strings.Contains(got.Header.Get("To"), "\n") {
		t.Errorf("To %q", got.Header.Get("To"))
	}
	if got.Header.Get("Message-Id") != "<"+m.ID+">" || !strings.Contains(got.Text, "R$134.80") || !strings.Contains(got.HTML, "R$134.80") ||
		!strings.Contains(got.Text, "Hello, Ana!") {
		t.Errorf("received %v\n%s\n%s", got.Header, got.Text, got.HTML)
	}
}

// TestReceiptToAddressTyped: the receipt sent to an address typed at the point of sale is the
// order's receipt message (same type and cause): for the order's own address it is the very
// message the payment made, for another one its own, the same at each asking; an order never
// paid has none, a name with the address is refused. It goes over SMTP to the address typed.
func TestReceiptToAddressTyped(t *testing.T) {
	ctx := context.Background()
	o, changes := paidOrder("pt-BR")
	auto, err := announcer(nil).Announce(ctx, o, changes)
	if err != nil || len(auto) != 1 {
		t.Fatalf("%v %+v", err, auto)
	}
	same, err := announcer(nil).Receipt(ctx, o, "Ana@Example.com")
	if err != nil || same.ID != auto[0].ID {
		t.Fatalf("the order's own address: %v %s, want %s", err, same.ID, auto[0].ID)
	}
	typed, err := announcer(nil).Receipt(ctx, o, "cliente@example.net")
	again, err2 := announcer(nil).Receipt(ctx, o, "Cliente@Example.net")
	if err != nil || err2 != nil || typed.ID == auto[0].ID || again.ID != typed.ID || typed.To != "cliente@example.net" ||
		typed.Type != shopper.Type(settings.ShopperPaid) || typed.OrderID != o.ID {
		t.Fatalf("a typed address: %v %v %+v %+v", err, err2, typed, again)
	}
	if _, err := announcer(nil).Receipt(ctx, o, "Ana <ana@example.com>"); err == nil {
		t.Error("a receipt to a named address")
	}
	unpaid, _ := paidOrder("pt-BR")
	unpaid.Status, unpaid.History = checkout.StatusAwaitingPayment, unpaid.History[:2]
	if _, err := announcer(nil).Receipt(ctx, unpaid, "cliente@example.net"); !errors.Is(err, shopper.ErrNotPaid) {
		t.Errorf("the receipt of an order never paid: %v", err)
	}

	srv := mailtest.Start(t)
	server, err := mail.ParseServer(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := mail.ParseFrom("Loja Demo <loja@example.com.br>")
	sender, err := mail.NewSender(mail.SenderOptions{Server: server, From: from, RootCAs: srv.RootCAs, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sender.Close)
	if out := sender.Send(ctx, outbox.Delivery{ID: 1, MessageID: typed.ID, Channel: typed.Channel, Recipient: typed.To,
		Type: typed.Type, Body: typed.Payload}); out.Error != "" || out.Permanent {
		t.Fatalf("send: %+v", out)
	}
	got := srv.Next(t, 20*time.Second)
	if len(got.To) != 1 || got.To[0] != "cliente@example.net" || got.Header.Get("Message-Id") != "<"+typed.ID+">" ||
		!strings.Contains(got.Text, "E6070119020261129003012345678901") || !strings.Contains(got.Text, public+"/pay/"+o.ID) {
		t.Errorf("received %v %v\n%s", got.To, got.Header, got.Text)
	}
}
