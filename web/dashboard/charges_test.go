package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// chargeInput is a charge of amount to name, due in days (São Paulo days from the env's today).
func (e *env) chargeInput(name, phone string, amount charges.Cents, days int) charges.Input {
	return charges.Input{
		Customer:    charges.Customer{Name: name, Document: "529.982.247-25", Email: "maria@example.com", Phone: phone},
		Description: "Mensalidade de " + name, ExternalCode: "ALUNO-" + name,
		Terms: charges.Terms{Amount: amount, Due: charges.AddDays(e.charges.Today(), days), FineBps: 200,
			InterestBpsPerMonth: 100},
	}
}

// newCharge makes an open charge of R$ 150,00 due in three days, with phone, and returns its id.
func (e *env) newCharge(phone string) string {
	e.t.Helper()
	c, err := e.charges.Create(context.Background(), "ana@loja.example", "", e.chargeInput("Maria", phone, 15000, 3))
	if err != nil {
		e.t.Fatal(err)
	}
	return c.ID
}

// signedIn is a browser signed in as a new user of role, and its CSRF token.
func (e *env) signedIn(role team.Role) (*browser, string) {
	e.t.Helper()
	email := string(role) + "@loja.example"
	if _, err := e.dash.accounts.AddUser(context.Background(), email, dashPassword, role); err != nil {
		e.t.Fatal(err)
	}
	b := e.browser()
	return b, b.loginAs(email, dashPassword)
}

// chargeRows are the ids of the charge rows of a list page, in order.
func chargeRows(doc *goquery.Document) []string {
	var ids []string
	doc.Find(testid("charge-row")).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-id", "")) })
	return ids
}

// The list: the due-date presets, the statuses, the customer search, the amounts, keyset pages
// both ways, and a bad filter named (422) — read by a viewer, who gets no form.
func TestChargesList(t *testing.T) {
	// 23:30 in São Paulo: "today" is the day before UTC's.
	clock := sandbox.NewManualClock(latestUTC("02:30"))
	e := newEnv(t, withClock(clock))
	ctx := context.Background()
	add := func(name string, amount charges.Cents, days int) string {
		clock.Advance(time.Second) // the list is newest first
		c, err := e.charges.Create(ctx, "ana@loja.example", "", e.chargeInput(name, "", amount, days))
		if err != nil {
			t.Fatal(err)
		}
		return c.ID
	}
	today := add("Ana", 10000, 0)
	week := add("Bia", 20000, 6)
	later := add("Caio", 30000, 8)
	canceled := add("Davi", 40000, 0)
	if _, err := e.charges.Cancel(ctx, "ana@loja.example", "", canceled); err != nil {
		t.Fatal(err)
	}
	b, _ := e.signedIn(team.RoleViewer)
	res, doc := b.get("/dashboard/charges")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("list: %d", res.StatusCode)
	}
	if got := chargeRows(doc); !slices.Equal(got, []string{canceled, later, week, today}) {
		t.Fatalf("rows %v", got)
	}
	if doc.Find(testid("charge-form")).Length() != 0 || doc.Find(`a[href="/dashboard/charges"]`).Length() == 0 {
		t.Fatal("a viewer has the new-charge form, or no navigation entry")
	}
	presets := map[string]string{}
	doc.Find(testid("date-preset")).Each(func(_ int, s *goquery.Selection) {
		presets[s.AttrOr("data-preset", "")] = s.AttrOr("href", "")
	})
	day := e.charges.Today().String()
	if u := presets["due_today"]; u != "/dashboard/charges?dueFrom="+day+"&dueTo="+day+"&status=open" {
		t.Fatalf("due today preset %q", u)
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{presets["due_today"], []string{today}}, // what is still to collect: not the canceled one
		{"/dashboard/charges?dueFrom=" + day + "&dueTo=" + day, []string{canceled, today}},
		{presets["due_7d"], []string{week, today}},
		{"/dashboard/charges?status=canceled", []string{canceled}},
		{"/dashboard/charges?q=bia", []string{week}},
		{"/dashboard/charges?q=ALUNO-C", []string{later}},
		{"/dashboard/charges?minAmount=150&maxAmount=300,00", []string{later, week}},
		{"/dashboard/charges?dueFrom=" + charges.AddDays(e.charges.Today(), 7).String(), []string{later}},
	} {
		res, doc := b.get(tc.query)
		if got := chargeRows(doc); res.StatusCode != http.StatusOK || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %d %v, want %v", tc.query, res.StatusCode, got, tc.want)
		}
	}
	// The overdue preset lists the charges marked overdue: none until the day after a due date.
	if _, doc := b.get(presets["overdue"]); len(chargeRows(doc)) != 0 {
		t.Fatalf("overdue before any due date passed: %v", chargeRows(doc))
	}
	// Pages of two, forward then back.
	_, doc = b.get("/dashboard/charges?perPage=2")
	next := doc.Find(testid("page-next")).AttrOr("href", "")
	if got := chargeRows(doc); !slices.Equal(got, []string{canceled, later}) || next == "" {
		t.Fatalf("first page %v, next %q", got, next)
	}
	_, doc = b.get(next)
	prev := doc.Find(testid("page-prev")).AttrOr("href", "")
	if got := chargeRows(doc); !slices.Equal(got, []string{week, today}) || prev == "" || doc.Find(testid("page-next")).Length() != 0 {
		t.Fatalf("second page %v, prev %q", got, prev)
	}
	if _, doc = b.get(prev); !slices.Equal(chargeRows(doc), []string{canceled, later}) {
		t.Fatalf("back to the first page: %v", chargeRows(doc))
	}
	if got := doc.Find(testid("results-count")).AttrOr("data-total", ""); got != "4" {
		t.Fatalf("count %q", got)
	}
	// A bad filter is named beside its field.
	res, doc = b.get("/dashboard/charges?dueFrom=amanhã&status=late&lang=en")
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid="filter-error"][data-param="dueFrom"]`).Length() != 1 ||
		doc.Find(`[data-testid="filter-error"][data-param="status"]`).Length() != 1 {
		t.Fatalf("bad filter: %d %s", res.StatusCode, doc.Find(testid("filter-errors")).Text())
	}
}

// The new-charge form: errors by field through the one field-error shape, the values typed
// kept; then the charge made with the rates typed in percent, and its page.
func TestChargeCreate(t *testing.T) {
	e := newEnv(t, at("03:30"))
	b, csrf := e.signedIn(team.RoleOperator)
	_, doc := b.get("/dashboard/charges")
	if doc.Find(testid("charge-form")).Length() != 1 || !strings.Contains(doc.Find("#ch-fine-hint").Text(), "art. 52") {
		t.Fatal("no form, or the fine's hint does not cite the consumer code")
	}
	due := charges.AddDays(e.charges.Today(), 10).String()
	form := url.Values{"csrf_token": {csrf}, "customer.name": {"Maria da Silva"}, "customer.document": {"111.111.111-11"},
		"customer.email": {""}, "customer.phone": {"(11) 98765-4321"}, "amount": {"doze"}, "description": {"Mensalidade"},
		"dueDate": {due}, "fine": {"2,5"}, "interest": {"1"}, "discount.percent": {"10"},
		"discount.until": {charges.AddDays(e.charges.Today(), 11).String()}}
	res, doc := b.post("/dashboard/charges", form)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("bad form: %d", res.StatusCode)
	}
	var fields []string
	doc.Find(`[data-testid="charge-form"] [data-testid="field-error"]`).Each(func(_ int, s *goquery.Selection) {
		fields = append(fields, s.AttrOr("data-field", ""))
	})
	if !slices.Equal(fields, []string{"amount"}) {
		// An amount that does not read stops the form before the domain's rules.
		t.Fatalf("errors of %v", fields)
	}
	form.Set("amount", "150,00")
	res, doc = b.post("/dashboard/charges", form)
	fields = nil
	doc.Find(`[data-testid="charge-form"] [data-testid="field-error"]`).Each(func(_ int, s *goquery.Selection) {
		fields = append(fields, s.AttrOr("data-field", ""))
	})
	if res.StatusCode != http.StatusUnprocessableEntity ||
		!slices.Equal(fields, []string{"customer.document", "customer.email", "fine", "discount.until"}) {
		t.Fatalf("bad form: %d, errors of %v", res.StatusCode, fields)
	}
	if doc.Find("#ch-customer\\.name").AttrOr("value", "") != "Maria da Silva" ||
		doc.Find("#ch-fine").AttrOr("aria-invalid", "") != "true" || doc.Find(testid("charge-errors")+" a").Length() != 4 {
		t.Fatal("the values typed are not kept, or the errors not linked")
	}
	if list, _, err := e.charges.List(context.Background(), charges.Filter{}, 10); err != nil || len(list) != 0 {
		t.Fatalf("a refused charge was stored: %d, %v", len(list), err)
	}
	form.Set("customer.document", "529.982.247-25")
	form.Set("customer.email", "maria@example.com")
	form.Set("fine", "2")
	form.Set("discount.until", charges.AddDays(e.charges.Today(), 5).String())
	res, _ = b.post("/dashboard/charges", form)
	loc := e.location(res)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/dashboard/charges/") {
		t.Fatalf("created: %d → %q", res.StatusCode, loc)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(loc, "/dashboard/charges/"), "?done=created")
	c, err := e.charges.Charge(context.Background(), id)
	if err != nil || c.Terms.Amount != 15000 || c.Terms.FineBps != 200 || c.Terms.InterestBpsPerMonth != 100 ||
		c.Terms.Discount.Bps != 1000 || c.Terms.Due.String() != due || c.Status != charges.StatusOpen {
		t.Fatalf("stored %+v, %v", c, err)
	}
	_, doc = b.get(loc)
	if doc.Find(testid("notice")).Length() != 1 || doc.Find(testid("charge-total")).AttrOr("data-cents", "") != "13500" {
		t.Fatalf("the new charge's page: %s", doc.Find("main").Text())
	}
}

// The charge's page: its amounts today, its customer's page, the WhatsApp link (a mobile phone
// only, for those who act), personal data masked by role, the timeline, and Cancel with its
// confirmation.
func TestChargePage(t *testing.T) {
	e := newEnv(t)
	mobile, phoneless := e.newCharge("(11) 98765-4321"), e.newCharge("")
	viewer, _ := e.signedIn(team.RoleViewer)
	_, doc := viewer.get("/dashboard/charges/" + mobile)
	if doc.Find(testid("charge-total")).AttrOr("data-cents", "") != "15000" ||
		doc.Find(testid("charge-url")).AttrOr("value", "") != "http://localhost:8080/c/"+mobile {
		t.Fatalf("amount %q, customer's page %q", doc.Find(testid("charge-total")).AttrOr("data-cents", ""),
			doc.Find(testid("charge-url")).AttrOr("value", ""))
	}
	if doc.Find(testid("whatsapp-share")).Length() != 0 || doc.Find(testid("cancel-form")).Length() != 0 {
		t.Fatal("a viewer may send or cancel")
	}
	if d, p := doc.Find(testid("charge-document")).Text(), doc.Find(testid("charge-phone")).Text(); !strings.Contains(d, "*") ||
		strings.Contains(d, "529") || !strings.Contains(p, "*") || strings.Contains(p, "98765") {
		t.Fatalf("a viewer sees document %q, phone %q", d, p)
	}
	// An owner's page masks them too until the deliberate show, which the audit log records.
	owner := e.browser()
	ocsrf := owner.login()
	if _, doc := owner.get("/dashboard/charges/" + mobile); strings.Contains(doc.Find(testid("charge-document")).Text(), "529") {
		t.Fatalf("an owner sees the document %q before asking", doc.Find(testid("charge-document")).Text())
	}
	res, doc := owner.post("/dashboard/charges/"+mobile+"/personal-data", url.Values{"csrf_token": {ocsrf}})
	if res.StatusCode != http.StatusOK || doc.Find(testid("charge-document")).Text() != "529.982.247-25" ||
		doc.Find(testid("charge-phone")).Text() != "(11) 98765-4321" {
		t.Fatalf("shown: %d %q", res.StatusCode, doc.Find(testid("charge-document")).Text())
	}
	if es, err := e.dash.audit.Entries(context.Background(), audit.Filter{Action: audit.PersonalShown}); err != nil || len(es) != 1 ||
		es[0].Object != "charge "+mobile || es[0].Actor != dashEmail {
		t.Fatalf("audit of the show: %+v, %v", es, err)
	}

	// An operator sends it by WhatsApp through a form: the page never holds the phone.
	op, csrf := e.signedIn(team.RoleOperator)
	_, doc = op.get("/dashboard/charges/" + mobile + "?lang=en")
	if h, _ := doc.Html(); strings.Contains(h, "98765") {
		t.Fatal("the operator's page holds the phone")
	}
	res, _ = op.post(doc.Find(testid("whatsapp-form")).AttrOr("action", ""), url.Values{"csrf_token": {csrf}})
	wa, err := url.Parse(res.Header.Get("Location"))
	if err != nil || res.StatusCode != http.StatusSeeOther || wa.Host != "wa.me" || wa.Path != "/5511987654321" ||
		!strings.Contains(wa.Query().Get("text"), "http://localhost:8080/c/"+mobile) || !strings.HasPrefix(wa.Query().Get("text"), "Hello, Maria!") {
		t.Fatalf("WhatsApp: %d %v (%v)", res.StatusCode, wa, err)
	}
	if _, doc := op.get("/dashboard/charges/" + phoneless); doc.Find(testid("whatsapp-share")).Length() != 0 {
		t.Fatal("a WhatsApp link without a phone")
	}
	if res, _ := op.post("/dashboard/charges/"+phoneless+"/whatsapp", url.Values{"csrf_token": {csrf}}); res.StatusCode != http.StatusNotFound {
		t.Fatalf("WhatsApp without a phone: %d", res.StatusCode)
	}
	if doc.Find(testid("cancel-form")+" input[name=csrf_token]").AttrOr("value", "") != csrf {
		t.Fatal("the cancel form carries no token")
	}
	// Without the ticked box nothing changes; with it the charge is canceled, once.
	res, doc = op.post("/dashboard/charges/"+mobile+"/cancel", url.Values{"csrf_token": {csrf}})
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-field="confirm"]`).Length() != 1 {
		t.Fatalf("cancel without confirmation: %d", res.StatusCode)
	}
	if res, _ := op.post("/dashboard/charges/"+mobile+"/cancel", url.Values{"confirm": {"yes"}}); res.StatusCode != http.StatusForbidden {
		t.Fatalf("cancel without the token: %d", res.StatusCode)
	}
	res, _ = op.post("/dashboard/charges/"+mobile+"/cancel", url.Values{"csrf_token": {csrf}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d", res.StatusCode)
	}
	_, doc = op.get(e.location(res))
	var timeline []string
	doc.Find(testid("history-entry")).Each(func(_ int, s *goquery.Selection) {
		timeline = append(timeline, s.AttrOr("data-status", "")+" "+s.Find(testid("history-actor")).Text())
	})
	if doc.Find(testid("charge-status")).AttrOr("data-status", "") != "canceled" || doc.Find(testid("cancel-form")).Length() != 0 ||
		doc.Find(testid("whatsapp-share")).Length() != 0 ||
		!slices.Equal(timeline, []string{"open por ana@loja.example", "canceled por operator@loja.example"}) {
		t.Fatalf("after the cancel: %v", timeline)
	}
	res, doc = op.post("/dashboard/charges/"+mobile+"/cancel", url.Values{"csrf_token": {csrf}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusConflict || doc.Find(testid("charge-failed")).Length() != 1 {
		t.Fatalf("cancel again: %d", res.StatusCode)
	}
	if res, _ := op.get("/dashboard/charges/missing"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("a missing charge: %d", res.StatusCode)
	}
}

// The charge's timeline says why each line is there, a payment's amounts in reais in the
// page's language, with a link to the order that paid: a partial payment, one beyond the
// balance (15000), and one after the charge was paid.
func TestChargeTimelineReasons(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id := e.newCharge("")
	for _, p := range []struct {
		order  string
		amount charges.Cents
	}{{"order-1", 1234}, {"order-2", 14266}, {"order-3", 500}} {
		if _, err := e.charges.ChargePaid(ctx, id, p.order, p.amount, e.charges.Now()); err != nil {
			t.Fatal(err)
		}
	}
	viewer, _ := e.signedIn(team.RoleViewer)
	for lang, want := range map[string][]string{
		"pt-BR": {"created Cobrança criada", "partially_paid Pagamento parcial de R$ 12,34",
			"paid Paga com um pagamento de R$ 142,66, R$ 5,00 acima do saldo: a devolver ao pagador", "refund_due Pagamento de R$ 5,00 com a cobrança já paga: a devolver ao pagador"},
		"en": {"created Charge created", "partially_paid Partial payment of R$12.34", "paid Paid with a payment of R$142.66, R$5.00 above its balance: to refund to the payer",
			"refund_due Payment of R$5.00 when it was paid already: to refund to the payer"},
	} {
		_, doc := viewer.get("/dashboard/charges/" + id + "?lang=" + lang)
		var got []string
		doc.Find(testid("history-reason")).Each(func(_ int, s *goquery.Selection) {
			got = append(got, s.AttrOr("data-reason", "")+" "+strings.TrimSpace(s.Text()))
		})
		if !slices.Equal(got, want) {
			t.Errorf("%s timeline %q, want %q", lang, got, want)
		}
		if href := doc.Find(testid("history-order")).First().AttrOr("href", ""); !strings.HasPrefix(href, "/dashboard/orders/order-1") {
			t.Errorf("%s: the partial payment's order link %q", lang, href)
		}
	}
}
