package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/shopper"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/views"
)

// paidSale is a keypad sale of R$ 12,34 ("Café") by the cashier signed in on b, paid through
// the sandbox.
func (e *env) paidSale(b *browser, csrf string) *checkout.Order {
	e.t.Helper()
	res, _ := b.post("/dashboard/pos/sales", url.Values{"amount": {"12,34"}, "description": {"Café"}, "csrf_token": {csrf},
		"sale_key": {checkout.NewID()}})
	if res.StatusCode != http.StatusSeeOther {
		e.t.Fatalf("the sale: %d", res.StatusCode)
	}
	id := strings.TrimPrefix(e.location(res), "/dashboard/pos/sales/")
	if res, _ := b.get("/dashboard/pos/sales/" + id + "/receipt"); res.StatusCode != http.StatusNotFound {
		e.t.Fatalf("the receipt of a sale not paid: %d", res.StatusCode)
	}
	return e.payCurrent(id)
}

// A paid sale's receipt for a 58 mm (and an 80 mm) roll names the store and its CNPJ, the
// item, the amount, when it was paid in São Paulo, the end-to-end id, the terminal and the
// cashier, and says it is not a tax document; another cashier gets none of it.
func TestPOSReceipt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	p, err := e.brand.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p.LegalName, p.Document = "Loja Teste Ltda", "11222333000181"
	if _, _, err := e.brand.Save(ctx, p); err != nil {
		t.Fatal(err)
	}
	b, csrf, _ := e.cashier("joana@loja.example")
	o := e.paidSale(b, csrf)
	sale := "/dashboard/pos/sales/" + o.ID
	_, doc := b.get(sale)
	if href := doc.Find(testid("receipt-print-58")).AttrOr("href", ""); href != sale+"/receipt?width=58&print=1" {
		t.Fatalf("the paid sale's print button: %q", href)
	}
	res, doc := b.get(sale + "/receipt?width=58")
	r := doc.Find(testid("receipt"))
	want := map[string]string{"receipt-document": "CNPJ 11.222.333/0001-81", "receipt-e2e": o.PaidAttempt().EndToEnd,
		"receipt-not-fiscal": "Não é documento fiscal", "receipt-terminal": "Caixa 1", "receipt-cashier": "joana",
		"receipt-amount": "R$ 12,34", "receipt-paid-at": views.FormatDateTime(views.PtBR, o.PaidAt) + " (horário de Brasília)"}
	if res.StatusCode != http.StatusOK || !r.HasClass("ticket-58") || o.PaidAttempt().EndToEnd == "" {
		t.Fatalf("the receipt: %d %q", res.StatusCode, r.Text())
	}
	for id, text := range want {
		if got := strings.TrimSpace(r.Find(testid(id)).Text()); got != text {
			t.Errorf("%s = %q, want %q", id, got, text)
		}
	}
	if lines := r.Find(testid("receipt-lines")).Text(); !strings.Contains(lines, "Café") || !strings.Contains(lines, "1 × R$ 12,34") {
		t.Errorf("the receipt's lines: %q", lines)
	}
	if css := doc.Find(`link[rel="stylesheet"]`).AttrOr("href", ""); !strings.Contains(css, "/ticket.") || !strings.Contains(r.Find("h1").Text(), "Loja Teste") {
		t.Errorf("the receipt's stylesheet %q, heading %q", css, r.Find("h1").Text())
	}
	_, doc = b.get(sale + "/receipt?width=80&lang=en")
	if r := doc.Find(testid("receipt")); !r.HasClass("ticket-80") || r.Find(testid("receipt-not-fiscal")).Text() != "Not a tax document" {
		t.Errorf("the 80 mm receipt in English: %q", r.Text())
	}
	if res, _ := b.get(sale + "/receipt?width=57"); res.StatusCode != http.StatusBadRequest {
		t.Errorf("a width of 57 mm: %d", res.StatusCode)
	}
	other, otherCSRF, _ := e.cashier("bia@loja.example")
	if res, _ := other.get(sale + "/receipt"); res.StatusCode != http.StatusNotFound {
		t.Errorf("another cashier's receipt: %d", res.StatusCode)
	}
	for _, send := range []string{"/receipt/email", "/receipt/whatsapp"} {
		if res, _ := other.post(sale+send, url.Values{"csrf_token": {otherCSRF}, "email": {"x@example.com"}}); res.StatusCode != http.StatusNotFound {
			t.Errorf("another cashier's %s: %d", send, res.StatusCode)
		}
	}
}

// "Send the receipt" by e-mail queues the order's receipt e-mail (the shopper's "paid"
// message) in the e-mails' outbox, once per address however often it is asked; a bad address is
// refused naming the field. By WhatsApp it opens a chat with the order page's link, to a mobile
// phone typed or to a contact chosen there.
func TestPOSSendReceipt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	b, csrf, _ := e.cashier("joana@loja.example")
	o := e.paidSale(b, csrf)
	sale := "/dashboard/pos/sales/" + o.ID
	link := "http://localhost:8080/pay/" + o.ID

	res, doc := b.post(sale+"/receipt/email", url.Values{"csrf_token": {csrf}, "email": {"não é e-mail"}})
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(testid("receipt-mail-error")).AttrOr("data-field", "") != "email" ||
		doc.Find(`#receipt-email[aria-invalid="true"]`).AttrOr("value", "") != "não é e-mail" {
		t.Fatalf("a bad address: %d %q", res.StatusCode, doc.Find(testid("pos-send")).Text())
	}
	for range 2 { // a double click
		if res, _ := b.post(sale+"/receipt/email", url.Values{"csrf_token": {csrf}, "email": {" Cliente@Example.com "}}); res.StatusCode != http.StatusSeeOther ||
			e.location(res) != sale {
			t.Fatalf("sending the receipt: %d %q", res.StatusCode, e.location(res))
		}
	}
	if _, doc := b.get(sale); !strings.Contains(doc.Find(testid("receipt-mail-sent")).Text(), "Cliente@Example.com") {
		t.Errorf("the notice of the receipt sent: %q", doc.Find(testid("pos-send")).Text())
	}
	es, err := e.mailLog.List(ctx, mail.Filter{To: "cliente@example.com"})
	if err != nil || len(es) != 1 || es[0].Type != shopper.Type(settings.ShopperPaid) || es[0].State != mail.Queued {
		t.Fatalf("the receipt e-mails: %+v, %v", es, err)
	}
	if c := es[0].Content; !strings.Contains(c.Text, link) || !strings.Contains(c.Text, o.PaidAttempt().EndToEnd) || !strings.Contains(c.Text, "12,34") {
		t.Errorf("the receipt e-mail's text: %q", c.Text)
	}

	_, doc = b.get(sale)
	wa, err := url.Parse(doc.Find(testid("receipt-whatsapp")).AttrOr("href", ""))
	if err != nil || wa.Host != "wa.me" || wa.Path != "/" || !strings.Contains(wa.Query().Get("text"), link) {
		t.Errorf("the WhatsApp link: %v (%v)", wa, err)
	}
	res, _ = b.post(sale+"/receipt/whatsapp?lang=en", url.Values{"csrf_token": {csrf}, "phone": {"(11) 98765-4321"}})
	wa, err = url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusSeeOther || wa.Host != "wa.me" || wa.Path != "/5511987654321" ||
		!strings.HasPrefix(wa.Query().Get("text"), "Receipt of your purchase at Loja Teste: "+views.FormatMoney(views.En, 1234)) || !strings.Contains(wa.Query().Get("text"), link) {
		t.Errorf("WhatsApp to a phone: %d %v (%v)", res.StatusCode, wa, err)
	}
	res, doc = b.post(sale+"/receipt/whatsapp", url.Values{"csrf_token": {csrf}, "phone": {"3456-7890"}})
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(testid("receipt-phone-error")).AttrOr("data-field", "") != "phone" {
		t.Errorf("WhatsApp to a landline: %d %q", res.StatusCode, doc.Find(testid("pos-send")).Text())
	}
}
