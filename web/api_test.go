package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/apitest"
)

// testConfiguredKey is the CHECKOUT_MERCHANT_API_KEY of the tests.
const testConfiguredKey = "test-configured-api-key-0123456789"

// apiResult is an API answer.
type apiResult struct {
	status int
	header http.Header
	body   []byte
	json   map[string]any
}

// errorCode returns the answer's error.code.
func (r apiResult) errorCode() string {
	e, _ := r.json["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// fields returns the answer's error.fields as "path code" strings.
func (r apiResult) fields() []string {
	e, _ := r.json["error"].(map[string]any)
	fs, _ := e["fields"].([]any)
	var out []string
	for _, f := range fs {
		m, _ := f.(map[string]any)
		out = append(out, fmt.Sprint(m["field"], " ", m["code"]))
	}
	return out
}

// api sends an API request with the configured key (unless header sets Authorization); body is
// sent as is (a string) or as JSON. Like every API exchange of env's client, it is checked
// against openapi.json (apitest.Transport).
func (e *env) api(method, path string, body any, header ...string) apiResult {
	e.t.Helper()
	var rb []byte
	switch b := body.(type) {
	case nil:
	case string:
		rb = []byte(b)
	case []byte:
		rb = b
	default:
		var err error
		if rb, err = json.Marshal(b); err != nil {
			e.t.Fatal(err)
		}
	}
	var r io.Reader
	if rb != nil {
		r = bytes.NewReader(rb)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, r)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testConfiguredKey)
	if rb != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] == "" {
			req.Header.Del(header[i])
		} else {
			req.Header.Set(header[i], header[i+1])
		}
	}
	res, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	out := apiResult{status: res.StatusCode, header: res.Header}
	if out.body, err = io.ReadAll(res.Body); err != nil {
		e.t.Fatal(err)
	}
	if !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		e.t.Fatalf("%s %s: Content-Type %q, want JSON; body %.200s", method, path, res.Header.Get("Content-Type"), out.body)
	}
	if err := json.Unmarshal(out.body, &out.json); err != nil {
		e.t.Fatalf("%s %s: the answer is not a JSON object: %v\n%s", method, path, err, out.body)
	}
	return out
}

// sessionBody is a valid session request: a catalogue product and an ad-hoc physical item.
func sessionBody() map[string]any {
	return map[string]any{
		"items": []any{
			map[string]any{"productId": "ebook-receitas-do-cerrado", "quantity": 2},
			map[string]any{"title": "Camiseta PIX", "description": "Algodão, tamanho M", "unitPrice": 5990, "quantity": 1, "type": "PHYSICAL"},
		},
		"externalCode":     "pedido-000123",
		"embedOrigin":      "https://loja.example.com",
		"successUrl":       "https://loja.example.com/obrigado?s={CHECKOUT_SESSION_ID}",
		"cancelUrl":        "https://loja.example.com/carrinho",
		"expiresInSeconds": 3600,
		"metadata":         map[string]any{"cliente": "42"},
		"customer": map[string]any{"name": "Maria da Silva", "email": "maria@example.com", "document": "529.982.247-25",
			"address": map[string]any{"zipCode": "01310-100", "city": "São Paulo"}},
	}
}

func TestAPICreateAndReadSession(t *testing.T) {
	e := newEnv(t)
	res := e.api("POST", "/api/v1/checkout-sessions", sessionBody())
	if res.status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	id, _ := res.json["id"].(string)
	// 2 × 29,90 + 59,90
	if res.json["status"] != "open" || res.json["amount"] != float64(2*2990+5990) || len(id) < 26 ||
		res.json["url"] != "http://localhost:8080/s/"+id || res.json["expiresAt"] == nil {
		t.Errorf("created session: %s", res.body)
	}
	if loc := res.header.Get("Location"); loc != "/api/v1/checkout-sessions/"+id {
		t.Errorf("Location %q", loc)
	}
	got := e.api("GET", "/api/v1/checkout-sessions/"+id, nil)
	if got.status != 200 || got.json["id"] != id || got.json["externalCode"] != "pedido-000123" {
		t.Errorf("read: %d %s", got.status, got.body)
	}
	for _, h := range []string{"Cache-Control", "X-Frame-Options", "Content-Security-Policy"} {
		if v := got.header.Get(h); v == "" || h == "Content-Security-Policy" && !strings.Contains(v, "frame-ancestors 'none'") {
			t.Errorf("%s: %q", h, v)
		}
	}

	// The session's page: the prefilled form, framable by its embedOrigin and nothing else.
	page, doc := e.get("/s/" + id)
	if page.StatusCode != 200 {
		t.Fatalf("session page: %d", page.StatusCode)
	}
	csp := page.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors 'self' https://loja.example.com") || page.Header.Get("X-Frame-Options") != "" {
		t.Errorf("session page framing: CSP %q, X-Frame-Options %q", csp, page.Header.Get("X-Frame-Options"))
	}
	if v, _ := doc.Find(`input[name="name"]`).Attr("value"); v != "Maria da Silva" {
		t.Errorf("name not prefilled: %q", v)
	}
	if v, _ := doc.Find(`input[name="zip_code"]`).Attr("value"); v != "01310-100" {
		t.Errorf("CEP not prefilled: %q", v)
	}
	if o, _ := doc.Find("body").Attr("data-embed-origin"); o != "https://loja.example.com" {
		t.Errorf("body data-embed-origin %q", o)
	}
	if doc.Find(`script[src*="frame."]`).Length() != 1 {
		t.Error("the session page does not load frame.js")
	}
	if href, _ := doc.Find(testid("session-cancel")).Attr("href"); href != "https://loja.example.com/carrinho" {
		t.Errorf("cancel link %q", href)
	}
	// A page of the shop is still not framable.
	shop := e.do("GET", "/", nil)
	shop.Body.Close()
	if csp := shop.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("the shop's CSP lets a session's origin frame it: %q", csp)
	}
	if res := e.api("GET", "/api/v1/checkout-sessions/nope", nil); res.status != 404 || res.errorCode() != "not_found" {
		t.Errorf("unknown session: %d %s", res.status, res.body)
	}
	if res := e.api("GET", "/api/v1/orders/nope", nil); res.status != 404 || res.errorCode() != "not_found" {
		t.Errorf("unknown order: %d %s", res.status, res.body)
	}
}

// TestAPISessionExpires: a session nobody turned into an order is read as expired once a QR
// code of a minute no longer fits before its end.
func TestAPISessionExpires(t *testing.T) {
	e := newEnv(t)
	body := sessionBody()
	body["expiresInSeconds"] = 120
	res := e.api("POST", "/api/v1/checkout-sessions", body)
	if res.status != 201 || res.json["status"] != "open" {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	if err := e.sb.AdvanceClock(context.Background(), 61*time.Second); err != nil {
		t.Fatal(err)
	}
	if got := e.api("GET", "/api/v1/checkout-sessions/"+res.json["id"].(string), nil); got.status != 200 || got.json["status"] != "expired" {
		t.Errorf("after its end: %d %s", got.status, got.body)
	}
}

func TestAPIAuthentication(t *testing.T) {
	e := newEnv(t)
	secret, rec, err := e.keys.Create(context.Background(), "ERP", apikeys.ScopeWrite, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, auth := range map[string]string{"none": "", "basic": "Basic dXNlcjpwdw==", "wrong key": "Bearer pxk_wrong",
		"empty bearer": "Bearer ", "key with a space": "Bearer " + testConfiguredKey + " x"} {
		res := e.api("GET", "/api/v1/orders", nil, "Authorization", auth)
		if res.status != 401 || res.errorCode() != "unauthorized" || !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: %d %s (WWW-Authenticate %q)", name, res.status, res.body, res.header.Get("WWW-Authenticate"))
		}
	}
	if res := e.api("GET", "/api/v1/orders", nil, "Authorization", "Bearer "+secret); res.status != 200 {
		t.Errorf("a stored key: %d %s", res.status, res.body)
	}
	if err := e.keys.Revoke(context.Background(), rec.ID); err != nil {
		t.Fatal(err)
	}
	if res := e.api("GET", "/api/v1/orders", nil, "Authorization", "Bearer "+secret); res.status != 401 {
		t.Errorf("a revoked key: %d %s", res.status, res.body)
	}
	// A cross-site request without a key: 401 as JSON, not the shop's 403 page.
	res := e.api("POST", "/api/v1/checkout-sessions", sessionBody(), "Authorization", "", "Origin", "https://evil.example.com", "Sec-Fetch-Site", "cross-site")
	if res.status != 401 || res.errorCode() != "unauthorized" {
		t.Errorf("cross-site without key: %d %s", res.status, res.body)
	}
	// The description needs no key.
	if res := e.api("GET", "/api/v1/openapi.json", nil, "Authorization", ""); res.status != 200 || res.json["openapi"] != "3.1.0" {
		t.Errorf("openapi.json: %d", res.status)
	}
}

func TestAPIValidationReportsEveryViolation(t *testing.T) {
	e := newEnv(t)
	body := map[string]any{
		"items": []any{
			map[string]any{"productId": "no-such-product"},
			map[string]any{"title": "X", "unitPrice": 0, "quantity": 101, "type": "SERVICE"},
			map[string]any{"title": "Caro demais", "unitPrice": 10000001, "type": "DIGITAL"},
			map[string]any{"productId": "ebook-receitas-do-cerrado", "unitPrice": 1},
			map[string]any{"title": "Fração", "unitPrice": 10.5, "type": "DIGITAL"},
			"not an object",
		},
		"externalCode":     "short",
		"embedOrigin":      "https://loja.example.com/path",
		"successUrl":       "http://loja.example.com/ok",
		"cancelUrl":        "javascript:alert(1)",
		"expiresInSeconds": 30,
		"metadata":         map[string]any{strings.Repeat("k", 41): "v", "ok": strings.Repeat("v", 501), "n": 1},
		"customer":         map[string]any{"document": "111.111.111-11", "email": "not-an-email", "phone": "123", "age": 3},
		"color":            "blue",
	}
	res := e.api("POST", "/api/v1/checkout-sessions", body)
	if res.status != 422 || res.errorCode() != "invalid" {
		t.Fatalf("%d %s", res.status, res.body)
	}
	got := strings.Join(res.fields(), "\n")
	for _, want := range []string{
		"items[0].productId unknown_product", "items[1].title min_length", "items[1].unitPrice min",
		"items[1].quantity max", "items[1].type enum", "items[2].unitPrice max", "items[3].unitPrice not_allowed",
		"items[4].unitPrice integer", "items[5] type", "externalCode min_length", "embedOrigin format",
		"successUrl url", "cancelUrl url", "expiresInSeconds min", "metadata format", "metadata.ok max_length",
		"metadata.n type", "customer.document document", "customer.email format", "customer.phone format",
		"customer.age unknown_field", "color unknown_field",
	} {
		if !strings.Contains("\n"+got+"\n", "\n"+want+"\n") {
			t.Errorf("missing violation %q in:\n%s", want, got)
		}
	}
	// Nothing was stored: the same body with a key, fixed, is a new session.
	ok := e.api("POST", "/api/v1/checkout-sessions", map[string]any{"items": []any{map[string]any{"productId": "ebook-receitas-do-cerrado"}}})
	if ok.status != 201 || ok.json["amount"] != float64(2990) {
		t.Errorf("minimal session: %d %s", ok.status, ok.body)
	}
	// An order total above the gateway's limit is refused on items.
	big := e.api("POST", "/api/v1/checkout-sessions", map[string]any{"items": []any{
		map[string]any{"title": "Lote", "unitPrice": 10000000, "quantity": 2, "type": "DIGITAL"}}})
	if big.status != 422 || !strings.Contains(strings.Join(big.fields(), ","), "items max") {
		t.Errorf("total above the limit: %d %s", big.status, big.body)
	}
	if res := e.api("POST", "/api/v1/checkout-sessions", map[string]any{"items": []any{}}); res.status != 422 ||
		strings.Join(res.fields(), ",") != "items required" {
		t.Errorf("no items: %d %s", res.status, res.body)
	}
}

func TestAPIStrictRequests(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, body, ctype string
		status            int
		code              string
	}{
		{"malformed", `{"items": [`, "application/json", 400, "invalid_json"},
		{"duplicate key", `{"items": [{"productId": "ebook-receitas-do-cerrado"}], "externalCode": "pedido-0001", "externalCode": "pedido-0002"}`, "application/json", 400, "invalid_json"},
		{"nested duplicate", `{"items": [{"productId": "a", "productId": "b"}]}`, "application/json", 400, "invalid_json"},
		{"two values", `{} {}`, "application/json", 400, "invalid_json"},
		{"not an object", `[1, 2]`, "application/json", 422, "invalid"},
		{"form body", `items=1`, "application/x-www-form-urlencoded", 415, "unsupported_media_type"},
		{"no content type", `{}`, "", 415, "unsupported_media_type"},
		{"too large", `{"metadata": {"k": "` + strings.Repeat("x", web.MaxAPIBytes) + `"}}`, "application/json", 413, "payload_too_large"},
	}
	for _, c := range cases {
		res := e.api("POST", "/api/v1/checkout-sessions", c.body, "Content-Type", c.ctype)
		if res.status != c.status || res.errorCode() != c.code {
			t.Errorf("%s: %d %s, want %d %s", c.name, res.status, res.body, c.status, c.code)
		}
		if e, _ := res.json["error"].(map[string]any); e["requestId"] == "" || e["requestId"] == nil {
			t.Errorf("%s: no requestId", c.name)
		}
	}
	if res := e.api("GET", "/api/v1/nothing-here", nil); res.status != 404 || res.errorCode() != "not_found" {
		t.Errorf("unknown route: %d %s", res.status, res.body)
	}
	if res := e.api("DELETE", "/api/v1/orders", nil); res.status != 405 || res.errorCode() != "method_not_allowed" {
		t.Errorf("unknown method: %d %s", res.status, res.body)
	}
	if res := e.api("GET", "/api/v2/orders", nil); res.status != 404 || res.errorCode() != "not_found" {
		t.Errorf("unknown version: %d %s", res.status, res.body)
	}
}

// deepSession is a session request whose metadata nests levels arrays: the body's own object
// is the first level, metadata's value the second.
func deepSession(levels int) string {
	n := levels - 1
	return `{"items":[{"productId":"ebook-receitas-do-cerrado"}],"metadata":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
}

// TestAPIRefusesDeepNesting: a body nested deeper than strictjson.MaxDepth levels is a 400
// naming the problem, however deep it goes; at the limit it is read (and metadata's wrong type
// is reported as usual).
func TestAPIRefusesDeepNesting(t *testing.T) {
	e := newEnv(t)
	for _, levels := range []int{strictjson.MaxDepth + 1, 40_000} {
		res := e.api("POST", "/api/v1/checkout-sessions", deepSession(levels))
		msg, _ := res.json["error"].(map[string]any)["message"].(string)
		if res.status != 400 || res.errorCode() != "invalid_json" ||
			!strings.HasPrefix(msg, "the body nests arrays and objects deeper than 64 levels (in metadata[0][0]") {
			t.Errorf("%d levels: %d %.300s", levels, res.status, res.body)
		}
	}
	res := e.api("POST", "/api/v1/checkout-sessions", deepSession(strictjson.MaxDepth))
	if res.status != 422 || strings.Join(res.fields(), ",") != "metadata type" {
		t.Errorf("%d levels: %d %s", strictjson.MaxDepth, res.status, res.body)
	}
}

// BenchmarkAPIDeepBody posts an 80 KB session request nesting 40,000 arrays in its metadata
// through the whole handler chain: before the depth limit it took 4.3 GB and 18 s.
func BenchmarkAPIDeepBody(b *testing.B) {
	e := newEnv(b)
	h := e.web.Handler()
	body := deepSession(40_000)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/checkout-sessions", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testConfiguredKey)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusBadRequest {
			b.Fatalf("status %d: %.200s", rec.Code, rec.Body)
		}
	}
}

func TestAPIIdempotency(t *testing.T) {
	e := newEnv(t)
	first := e.api("POST", "/api/v1/checkout-sessions", sessionBody(), "Idempotency-Key", "pedido-123-a")
	if first.status != 201 {
		t.Fatalf("first: %d %s", first.status, first.body)
	}
	// The same request, written differently (indentation, key order): the same session.
	pretty, _ := json.MarshalIndent(sessionBody(), "", "   ")
	again := e.api("POST", "/api/v1/checkout-sessions", string(pretty), "Idempotency-Key", "pedido-123-a")
	if again.status != 200 || again.json["id"] != first.json["id"] || again.header.Get(web.IdempotentReplayedHeader) != "true" {
		t.Errorf("replay: %d %s", again.status, again.body)
	}
	other := sessionBody()
	other["externalCode"] = "pedido-000999"
	res := e.api("POST", "/api/v1/checkout-sessions", other, "Idempotency-Key", "pedido-123-a")
	if res.status != 422 || res.errorCode() != "idempotency_key_reused" {
		t.Errorf("same key, another body: %d %s", res.status, res.body)
	}
	if res := e.api("POST", "/api/v1/checkout-sessions", sessionBody(), "Idempotency-Key", strings.Repeat("k", 256)); res.status != 422 {
		t.Errorf("a key too long: %d %s", res.status, res.body)
	}
	// Without a key, each request is a new session.
	a := e.api("POST", "/api/v1/checkout-sessions", sessionBody())
	b := e.api("POST", "/api/v1/checkout-sessions", sessionBody())
	if a.json["id"] == b.json["id"] {
		t.Error("two requests without a key made one session")
	}
	// Concurrent duplicates: one session.
	const n = 12
	ids := make(chan any, n)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			res := e.api("POST", "/api/v1/checkout-sessions", sessionBody(), "Idempotency-Key", "pedido-concorrente")
			if res.status != 201 && res.status != 200 {
				t.Errorf("concurrent: %d %s", res.status, res.body)
			}
			ids <- res.json["id"]
		})
	}
	wg.Wait()
	close(ids)
	seen := map[any]bool{}
	for id := range ids {
		seen[id] = true
	}
	if len(seen) != 1 {
		t.Errorf("%d concurrent duplicates made %d sessions", n, len(seen))
	}
}

func TestAPIListOrders(t *testing.T) {
	e := newEnv(t)
	var paid string
	for i := range 3 {
		pay := e.placeOrder()
		if i == 0 {
			paid = orderID(pay)
			e.post(pay+"/sandbox-pay", nil)
		}
	}
	all := e.api("GET", "/api/v1/orders?perPage=2", nil)
	data, _ := all.json["data"].([]any)
	if all.status != 200 || len(data) != 2 || all.json["hasMore"] != true {
		t.Fatalf("page 1: %d %s", all.status, all.body)
	}
	page2 := e.api("GET", "/api/v1/orders?perPage=2&page=2", nil)
	if data, _ := page2.json["data"].([]any); len(data) != 1 || page2.json["hasMore"] != false {
		t.Errorf("page 2: %s", page2.body)
	}
	onlyPaid := e.api("GET", "/api/v1/orders?status=paid", nil)
	data, _ = onlyPaid.json["data"].([]any)
	if len(data) != 1 || data[0].(map[string]any)["id"] != paid || data[0].(map[string]any)["amountPaid"] != float64(2990) {
		t.Errorf("status=paid: %s", onlyPaid.body)
	}
	o := e.api("GET", "/api/v1/orders/"+paid, nil)
	if o.status != 200 || o.json["status"] != "paid" || o.json["depositId"] == "" || o.json["channel"] != "shop" {
		t.Errorf("order: %d %s", o.status, o.body)
	}
	// The history says why in the English words it always had, and as a code.
	var history []string
	for _, h := range o.json["history"].([]any) {
		h := h.(map[string]any)
		history = append(history, fmt.Sprint(h["to"], ": ", h["reason"], " (", h["reasonCode"], ")"))
	}
	if got := strings.Join(history, "; "); got != "pending: order placed (order_placed); awaiting_payment: qr code generated (qr_generated); "+
		"paid: deposit PAID (deposit)" {
		t.Errorf("the order's history: %s", got)
	}
	bad := e.api("GET", "/api/v1/orders?status=shipped&perPage=500&createdFrom=yesterday&page=x", nil)
	got := strings.Join(bad.fields(), ",")
	if bad.status != 422 || got != "createdFrom format,page integer,perPage max,status[0] enum" {
		t.Errorf("bad filters: %d %s", bad.status, got)
	}
	// Paged by cursor: an order placed between two pages repeats no row; previousCursor leads
	// back to the first page's rows.
	ids := func(r apiResult) []string {
		var out []string
		data, _ := r.json["data"].([]any)
		for _, d := range data {
			out = append(out, d.(map[string]any)["id"].(string))
		}
		return out
	}
	first := e.api("GET", "/api/v1/orders?perPage=2", nil)
	next, _ := first.json["nextCursor"].(string)
	if next == "" || first.json["page"] != float64(1) || first.json["previousCursor"] != nil {
		t.Fatalf("page 1 by cursor: %s", first.body)
	}
	newest := orderID(e.placeOrder())
	second := e.api("GET", "/api/v1/orders?perPage=2&cursor="+next, nil)
	if got := ids(second); len(got) != 1 || got[0] != paid || second.json["hasMore"] != false ||
		second.json["nextCursor"] != nil || second.json["page"] != nil {
		t.Errorf("page 2 by cursor after an order was placed: %s", second.body)
	}
	if slices.Contains(ids(second), ids(first)[0]) || slices.Contains(ids(second), ids(first)[1]) || slices.Contains(ids(second), newest) {
		t.Errorf("page 2 repeats a row of page 1 or shows the new order: %v, %v", ids(first), ids(second))
	}
	prev, _ := second.json["previousCursor"].(string)
	back := e.api("GET", "/api/v1/orders?perPage=2&cursor="+prev, nil)
	if !slices.Equal(ids(back), ids(first)) || back.json["previousCursor"] == nil || back.json["hasMore"] != true {
		t.Errorf("back from page 2: %v, want %v (%s)", ids(back), ids(first), back.body)
	}
	for _, tc := range []struct{ query, want string }{
		{"cursor=not-a-cursor", "cursor format"},
		// The dashboard's cursor of its sort by amount: not a cursor of this list.
		{"cursor=" + checkout.Cursor{Key: checkout.OrderKey{Amount: 2990, ID: "x"}, Sort: checkout.SortAmountDesc}.String(), "cursor format"},
		{"cursor=" + next + "&page=2", "page range"},
		{"page=102&perPage=100", "page max"},
		{"page=501", "page max"},
	} {
		if r := e.api("GET", "/api/v1/orders?"+tc.query, nil); r.status != 422 || strings.Join(r.fields(), ",") != tc.want {
			t.Errorf("%s: %d %v; want %s", tc.query, r.status, r.fields(), tc.want)
		}
	}
	if r := e.api("GET", "/api/v1/orders?page=101&perPage=99", nil); r.status != 200 {
		t.Errorf("page 101 of 99 (an offset of 9,900): %d %s", r.status, r.body)
	}
}

// TestAPINotificationLog: every change of an order's state leaves a notification in the
// outbox, written with the change; the API lists them newest first, filters them, and shows
// one with its body (the order as the API shows it).
func TestAPINotificationLog(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	id := orderID(pay)
	e.post(pay+"/sandbox-pay", nil)
	e.waitStatus(id, "paid")
	other := orderID(e.placeOrder())

	all := e.api("GET", "/api/v1/notifications", nil)
	data, _ := all.json["data"].([]any)
	var got []string
	for _, d := range data {
		m := d.(map[string]any)
		got = append(got, fmt.Sprint(m["orderId"] == id, " ", m["type"], " ", m["status"]))
	}
	want := "false order.awaiting_payment pending,true order.paid pending,true order.awaiting_payment pending"
	if all.status != 200 || strings.Join(got, ",") != want || all.json["hasMore"] != false {
		t.Fatalf("notifications: %d %v; want %s\n%s", all.status, got, want, all.body)
	}
	byOrder := e.api("GET", "/api/v1/notifications?orderId="+other, nil)
	if d, _ := byOrder.json["data"].([]any); len(d) != 1 {
		t.Errorf("orderId filter: %s", byOrder.body)
	}
	paid := e.api("GET", "/api/v1/notifications?type=order.paid&status=pending&perPage=1", nil)
	d, _ := paid.json["data"].([]any)
	if len(d) != 1 || paid.json["hasMore"] != false {
		t.Fatalf("type filter: %s", paid.body)
	}
	nid := d[0].(map[string]any)["id"].(string)
	if d2 := e.api("GET", "/api/v1/notifications?perPage=1&page=2", nil); d2.json["hasMore"] != true {
		t.Errorf("page 2 of 3 says no more: %s", d2.body)
	}
	// By cursor, one at a time: the three, newest first, then back.
	var byCursor []string
	cursor, prev := "", ""
	for range 3 {
		pg := e.api("GET", "/api/v1/notifications?perPage=1&cursor="+cursor, nil)
		d, _ := pg.json["data"].([]any)
		if pg.status != 200 || len(d) != 1 {
			t.Fatalf("notifications by cursor: %d %s", pg.status, pg.body)
		}
		byCursor = append(byCursor, d[0].(map[string]any)["id"].(string))
		cursor, _ = pg.json["nextCursor"].(string)
		prev, _ = pg.json["previousCursor"].(string)
	}
	var firstIDs []string
	for _, x := range data {
		firstIDs = append(firstIDs, x.(map[string]any)["id"].(string))
	}
	if !slices.Equal(byCursor, firstIDs) || cursor != "" {
		t.Errorf("by cursor %v (last nextCursor %q), want %v", byCursor, cursor, firstIDs)
	}
	if back := e.api("GET", "/api/v1/notifications?perPage=1&cursor="+prev, nil); back.status != 200 ||
		back.json["data"].([]any)[0].(map[string]any)["id"] != firstIDs[1] {
		t.Errorf("back from the last: %s", back.body)
	}
	one := e.api("GET", "/api/v1/notifications/"+nid, nil)
	payload, _ := one.json["payload"].(map[string]any)
	order, _ := payload["data"].(map[string]any)
	if one.status != 200 || payload["type"] != "order.paid" || order["id"] != id || order["status"] != "paid" ||
		order["amountPaid"] != float64(2990) {
		t.Errorf("notification: %d %s", one.status, one.body)
	}
	if as, _ := one.json["deliveryAttempts"].([]any); as == nil || len(as) != 0 {
		t.Errorf("deliveryAttempts of an undelivered notification: %v", one.json["deliveryAttempts"])
	}
	if miss := e.api("GET", "/api/v1/notifications/msg_missing", nil); miss.status != 404 || miss.errorCode() != "not_found" {
		t.Errorf("unknown notification: %d %s", miss.status, miss.body)
	}
	bad := e.api("GET", "/api/v1/notifications?status=sent&perPage=0&orderId=a&orderId=b", nil)
	if g := strings.Join(bad.fields(), ","); bad.status != 422 || g != "orderId duplicate,perPage min,status enum" {
		t.Errorf("bad filters: %d %s", bad.status, g)
	}
	if anon := e.api("GET", "/api/v1/notifications", nil, "Authorization", ""); anon.status != 401 {
		t.Errorf("without a key: %d", anon.status)
	}

	// Delivered, each attempt shows the start of the answer; a test notification of the
	// dashboard is in the same log but not in the API's, which is of order events.
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "thanks from the ERP")
	}))
	t.Cleanup(rcv.Close)
	ob, err := e.store.Outbox(outbox.Options{Route: func(context.Context) (outbox.Target, error) {
		return outbox.Target{URL: rcv.URL, Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", Trusted: true}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := ob.DeliverDue(context.Background()); n != 3 || err != nil {
		t.Fatalf("delivered %d: %v", n, err)
	}
	ping := &notify.PingResult{ID: "msg_ping", At: time.Now(), URL: rcv.URL, StatusCode: 200, Excerpt: "pong",
		Body: []byte(`{"type":"ping"}`)}
	if err := notify.NewDeliveryLog(ob).RecordPing(context.Background(), ping); err != nil {
		t.Fatal(err)
	}
	if after := e.api("GET", "/api/v1/notifications", nil); len(after.json["data"].([]any)) != 3 ||
		bytes.Contains(after.body, []byte("msg_ping")) {
		t.Errorf("the API lists a test notification: %s", after.body)
	}
	if p := e.api("GET", "/api/v1/notifications/msg_ping", nil); p.status != 404 {
		t.Errorf("a test notification by the API: %d %s", p.status, p.body)
	}
	one = e.api("GET", "/api/v1/notifications/"+nid, nil)
	if as, _ := one.json["deliveryAttempts"].([]any); len(as) != 1 ||
		as[0].(map[string]any)["responseExcerpt"] != "thanks from the ERP" {
		t.Errorf("a delivered notification's attempts: %s", one.body)
	}
}

// TestAPIMethodNotAllowedSaysAllow: on every path of the API, a method the path does not take
// is a 405 whose Allow header lists the methods it takes (RFC 9110 §15.5.6): those the document
// gives it, and HEAD with GET.
func TestAPIMethodNotAllowedSaysAllow(t *testing.T) {
	e := newEnv(t)
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	methods := []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PURGE"}
	paths := spec.Doc.Paths.Map()
	for tmpl, item := range paths {
		ops := item.Operations()
		var allow []string
		for _, m := range methods {
			if ops[m] != nil || m == "HEAD" && ops["GET"] != nil {
				allow = append(allow, m)
			}
		}
		path := web.APIPrefix + strings.ReplaceAll(tmpl, "{id}", "x")
		for _, m := range methods {
			if slices.Contains(allow, m) {
				continue
			}
			res := e.do(m, path, nil, "Authorization", "Bearer "+testConfiguredKey)
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != 405 || res.Header.Get("Allow") != strings.Join(allow, ", ") ||
				m != "HEAD" && !strings.Contains(string(body), `"code":"method_not_allowed"`) {
				t.Errorf("%s %s: %d, Allow %q, want %q: %s", m, path, res.StatusCode, res.Header.Get("Allow"), strings.Join(allow, ", "), body)
			}
		}
	}
	if len(paths) < 6 {
		t.Errorf("only %d documented paths", len(paths))
	}
	// A method nothing knows, on a path nothing serves: there is no resource to allow anything.
	if res := e.api("PURGE", "/api/v1/nothing-here", nil); res.status != 404 || res.header.Get("Allow") != "" {
		t.Errorf("PURGE on no route: %d, Allow %q", res.status, res.header.Get("Allow"))
	}
}

// TestAPIReportsOnlyWhatIsTrueOfItems: an item that cannot be resolved (an unknown product, a
// productId that is empty or not a string, an item that is not an object) is reported for what
// it is, and for nothing else: neither as an ad-hoc item missing its title, nor through a total
// computed without it; the items after it keep their index.
func TestAPIReportsOnlyWhatIsTrueOfItems(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct{ body, want string }{
		{`{"items":[{"productId":"no-such-product"}]}`, "items[0].productId unknown_product"},
		{`{"items":[{"productId":"no-such-product"},{"productId":"ebook-receitas-do-cerrado"}]}`, "items[0].productId unknown_product"},
		{`{"items":[{"productId":""}]}`, "items[0].productId min_length"},
		{`{"items":[{"productId":5,"quantity":2}]}`, "items[0].productId type"},
		{`{"items":["x",{"title":"X","unitPrice":500,"type":"DIGITAL"}]}`, "items[0] type,items[1].title min_length"},
		{`{"items":[null,{"productId":"ebook-receitas-do-cerrado","quantity":0}]}`, "items[0] type,items[1].quantity min"},
		// A total computed from a refused price is not the merchant's either.
		{`{"items":[{"title":"Grátis","unitPrice":0,"type":"DIGITAL"}]}`, "items[0].unitPrice min"},
	} {
		res := e.api("POST", "/api/v1/checkout-sessions", c.body)
		if got := strings.Join(res.fields(), ","); res.status != 422 || got != c.want {
			t.Errorf("%s: %d %s, want %s", c.body, res.status, got, c.want)
		}
	}
	res := e.api("POST", "/api/v1/checkout-sessions", `{"items":[{"productId":""}]}`)
	if msg := fmt.Sprint(res.json["error"]); !strings.Contains(msg, "must not be empty") {
		t.Errorf("an empty productId is not explained: %s", res.body)
	}
}

// TestAPIUnderpaidOrderShowsWhatWasPaid: a deposit paid short of the order's amount leaves the
// order under review, and the API's amountPaid says what was received, as the history does.
func TestAPIUnderpaidOrderShowsWhatWasPaid(t *testing.T) {
	e := newEnv(t)
	id := orderID(e.placeOrder())
	o, err := e.svc.Order(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	short := o.Amount - 1990
	if _, err := e.sb.ControlDeposit(context.Background(), "checkout", o.CurrentAttempt().TransactionID, sandbox.ActionPay,
		sandbox.DepositControl{AmountPaid: &short}); err != nil {
		t.Fatal(err)
	}
	if o, err = e.svc.RefreshFromGateway(context.Background(), id); err != nil || o.Status != checkout.StatusUnderReview {
		t.Fatalf("after an underpayment: %v, %v", o.Status, err)
	}
	got := e.api("GET", "/api/v1/orders/"+id, nil)
	want := fmt.Sprintf("underpaid: %d of %d cents paid", short, o.Amount)
	hist, _ := got.json["history"].([]any)
	last, _ := hist[len(hist)-1].(map[string]any)
	if got.json["status"] != "under_review" || last["reason"] != want || got.json["amountPaid"] != float64(short) {
		t.Errorf("underpaid order: status %v, last reason %v, amountPaid %v; want under_review, %q, %d",
			got.json["status"], last["reason"], got.json["amountPaid"], want, short)
	}
}
