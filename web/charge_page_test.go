package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// spAt is h:mm:ss on day n of March 2026 in São Paulo (UTC−3).
func spAt(n, h, m, s int) time.Time { return time.Date(2026, time.March, n, h+3, m, s, 0, time.UTC) }

// chargeEnv is a checkout whose sandbox clock stands at 09:00 on 1 March 2026 in São Paulo,
// with the charge: R$ 123,45, 10 % off until day 5, due day 10, 2 % fine, 1 % a month.
func chargeEnv(t *testing.T, opts ...func(*envOptions)) (*env, charges.Charge) {
	t.Helper()
	clock := sandbox.NewManualClock(spAt(1, 9, 0, 0))
	e := newEnv(t, append([]func(*envOptions){func(o *envOptions) { o.sandbox = func(so *sandbox.Options) { so.Clock = clock } }}, opts...)...)
	day := func(n int) charges.Date { return charges.Date{Year: 2026, Month: time.March, Day: n} }
	c, err := e.charges.Create(t.Context(), "ana@loja.example", "", charges.Input{
		Customer:    charges.Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com", Phone: "(11) 98765-4321"},
		Description: "Mensalidade de março",
		Terms: charges.Terms{Amount: 12345, Due: day(10), FineBps: 200, InterestBpsPerMonth: 100,
			Discount: charges.Discount{Bps: 1000, Until: day(5)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return e, c
}

// advanceTo moves the sandbox's clock (the checkout's) to at.
func (e *env) advanceTo(at time.Time) {
	e.t.Helper()
	if err := e.sb.AdvanceClock(context.Background(), at.Sub(e.sb.Now())); err != nil {
		e.t.Fatal(err)
	}
}

// text is the trimmed text of the element with data-testid id, whitespace collapsed.
func text(doc *goquery.Document, id string) string {
	return strings.Join(strings.Fields(doc.Find(testid(id)).Text()), " ")
}

// The case on the customer's page: on day 5 at 23:30 the page asks the discounted
// amount, and its QR code expires at 23:59:59 São Paulo time; posting the form twice gives one
// order. Paid on day 6 (the QR code expired), it counts for what it paid: the page and the API
// show the difference open, and a new QR code collects only the difference; then the page is the
// receipt.
func TestChargePageDiscountPaidNextDay(t *testing.T) {
	e, c := chargeEnv(t)
	page := "/c/" + c.ID
	e.advanceTo(spAt(5, 23, 30, 0))
	res, doc := e.get(page)
	if res.StatusCode != http.StatusOK || text(doc, "charge-description") != "Mensalidade de março" ||
		text(doc, "charge-amount") != "R$ 123,45" || text(doc, "charge-discount") != "−R$ 12,35" ||
		text(doc, "charge-balance") != "R$ 111,10" || !strings.Contains(text(doc, "charge-due"), "10/03/2026") ||
		!strings.Contains(text(doc, "charge-payee"), "Loja Teste") || doc.Find(testid("charge-fine")).Length() != 0 {
		t.Fatalf("day 5's page: %d %q", res.StatusCode, text(doc, "charge-amounts"))
	}
	key, ok := doc.Find(testid("charge-pay-form") + ` input[name="` + checkout.FieldRequestKey + `"]`).Attr("value")
	if !ok || key == "" {
		t.Fatal("the form has no request key")
	}
	pay := e.location(e.do(http.MethodPost, page, strings.NewReader(url.Values{checkout.FieldRequestKey: {key}}.Encode())))
	if again := e.location(e.do(http.MethodPost, page, strings.NewReader(url.Values{checkout.FieldRequestKey: {key}}.Encode()))); again != pay {
		t.Fatalf("the form posted twice: %s then %s", pay, again)
	}
	o, err := e.svc.Order(t.Context(), orderID(pay))
	if err != nil || o.Amount != 11110 || o.ChargeID != c.ID || o.Channel != checkout.ChannelCharge || o.Physical {
		t.Fatalf("day 5's order: %+v, %v", o, err)
	}
	if exp := o.QR().ExpiresAt; !exp.Equal(spAt(5, 23, 59, 59)) {
		t.Fatalf("day 5's QR code expires at %s, want 23:59:59 São Paulo time", exp)
	}

	e.advanceTo(spAt(6, 9, 0, 0))
	if _, err := e.sb.ControlDeposit(t.Context(), "checkout", o.QR().TransactionID, sandbox.ActionPay, sandbox.DepositControl{}); err != nil {
		t.Fatal(err)
	}
	if o, err = e.svc.RefreshFromGateway(t.Context(), o.ID); err != nil || o.Status != checkout.StatusPaid || !o.LatePayment {
		t.Fatalf("day 5's order paid on day 6: %+v, %v", o, err)
	}
	_, doc = e.get(page + "?lang=en")
	if text(doc, "charge-paid") != "−R$111.10" || text(doc, "charge-balance") != "R$12.35" ||
		doc.Find(testid("charge-discount")).Length() != 0 || text(doc, "charge-pay") != "Pay with PIX" {
		t.Fatalf("day 6's page after the late payment: %q", text(doc, "charge-amounts"))
	}
	if api := e.api(http.MethodGet, "/api/v1/charges/"+c.ID, nil); api.status != http.StatusOK || api.json["status"] != "open" ||
		api.json["paid"] != float64(11110) || api.json["amountDue"] != float64(1235) {
		t.Fatalf("the API on day 6 after the late payment: %d %s", api.status, api.body)
	}
	key = doc.Find(testid("charge-pay-form")+` input[name="`+checkout.FieldRequestKey+`"]`).AttrOr("value", "")
	rest := e.location(e.do(http.MethodPost, page, strings.NewReader(url.Values{checkout.FieldRequestKey: {key}}.Encode())))
	if rest == pay {
		t.Fatal("the difference reuses the paid order")
	}
	if o, err = e.svc.Order(t.Context(), orderID(rest)); err != nil || o.Amount != 1235 || o.ChargeID != c.ID {
		t.Fatalf("the difference's order: %+v, %v", o, err)
	}
	e.location(mustPost(e, rest+"/sandbox-pay"))
	if got, err := e.charges.Charge(t.Context(), c.ID); err != nil || got.Status != charges.StatusPaid || got.Paid != 12345 {
		t.Fatalf("the charge after the difference: %+v, %v", got, err)
	}
	if loc := e.location(e.do(http.MethodGet, page, nil)); loc != rest+"/paid" {
		t.Fatalf("a paid charge's page goes to %s, want the receipt %s/paid", loc, rest)
	}
}

// In the São Paulo day's last minute no QR code fits: the page says to try again in a minute
// and offers no form; a form posted then is answered 503 with Retry-After. A canceled charge's
// page says there is nothing to pay; a missing one is not found.
func TestChargePageDayEndingAndCanceled(t *testing.T) {
	e, c := chargeEnv(t)
	page := "/c/" + c.ID
	e.advanceTo(spAt(7, 23, 59, 30))
	res, doc := e.get(page)
	if res.StatusCode != http.StatusOK || doc.Find(testid("charge-notice")).Length() != 1 || doc.Find(testid("charge-pay-form")).Length() != 0 {
		t.Fatalf("the day's last minute: %d, notice %q", res.StatusCode, text(doc, "charge-notice"))
	}
	res = e.do(http.MethodPost, page, strings.NewReader(url.Values{checkout.FieldRequestKey: {"k"}}.Encode()))
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "60" {
		t.Fatalf("posted in the day's last minute: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	e.advanceTo(spAt(8, 0, 0, 0))
	if _, doc = e.get(page); doc.Find(testid("charge-pay-form")).Length() != 1 {
		t.Fatal("no form at midnight")
	}
	if _, err := e.charges.Cancel(t.Context(), "ana@loja.example", "", c.ID); err != nil {
		t.Fatal(err)
	}
	if _, doc = e.get(page); doc.Find(testid("charge-canceled")).Length() != 1 || doc.Find(testid("charge-pay-form")).Length() != 0 {
		t.Fatal("a canceled charge's page")
	}
	if res, _ := e.get("/c/missing"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("a missing charge: %d", res.StatusCode)
	}
}

// The customer's page may be framed like the other shopper pages: by the configured origins
// (CSP frame-ancestors, no X-Frame-Options that would forbid them), and it sets no cookie a
// third-party frame could lose; its PIX page is framed alike. Without configured origins it
// may not be framed at all.
func TestChargePageEmbeddable(t *testing.T) {
	e, c := chargeEnv(t, func(o *envOptions) { o.frameAncestors = []string{"https://escola.example.com"} })
	page := "/c/" + c.ID
	res, doc := e.get(page)
	key := doc.Find(testid("charge-pay-form")+` input[name="`+checkout.FieldRequestKey+`"]`).AttrOr("value", "")
	pay := e.do(http.MethodPost, page, strings.NewReader(url.Values{checkout.FieldRequestKey: {key}}.Encode()))
	pay.Body.Close()
	pix, _ := e.get(pay.Header.Get("Location"))
	for name, r := range map[string]*http.Response{"the charge's page": res, "its PIX page": pix} {
		if csp := r.Header.Get("Content-Security-Policy"); r.StatusCode != http.StatusOK ||
			!strings.Contains(csp, "frame-ancestors 'self' https://escola.example.com") || r.Header.Get("X-Frame-Options") != "" {
			t.Errorf("%s: %d, CSP %q, X-Frame-Options %q", name, r.StatusCode, csp, r.Header.Get("X-Frame-Options"))
		}
	}
	if len(res.Cookies()) != 0 || len(pay.Cookies()) != 0 {
		t.Errorf("the charge's page sets cookies: %v %v", res.Cookies(), pay.Cookies())
	}

	alone, c := chargeEnv(t)
	res, _ = alone.get("/c/" + c.ID)
	if !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") || res.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("without configured origins: CSP %q, X-Frame-Options %q", res.Header.Get("Content-Security-Policy"), res.Header.Get("X-Frame-Options"))
	}
}
