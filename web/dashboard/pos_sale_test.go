package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// sell posts a sale from the point of sale's form and returns the answer.
func sell(b *browser, csrf string, form url.Values) (*http.Response, string) {
	form.Set("csrf_token", csrf)
	form.Set("sale_key", checkout.NewID())
	res, doc := b.post("/dashboard/pos/sales", form)
	return res, doc.Find("main").Text()
}

// saleID is the order of a sale's 303.
func (e *env) saleID(res *http.Response) string {
	e.t.Helper()
	return strings.TrimPrefix(e.location(res), "/dashboard/pos/sales/")
}

// "Cancelar" cancels the sale here only: the page says a payment may still arrive; one that does
// (the customer scanned before) leaves the sale canceled, never paid, with a refund due shown.
func TestPOSCancelLeavesARefundDue(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, csrf, _ := e.cashier("cashier@loja.example")
	res, _ := sell(b, csrf, url.Values{"amount": {"12,34"}})
	id := e.saleID(res)
	_, doc := b.get("/dashboard/pos/sales/" + id)
	if !strings.Contains(doc.Find("#pos-cancel-note").Text(), "um pagamento ainda pode chegar e vira um reembolso devido") {
		t.Fatalf("the cancel's note: %q", doc.Find("#pos-cancel-note").Text())
	}
	o, err := e.svc.Order(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	tx := o.CurrentAttempt().TransactionID
	if res, _ := b.post("/dashboard/pos/sales/"+id+"/cancel", url.Values{"csrf_token": {csrf}}); e.location(res) != "/dashboard/pos/sales/"+id {
		t.Fatalf("cancel went to %q", e.location(res))
	}
	_, doc = b.get("/dashboard/pos/sales/" + id)
	if doc.Find(testid("canceled")).Length() != 1 || doc.Find(testid("pix-qr")).Length() != 0 ||
		!strings.Contains(doc.Find("main").Text(), "Se um pagamento ainda chegar, ele aparece no pedido como reembolso devido.") {
		t.Fatalf("the canceled sale's page: %q", doc.Find("main").Text())
	}
	if _, err := e.sb.ControlDeposit(context.Background(), "checkout", tx, sandbox.ActionPay, sandbox.DepositControl{}); err != nil {
		t.Fatal(err)
	}
	if o, err = e.svc.RefreshFromGateway(context.Background(), id); err != nil || o.Status != checkout.StatusCanceled || o.RefundDue != 1234 {
		t.Fatalf("a payment after the cancel: %+v, %v", o, err)
	}
	_, doc = b.get("/dashboard/pos/sales/" + id)
	if doc.Find(testid("paid")).Length() != 0 || doc.Find(testid("canceled")).Length() != 1 ||
		!strings.Contains(doc.Find(".pos-alert").Text(), "Reembolso devido: R$ 12,34") {
		t.Fatalf("the canceled sale paid late: %q", doc.Find("main").Text())
	}
}

// With several terminals the point of sale shows them to choose from, the current one marked;
// the one chosen is the form's and the sale's, and the next visit starts there.
func TestPOSChoosesATerminal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	two, err := e.pos.CreateTerminal(context.Background(), "Caixa 2")
	if err != nil {
		t.Fatal(err)
	}
	b, csrf, _ := e.cashier("cashier@loja.example")
	_, doc := b.get("/dashboard/pos")
	links := doc.Find(testid("pos-terminals") + " a")
	if links.Length() != 2 || doc.Find(testid("pos-terminals")+` a[aria-current]`).AttrOr("data-id", "") != pos.FirstTerminal {
		t.Fatalf("the terminals to choose from: %d, current %q", links.Length(), doc.Find(testid("pos-terminals")+` a[aria-current]`).Text())
	}
	href := doc.Find(testid("pos-terminals")+` a[data-id="`+two.ID+`"]`).AttrOr("href", "")
	_, doc = b.get(href)
	if got := doc.Find(testid("pos-terminal")).Text(); got != "Terminal: Caixa 2" {
		t.Fatalf("after choosing Caixa 2 the header says %q", got)
	}
	terminal := doc.Find(testid("pos-keypad-form")+` input[name="terminal"]`).AttrOr("value", "")
	if terminal != two.ID {
		t.Fatalf("the form's terminal: %q", terminal)
	}
	res, _ := sell(b, csrf, url.Values{"amount": {"1,00"}, "terminal": {terminal}})
	if o, err := e.svc.Order(context.Background(), e.saleID(res)); err != nil || o.TerminalID != two.ID {
		t.Fatalf("the sale's terminal: %+v, %v", o, err)
	}
	if _, doc := b.get("/dashboard/pos"); doc.Find(testid("pos-terminal")).Text() != "Terminal: Caixa 2" {
		t.Errorf("the next visit starts at %q", doc.Find(testid("pos-terminal")).Text())
	}
}

// The sales of the day a cashier sees are its own, of the São Paulo day: not another cashier's,
// not an owner's, not those of the evening before (at 00:30 in São Paulo, 03:30 UTC, a sale of
// 23:30 there, 02:30 UTC, is yesterday's).
func TestPOSTodaysSalesAreTheCashiers(t *testing.T) {
	t.Parallel()
	clock := sandbox.NewManualClock(latestUTC("02:30"))
	e := newEnv(t, withClock(clock))
	ana, anaCSRF, _ := e.cashier("caixa-ana@loja.example")
	bia, biaCSRF, _ := e.cashier("caixa-bia@loja.example")
	owner := e.browser()
	ownerCSRF := owner.login()
	rows := func(b *browser) int {
		_, doc := b.get("/dashboard/pos")
		return doc.Find(testid("pos-today-row")).Length()
	}
	sell(ana, anaCSRF, url.Values{"amount": {"1,00"}}) // 23:30 in São Paulo, the day before
	clock.Advance(time.Hour)
	for _, s := range []struct {
		b    *browser
		csrf string
	}{{ana, anaCSRF}, {ana, anaCSRF}, {bia, biaCSRF}, {owner, ownerCSRF}} {
		if res, text := sell(s.b, s.csrf, url.Values{"amount": {"2,00"}}); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("a sale: %d %q", res.StatusCode, text)
		}
	}
	if n := rows(ana); n != 2 {
		t.Errorf("ana's sales today: %d, want her 2 of today", n)
	}
	if n := rows(bia); n != 1 {
		t.Errorf("bia's sales today: %d, want 1", n)
	}
}

// A sale of the catalogue's physical products is handed over at the counter: the store's
// address (its "Loja" page) is the order's, which checkout sends to the gateway as the sale's
// address (TestCatalogueSale reads it in the sandbox's request), with no customer. Without a whole address the sale is refused, naming the address.
func TestPOSGridSaleAtTheCounter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, csrf, _ := e.cashier("cashier@loja.example")
	caneca := url.Values{"qty.caneca-de-ceramica": {"2"}}
	res, _ := sell(b, csrf, caneca)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a physical sale with no store address: %d", res.StatusCode)
	}
	owner := e.browser()
	form := storeForm(owner.login())
	form.Set("address", "Rua das Flores, 12 - Centro, Curitiba - PR, 80020-000")
	if res := owner.do(http.MethodPost, "/dashboard/store", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the store's address: %d", res.StatusCode)
	}
	res, text := sell(b, csrf, url.Values{"qty.caneca-de-ceramica": {"2"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a physical sale at the counter: %d %q", res.StatusCode, text)
	}
	o, err := e.svc.Order(context.Background(), e.saleID(res))
	if err != nil || !o.Physical || o.Amount != 2*5900 || o.Shipping != 0 || o.Customer != (checkout.Customer{}) || o.Address == nil {
		t.Fatalf("the sale: %+v, %v", o, err)
	}
	if a := *o.Address; a.Street != "Rua das Flores" || a.Number != "12" || a.Neighborhood != "Centro" || a.City != "Curitiba" ||
		a.State != "PR" || a.ZipCode != "80020-000" {
		t.Fatalf("the sale's address: %+v", a)
	}
}

// Pairing a customer's display is throttled per client address: past the burst every attempt
// from that address is refused with Retry-After, a right code too, while another address still
// pairs.
func TestPOSDisplayPairingThrottled(t *testing.T) {
	t.Parallel()
	proxies, err := respond.ParseProxies("127.0.0.1, ::1")
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, func(o *envOptions) { o.trustedProxies = proxies })
	code, _, err := e.displays.NewCode(context.Background(), &team.User{ID: "owner", Role: team.RoleOwner}, pos.FirstTerminal)
	if err != nil {
		t.Fatal(err)
	}
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	pair := func(from, code string) *http.Response {
		res := e.do(http.MethodPost, "/pos/display", url.Values{pos.FieldCode: {code}}, "Forwarded", "for="+from)
		res.Body.Close()
		return res
	}
	burst := 0
	for ; burst < 50; burst++ {
		if res := pair("198.51.100.7", wrong); res.StatusCode == http.StatusTooManyRequests {
			if res.Header.Get("Retry-After") == "" {
				t.Error("a throttled attempt without Retry-After")
			}
			break
		} else if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("a wrong code: %d", res.StatusCode)
		}
	}
	if burst == 0 || burst >= 50 {
		t.Fatalf("throttled after %d attempts", burst)
	}
	if res := pair("198.51.100.7", code); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the right code from a throttled address: %d", res.StatusCode)
	}
	if res := pair("203.0.113.9", code); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the right code from another address: %d", res.StatusCode)
	}
}

// A page refused to a cashier leads back to the point of sale, its start, not to the overview it
// may not open either.
func TestPOSRefusedPageLeadsToThePointOfSale(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, _, _ := e.cashier("cashier@loja.example")
	for _, page := range []string{"/dashboard", "/dashboard/orders"} {
		res, doc := b.get(page)
		if res.StatusCode != http.StatusForbidden {
			t.Fatalf("%s as a cashier: %d", page, res.StatusCode)
		}
		if back := doc.Find("main a").FilterFunction(func(_ int, s *goquery.Selection) bool {
			return s.AttrOr("href", "") == "/dashboard/pos"
		}); back.Length() != 1 {
			t.Errorf("%s refused: no way back to the point of sale in %q", page, doc.Find("main").Text())
		}
		if doc.Find(`main a[href="/dashboard"]`).Length() != 0 {
			t.Errorf("%s refused: a link to the overview, refused too", page)
		}
	}
}
