package dashboard_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
)

// placePhysical buys the ceramic mug through the shop's pages and returns the order's id.
func (e *env) placePhysical() string {
	e.t.Helper()
	cart := e.newCart("caneca-de-ceramica", "1")
	_, doc := e.get(cart + "/checkout")
	key, _ := doc.Find(`input[name="request_key"]`).Attr("value")
	return orderID(e.location(e.do(http.MethodPost, cart+"/checkout", url.Values{
		"request_key": {key}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"},
		"email": {"maria@example.com.br"}, "phone": {"(11) 98765-4321"}, "zip_code": {"01310-100"},
		"street": {"Avenida Paulista"}, "number": {"1000"}, "neighborhood": {"Bela Vista"}, "city": {"São Paulo"}, "state": {"SP"},
	})))
}

// payCurrent pays the order's latest QR code through the sandbox and applies the deposit.
func (e *env) payCurrent(id string) *checkout.Order {
	e.t.Helper()
	ctx := context.Background()
	o, err := e.svc.Order(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := (payer{e.client}).Pay(ctx, o.CurrentAttempt().TransactionID); err != nil {
		e.t.Fatalf("paying: %v", err)
	}
	if o, err = e.svc.RefreshFromGateway(ctx, id); err != nil {
		e.t.Fatalf("reading the payment: %v", err)
	}
	return o
}

// canceledPaid is an order canceled by the shop, then paid all the same: a refund is due.
func (e *env) canceledPaid() *checkout.Order {
	e.t.Helper()
	id := orderID(e.placeOrder())
	if _, _, err := e.svc.CancelOrder(context.Background(), id); err != nil {
		e.t.Fatal(err)
	}
	o := e.payCurrent(id)
	if o.Status != checkout.StatusCanceled || o.RefundDue != o.Amount {
		e.t.Fatalf("canceled order paid: %s, refund due %d", o.Status, o.RefundDue)
	}
	return o
}

// eventOf returns the payload of the order's notification of type typ, read through the
// merchant API: the list and the notification are both held to openapi.json (its payload to
// the OrderEvent schema).
func (e *env) eventOf(id, typ string) map[string]any {
	e.t.Helper()
	key, _, err := e.keys.Create(context.Background(), "events "+typ, apikeys.ScopeRead, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	res := e.do(http.MethodGet, "/api/v1/notifications?orderId="+url.QueryEscape(id)+"&type="+url.QueryEscape(typ), nil,
		"Authorization", "Bearer "+key)
	var list struct {
		Data []struct{ ID string } `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil || res.StatusCode != http.StatusOK || len(list.Data) != 1 {
		e.t.Fatalf("notifications %s of the order: %d, %v, %d", typ, res.StatusCode, err, len(list.Data))
	}
	res = e.do(http.MethodGet, "/api/v1/notifications/"+list.Data[0].ID, nil, "Authorization", "Bearer "+key)
	var detail struct {
		Payload map[string]any `json:"payload"`
	}
	if err := json.NewDecoder(res.Body).Decode(&detail); err != nil || res.StatusCode != http.StatusOK {
		e.t.Fatalf("notification: %d, %v", res.StatusCode, err)
	}
	return detail.Payload
}

// auditHas reports whether the audit log has an entry of action on object by actor.
func (e *env) auditHas(action, object, actor string) bool {
	e.t.Helper()
	es, err := e.dash.audit.Entries(context.Background(), audit.Filter{Action: action})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, en := range es {
		if en.Object == object && en.Actor == actor {
			return true
		}
	}
	return false
}

// TestShipAndDeliver: a paid order of physical goods is shipped (the carrier and tracking code
// checked beside their fields), then delivered; each is in the timeline, the audit log with who
// did it, and a signed event whose payload is the API's order.
func TestShipAndDeliver(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	csrf := b.login()
	id := e.placePhysical()
	page := "/dashboard/orders/" + id

	_, doc := b.get(page)
	if doc.Find(testid("ship-form")).Length() != 0 || doc.Find(testid("deliver-form")).Length() != 0 {
		t.Error("an order awaiting payment offers to ship or deliver")
	}
	if doc.Find(testid("cancel-form")).Length() != 1 || doc.Find(testid("note-form")).Length() != 1 {
		t.Error("an order awaiting payment does not offer to cancel it or to add a note")
	}
	// Shipping an unpaid order is refused with the reason, even when posted by hand.
	res, doc := b.post(page+"/ship", url.Values{"csrf_token": {csrf}, "carrier": {"Correios"}, "trackingCode": {"AA123456789BR"}})
	if res.StatusCode != http.StatusConflict || doc.Find(testid("action-failed")).Length() != 1 {
		t.Errorf("shipping an unpaid order: %d", res.StatusCode)
	}

	o := e.payCurrent(id)
	_, doc = b.get(page)
	if doc.Find(testid("ship-form")).Length() != 1 || doc.Find(testid("cancel-form")).Length() != 0 {
		t.Error("a paid physical order does not offer to ship it, or still offers to cancel it")
	}
	res, doc = b.post(page+"/ship", url.Values{"csrf_token": {csrf}, "carrier": {""}, "trackingCode": {"AA 123"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("an empty carrier: %d", res.StatusCode)
	}
	for field, want := range map[string]string{"carrier": "Preencha", "trackingCode": "espaços"} {
		msg := doc.Find(`[data-testid="ship-form"] [data-field="` + field + `"]`).Text()
		if !strings.Contains(msg, want) {
			t.Errorf("the error beside %s = %q, want %q", field, msg, want)
		}
	}
	if v, _ := doc.Find("#ship-trackingCode").Attr("value"); v != "AA 123" {
		t.Errorf("the tracking code typed is not kept: %q", v)
	}
	form := url.Values{"csrf_token": {csrf}, "carrier": {"Correios"}, "trackingCode": {"AA123456789BR"}}
	for range 2 { // a double submission ships once
		res, _ = b.post(page+"/ship", form)
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("shipping: %d", res.StatusCode)
		}
	}
	_, doc = b.get(page + "?done=shipped")
	if got := doc.Find(testid("fulfilment")).Text(); !strings.Contains(got, "Correios") || !strings.Contains(got, "AA123456789BR") {
		t.Errorf("the fulfilment shown: %q", got)
	}
	if doc.Find(`[data-code="order_shipped"]`).Length() != 1 || doc.Find(testid("notice")).Length() != 1 {
		t.Errorf("the timeline holds %d shipped entries, want 1, and a notice", doc.Find(`[data-code="order_shipped"]`).Length())
	}
	if doc.Find(testid("deliver-form")).Length() != 1 || doc.Find(testid("ship-form")).Length() != 0 {
		t.Error("a shipped order does not offer to deliver it, or still offers to ship it")
	}
	if !e.auditHas(audit.OrderShipped, o.Number, dashEmail) {
		t.Error("the audit log does not say who shipped the order")
	}
	ev := e.eventOf(id, "order.shipped")
	data, _ := ev["data"].(map[string]any)
	if ev["type"] != "order.shipped" || data["carrier"] != "Correios" || data["trackingCode"] != "AA123456789BR" || data["shippedAt"] == nil {
		t.Errorf("order.shipped payload: %v", ev)
	}

	if res, _ := b.post(page+"/deliver", url.Values{"csrf_token": {csrf}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delivering: %d", res.StatusCode)
	}
	_, doc = b.get(page)
	if doc.Find(`[data-code="order_delivered"]`).Length() != 1 || doc.Find(testid("deliver-form")).Length() != 0 {
		t.Error("the delivery is not in the timeline, or is offered again")
	}
	if !e.auditHas(audit.OrderDelivered, o.Number, dashEmail) {
		t.Error("the audit log does not say who delivered the order")
	}
	if ev := e.eventOf(id, "order.delivered"); ev["data"].(map[string]any)["deliveredAt"] == nil {
		t.Errorf("order.delivered payload: %v", ev)
	}
	// The overview's awaiting-shipment filter no longer lists it.
	_, doc = b.get("/dashboard/orders?fulfilment=awaiting_shipment")
	if strings.Contains(doc.Find("main").Text(), o.Number) {
		t.Error("a delivered order is listed as awaiting shipment")
	}
}

// TestCancelOrder: only with its confirmation; the shopper's PIX page then says canceled and
// offers no QR code; a paid order cannot be canceled.
func TestCancelOrder(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	csrf := b.login()
	pay := e.placeOrder()
	id := orderID(pay)
	page := "/dashboard/orders/" + id
	res, doc := b.post(page+"/cancel", url.Values{"csrf_token": {csrf}})
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid="cancel-form"] [data-field="confirm"]`).Length() != 1 {
		t.Fatalf("canceling without the confirmation: %d", res.StatusCode)
	}
	if o, _ := e.svc.Order(context.Background(), id); o.Status != checkout.StatusAwaitingPayment {
		t.Fatalf("canceled without the confirmation: %s", o.Status)
	}
	if res, _ := b.post(page+"/cancel", url.Values{"csrf_token": {csrf}, "confirm": {"yes"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("canceling: %d", res.StatusCode)
	}
	_, doc = e.get(pay)
	if doc.Find(testid("canceled")).Length() != 1 || doc.Find(testid("pix-code")).Length() != 0 || doc.Find(testid("pix-qr")).Length() != 0 {
		t.Errorf("the shopper's page of a canceled order: %q", doc.Find("main").Text())
	}
	o, _ := e.svc.Order(context.Background(), id)
	if !e.auditHas(audit.OrderCanceled, o.Number, dashEmail) {
		t.Error("the audit log does not say who canceled the order")
	}
	if ev := e.eventOf(id, "order.canceled"); ev["data"].(map[string]any)["status"] != "canceled" {
		t.Errorf("order.canceled payload: %v", ev)
	}
	paid := orderID(e.placeOrder())
	e.payCurrent(paid)
	res, doc = b.post("/dashboard/orders/"+paid+"/cancel", url.Values{"csrf_token": {csrf}, "confirm": {"yes"}})
	if res.StatusCode != http.StatusConflict || !strings.Contains(doc.Find(testid("action-failed")).Text(), "ainda não pago") {
		t.Errorf("canceling a paid order: %d %q", res.StatusCode, doc.Find(testid("action-failed")).Text())
	}
}

// TestInternalNote: a note is in the timeline with its text, once per form, and its text is
// neither in the API's order nor in any notification.
func TestInternalNote(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	csrf := b.login()
	id := orderID(e.placeOrder())
	page := "/dashboard/orders/" + id
	_, doc := b.get(page)
	key, _ := doc.Find(`[data-testid="note-form"] input[name="key"]`).Attr("value")
	if res, doc := b.post(page+"/notes", url.Values{"csrf_token": {csrf}, "key": {key}, "note": {"  "}}); res.StatusCode != http.StatusUnprocessableEntity ||
		doc.Find(`[data-testid="note-form"] [data-field="note"]`).Length() != 1 {
		t.Fatalf("an empty note: %d", res.StatusCode)
	}
	before := e.notificationCount(id)
	const text = "Cliente pediu nota fiscal com CNPJ"
	for range 2 {
		if res, _ := b.post(page+"/notes", url.Values{"csrf_token": {csrf}, "key": {key}, "note": {text}}); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("adding a note: %d", res.StatusCode)
		}
	}
	_, doc = b.get(page)
	if got := doc.Find(testid("note-text")); got.Length() != 1 || got.Text() != text {
		t.Errorf("notes in the timeline: %d %q", got.Length(), got.Text())
	}
	apiKey, _, err := e.keys.Create(context.Background(), "erp", apikeys.ScopeRead, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := e.do(http.MethodGet, "/api/v1/orders/"+id, nil, "Authorization", "Bearer "+apiKey)
	var body strings.Builder
	_ = json.NewEncoder(&body).Encode(e.parseJSON(res))
	if res.StatusCode != http.StatusOK || strings.Contains(body.String(), "nota fiscal") || !strings.Contains(body.String(), "internal note") {
		t.Errorf("the API's order: %d %s", res.StatusCode, body.String())
	}
	if n := e.notificationCount(id); n != before {
		t.Errorf("a note made %d notifications, want none", n-before)
	}
	o, _ := e.svc.Order(context.Background(), id)
	if !e.auditHas(audit.OrderNoteAdded, o.Number, dashEmail) {
		t.Error("the audit log does not say who added the note")
	}
}

// notificationCount is how many notifications the order has in the delivery log.
func (e *env) notificationCount(id string) int {
	e.t.Helper()
	ns, err := notify.NewDeliveryLog(e.outbox).List(context.Background(), notify.NotificationFilter{OrderID: id})
	if err != nil {
		e.t.Fatal(err)
	}
	return len(ns)
}

// parseJSON decodes an answer's JSON body.
func (e *env) parseJSON(res *http.Response) any {
	e.t.Helper()
	defer res.Body.Close()
	var v any
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil {
		e.t.Fatal(err)
	}
	return v
}

// TestRefundsDue: a late payment (paid after the order was canceled) is listed with the
// payer's PIX data the gateway gave, counted in the navigation and the overview; a refund made
// elsewhere is recorded from the page, checked beside its fields, never beyond what is due. It
// runs late in the São Paulo evening, when the UTC date is already the next day, and just after
// midnight there.
func TestRefundsDue(t *testing.T) {
	for _, hhmm := range []string{"02:30", "03:30"} {
		t.Run(hhmm+"Z", func(t *testing.T) { testRefundsDue(t, newEnv(t, at(hhmm))) })
	}
}

func testRefundsDue(t *testing.T, e *env) {
	b := e.browser()
	csrf := b.login()
	o := e.canceledPaid()
	dep, err := e.client.GetDeposit(context.Background(), o.Attempts[0].TransactionID)
	if err != nil || dep.Payer == nil {
		t.Fatalf("the sandbox's deposit: %v", err)
	}

	due := views.FormatMoney(views.PtBR, o.RefundDue)
	whole, over := strings.TrimPrefix(due, "R$ "), strings.TrimPrefix(views.FormatMoney(views.PtBR, o.RefundDue+1), "R$ ")
	_, doc := b.get("/dashboard")
	if got := doc.Find(`[data-testid="refunds-due"]`).Text(); !strings.Contains(got, due) {
		t.Errorf("the overview's refunds due: %q", got)
	}
	if got := doc.Find(`nav.dash-nav a[href$="/dashboard/refunds"]`).Text(); !strings.Contains(got, "1") {
		t.Errorf("the navigation's refunds link: %q", got)
	}
	_, doc = b.get("/dashboard/refunds")
	row := doc.Find(`[data-testid="refund-due"][data-id="` + o.ID + `"]`)
	if row.Length() != 1 || !strings.Contains(row.Find(testid("refund-amount")).Text(), due) ||
		!strings.Contains(row.Find(testid("payer")).Text(), dep.Payer.Name) {
		t.Fatalf("the refunds page's row: %q", row.Text())
	}
	// The amount due is filled in; the payer's bank is named.
	if got := row.Find(`input[name="refundAmount"]`).AttrOr("value", ""); got != whole {
		t.Errorf("the refund's amount filled with %q, want %q", got, whole)
	}
	if got := row.Find(`input[name="refundDate"]`).AttrOr("value", ""); got != saoPauloDay(e.sb.Now()) {
		t.Errorf("the refund's date filled with %q, want today in São Paulo", got)
	}
	form := func(amount, e2e string) url.Values {
		return url.Values{"csrf_token": {csrf}, "from": {"refunds"}, "refundDate": {saoPauloDay(e.sb.Now())},
			"refundAmount": {amount}, "endToEnd": {e2e}}
	}
	path := "/dashboard/orders/" + o.ID + "/refunds"
	res, doc := b.post(path, form(over, "E12345678"))
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("a bad refund: %d", res.StatusCode)
	}
	row = doc.Find(`[data-testid="refund-due"][data-id="` + o.ID + `"]`)
	if !strings.Contains(row.Find(`[data-field="endToEnd"]`).Text(), "fim a fim") {
		t.Errorf("the error beside the end-to-end id: %q", row.Find(`[data-field="endToEnd"]`).Text())
	}
	res, doc = b.post(path, form(over, "D12345678202603141300abcdefghijk"))
	row = doc.Find(`[data-testid="refund-due"][data-id="` + o.ID + `"]`)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(row.Find(`[data-field="refundAmount"]`).Text(), due) {
		t.Errorf("a refund beyond what is due: %d %q", res.StatusCode, row.Find(`[data-field="refundAmount"]`).Text())
	}
	res, _ = b.post(path, form(whole, "D12345678202603141300abcdefghijk"))
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "/dashboard/refunds?done=refund") {
		t.Fatalf("recording the refund: %d %s", res.StatusCode, loc)
	}
	_, doc = b.get("/dashboard/refunds?done=refund")
	if doc.Find(testid("refund-due")).Length() != 0 || doc.Find(testid("refunds-none")).Length() != 1 || doc.Find(testid("notice")).Length() != 1 {
		t.Errorf("after the whole refund the page still lists: %q", doc.Find("main").Text())
	}
	_, doc = b.get("/dashboard/orders/" + o.ID)
	if doc.Find(testid("refund-recorded")).Length() != 1 || doc.Find(testid("refund-form")).Length() != 0 {
		t.Error("the order page does not list the refund recorded, or still offers to record one")
	}
	if !e.auditHas(audit.OrderRefundRecorded, o.Number, dashEmail) {
		t.Error("the audit log does not say who recorded the refund")
	}
	ev := e.eventOf(o.ID, "refund.recorded")
	data, _ := ev["data"].(map[string]any)
	refunds, _ := data["refundsRecorded"].([]any)
	if data["refundDue"] != float64(0) || len(refunds) != 1 {
		t.Errorf("refund.recorded payload: %v", ev)
	}
}

// TestViewerSeesNoActions: a viewer reads the order and the refunds page without a form.
func TestViewerSeesNoActions(t *testing.T) {
	e := newEnv(t)
	if _, err := e.dash.accounts.AddUser(context.Background(), "leitora@loja.example", dashPassword, team.RoleViewer); err != nil {
		t.Fatal(err)
	}
	o := e.canceledPaid()
	b := e.browser()
	b.loginAs("leitora@loja.example", dashPassword)
	_, doc := b.get("/dashboard/orders/" + o.ID)
	if doc.Find(testid("order-actions")).Length() != 0 || doc.Find("form[action*='/orders/']").Length() != 0 {
		t.Error("a viewer is offered the order's actions")
	}
	_, doc = b.get("/dashboard/refunds")
	if doc.Find(testid("refund-due")).Length() != 1 || doc.Find(testid("refund-form")).Length() != 0 {
		t.Error("a viewer does not see the refund due, or is offered to record it")
	}
}

// TestFulfilmentFilter: the order list's fulfilment filter (the overview's "awaiting shipment"
// link) lists the paid orders of physical goods not shipped; an unknown value is refused beside
// its field.
func TestFulfilmentFilter(t *testing.T) {
	e := newEnv(t)
	b := e.browser()
	b.login()
	mug := e.placePhysical()
	e.payCurrent(mug)
	unpaid := e.placePhysical()
	digital := orderID(e.placeOrder())
	e.payCurrent(digital)
	_, doc := b.get("/dashboard")
	if got := doc.Find(`[data-testid="awaiting-shipment"] [data-testid="figure-value"]`).Text(); got != "1" {
		t.Errorf("the overview's awaiting shipment: %q", got)
	}
	href, _ := doc.Find(`[data-testid="awaiting-shipment"] a`).Attr("href")
	_, doc = b.get(href)
	var ids []string
	doc.Find(`[data-testid="order-row"]`).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-id", "")) })
	if len(ids) != 1 || ids[0] != mug {
		t.Errorf("awaiting shipment lists %v, want [%s] (not %s nor %s)", ids, mug, unpaid, digital)
	}
	if v, _ := doc.Find(`#f-fulfilment option[selected]`).Attr("value"); v != checkout.FulfilmentAwaitingShipment {
		t.Errorf("the filter form does not keep the fulfilment: %q", v)
	}
	res, doc := b.get("/dashboard/orders?fulfilment=lost")
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-param="fulfilment"]`).Length() != 1 {
		t.Errorf("an unknown fulfilment: %d", res.StatusCode)
	}
}
