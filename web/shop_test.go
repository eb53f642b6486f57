package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

func TestCatalogueListsProducts(t *testing.T) {
	e := newEnv(t)
	res, doc := e.get("/")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	if n := doc.Find(testid("product-card")).Length(); n != 5 {
		t.Errorf("%d product cards, want the 5 demo products", n)
	}
	if n := doc.Find(testid("add-to-cart")).Length(); n != 5 {
		t.Errorf("%d add-to-cart buttons", n)
	}
	if lang, _ := doc.Find("html").Attr("lang"); lang != "pt-BR" {
		t.Errorf("default language %q, want pt-BR", lang)
	}
	_, doc = e.get("/", "Accept-Language", "en-US,en;q=0.9")
	if lang, _ := doc.Find("html").Attr("lang"); lang != "en" {
		t.Errorf("Accept-Language en: lang %q", lang)
	}
	_, doc = e.get("/?lang=pt-BR", "Accept-Language", "en-US")
	if lang, _ := doc.Find("html").Attr("lang"); lang != "pt-BR" {
		t.Errorf("?lang= must win over Accept-Language: lang %q", lang)
	}
}

func TestCartAddUpdateRemove(t *testing.T) {
	e := newEnv(t)
	// A forged price is ignored: prices come from the catalogue.
	res, _ := e.post("/cart", url.Values{"product_id": {"caneca-de-ceramica"}, "quantity": {"2"}, "price": {"1"}, "unit_price": {"1"}})
	cart := e.location(res)
	if !strings.HasPrefix(cart, "/cart/") || len(cart) < len("/cart/")+26 {
		t.Fatalf("cart path %q: want an unguessable id", cart)
	}
	_, doc := e.get(cart)
	if got := strings.TrimSpace(doc.Find(testid("cart-total")).Text()); got != "R$ 118,00" {
		t.Errorf("total %q, want R$ 118,00 (2 × 59,00)", got)
	}
	res, _ = e.post(cart+"/items", url.Values{"product_id": {"ebook-receitas-do-cerrado"}, "quantity": {"1"}})
	e.location(res)
	_, doc = e.get(cart)
	if n := doc.Find(testid("cart-line")).Length(); n != 2 {
		t.Fatalf("%d cart lines, want 2", n)
	}
	if got := strings.TrimSpace(doc.Find(testid("cart-total")).Text()); got != "R$ 147,90" {
		t.Errorf("total %q, want R$ 147,90", got)
	}
	// Change a quantity through the line's own form.
	update, ok := doc.Find(`[data-product-id="caneca-de-ceramica"] form`).First().Attr("action")
	if !ok {
		t.Fatal("no update form")
	}
	res, _ = e.post(update, url.Values{"product_id": {"caneca-de-ceramica"}, "quantity": {"3"}})
	e.location(res)
	_, doc = e.get(cart)
	if got := strings.TrimSpace(doc.Find(testid("cart-total")).Text()); got != "R$ 206,90" {
		t.Errorf("total %q, want R$ 206,90 (3 × 59,00 + 29,90)", got)
	}
	// Quantities outside 1..100 are refused with a message beside the line, the input kept.
	for _, q := range []string{"0", "101", "abc"} {
		res, doc := e.post(update, url.Values{"product_id": {"caneca-de-ceramica"}, "quantity": {q}})
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("quantity %s: status %d, want 422", q, res.StatusCode)
		}
		line := doc.Find(`[data-product-id="caneca-de-ceramica"]`)
		if msg := line.Find(testid("field-error")).Text(); !strings.Contains(msg, "1 a 100") {
			t.Errorf("quantity %s: message %q", q, msg)
		}
		if v, _ := line.Find(`input[name="quantity"]`).Attr("value"); v != q {
			t.Errorf("quantity %s: input shows %q", q, v)
		}
	}
	res, doc = e.post(update, url.Values{"product_id": {"caneca-de-ceramica"}, "quantity": {"101"}}, "Accept-Language", "en")
	if msg := doc.Find(testid("field-error")).Text(); res.StatusCode != 422 || !strings.Contains(msg, "1 to 100") {
		t.Errorf("English quantity message %q (status %d)", msg, res.StatusCode)
	}
	_, doc = e.get(cart)
	if got := strings.TrimSpace(doc.Find(testid("cart-total")).Text()); got != "R$ 206,90" {
		t.Errorf("a refused change altered the cart: total %q", got)
	}
	// Remove both lines.
	for _, pid := range []string{"caneca-de-ceramica", "ebook-receitas-do-cerrado"} {
		action, _ := doc.Find(`[data-product-id="` + pid + `"] ` + testid("remove-line")).Closest("form").Attr("action")
		res, _ = e.post(action, url.Values{"product_id": {pid}})
		e.location(res)
		_, doc = e.get(cart)
	}
	if doc.Find(testid("cart-line")).Length() != 0 || doc.Find(testid("cart-empty")).Length() != 1 {
		t.Error("the cart is not empty after removing every line")
	}
}

func TestCartWorksWithoutCookiesAndKeepsLang(t *testing.T) {
	e := newEnv(t)
	res, _ := e.post("/cart?lang=en", url.Values{"product_id": {"ebook-receitas-do-cerrado"}})
	if len(res.Cookies()) == 0 {
		t.Error("the cart cookie is not set at the top level")
	}
	for _, c := range res.Cookies() {
		if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode {
			t.Errorf("cookie %s: HttpOnly %v SameSite %v", c.Name, c.HttpOnly, c.SameSite)
		}
	}
	cart := e.location(res)
	if !strings.HasSuffix(cart, "?lang=en") {
		t.Errorf("redirect %q loses the explicit language", cart)
	}
	// No cookie is sent back: the id in the URL is enough.
	_, doc := e.get(cart)
	if lang, _ := doc.Find("html").Attr("lang"); lang != "en" {
		t.Errorf("lang %q", lang)
	}
	href, _ := doc.Find(testid("go-to-checkout")).Attr("href")
	if !strings.Contains(href, "lang=en") {
		t.Errorf("checkout link %q loses the language", href)
	}
	res, doc = e.get(href)
	if res.StatusCode != 200 || doc.Find(testid("checkout-form")).Length() != 1 {
		t.Fatalf("customer form without cookies: status %d", res.StatusCode)
	}
}

func TestAddressBlockOnlyForPhysicalCarts(t *testing.T) {
	e := newEnv(t)
	_, doc := e.get(e.newCart("ebook-receitas-do-cerrado", "1") + "/checkout")
	if doc.Find(testid("address-block")).Length() != 0 || doc.Find(`input[name="zip_code"]`).Length() != 0 {
		t.Error("a digital cart asks for an address")
	}
	_, doc = e.get(e.newCart("ebook-receitas-do-cerrado", "1", "camiseta-ipe-amarelo", "1") + "/checkout")
	if doc.Find(testid("address-block")).Length() != 1 || doc.Find(`input[name="zip_code"]`).Length() != 1 {
		t.Error("a physical cart does not ask for an address")
	}
}

func TestInvalidCPFBothLanguages(t *testing.T) {
	cases := []struct {
		lang, header, want string
	}{
		{"", "", "Informe um CPF ou CNPJ válido."},
		{"?lang=en", "", "Enter a valid CPF or CNPJ."},
		{"", "en-GB", "Enter a valid CPF or CNPJ."},
	}
	for _, tc := range cases {
		e := newEnv(t)
		cart := e.newCart("caneca-de-ceramica", "1")
		var hdr []string
		if tc.header != "" {
			hdr = []string{"Accept-Language", tc.header}
		}
		_, doc := e.get(cart+"/checkout"+tc.lang, hdr...)
		form := customer(requestKey(t, doc))
		form.Set("document", "123.456.789-00")
		form.Set("complement", "Apto 12")
		res, doc := e.post(cart+"/checkout"+tc.lang, form, hdr...)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("%s%s: status %d, want 422", tc.lang, tc.header, res.StatusCode)
		}
		field := doc.Find(`input[name="document"]`).Closest(".field")
		if got := strings.TrimSpace(field.Find(testid("field-error")).Text()); got != tc.want {
			t.Errorf("%s%s: error beside document %q, want %q", tc.lang, tc.header, got, tc.want)
		}
		if inv, _ := doc.Find(`input[name="document"]`).Attr("aria-invalid"); inv != "true" {
			t.Error("document not marked aria-invalid")
		}
		summary := doc.Find(testid("error-summary"))
		if summary.Length() != 1 || !strings.Contains(summary.Text(), tc.want) {
			t.Errorf("summary %q", summary.Text())
		}
		for name, want := range map[string]string{"name": "Maria da Silva", "document": "123.456.789-00",
			"email": "maria@example.com.br", "phone": "(11) 98765-4321", "zip_code": "01310-100",
			"street": "Avenida Paulista", "complement": "Apto 12", "city": "São Paulo"} {
			if v, _ := doc.Find(`input[name="` + name + `"]`).Attr("value"); v != want {
				t.Errorf("%s kept as %q, want %q", name, v, want)
			}
		}
		if v, _ := doc.Find(`select[name="state"] option[selected]`).Attr("value"); v != "SP" {
			t.Errorf("state kept as %q", v)
		}
		if doc.Find(testid("field-error")).Length() != 1 {
			t.Errorf("%d field errors, want only the document's", doc.Find(testid("field-error")).Length())
		}
		if e.gw.creates.Load() != 0 {
			t.Error("invalid input reached the gateway")
		}
	}
}

func TestMissingFieldsListedInSummary(t *testing.T) {
	e := newEnv(t)
	cart := e.newCart("caneca-de-ceramica", "1")
	_, doc := e.get(cart + "/checkout")
	res, doc := e.post(cart+"/checkout", url.Values{"request_key": {requestKey(t, doc)}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, name := range []string{"name", "document", "email", "phone", "zip_code", "street", "number", "neighborhood", "city"} {
		if doc.Find(`input[name="`+name+`"]`).Closest(".field").Find(testid("field-error")).Length() != 1 {
			t.Errorf("no error beside %s", name)
		}
	}
	if n := doc.Find(testid("error-summary") + " li").Length(); n < 9 {
		t.Errorf("summary lists %d errors", n)
	}
}

func TestGateway422MappedOntoFields(t *testing.T) {
	e := newEnv(t)
	e.gw.mu.Lock()
	e.gw.failCreate = &gatewayclient.APIError{StatusCode: 422, Kind: gatewayclient.KindValidation, Method: "POST", Path: "/transaction",
		Messages: []string{"customer.email: must be a valid e-mail address", "customer.document: must be a valid CPF or CNPJ"}}
	e.gw.mu.Unlock()
	cart := e.newCart("ebook-receitas-do-cerrado", "1")
	_, doc := e.get(cart + "/checkout?lang=en")
	res, doc := e.post(cart+"/checkout?lang=en", customer(requestKey(t, doc)))
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", res.StatusCode)
	}
	for name, want := range map[string]string{"email": "Enter a valid email address", "document": "Enter a valid CPF or CNPJ"} {
		got := doc.Find(`input[name="` + name + `"]`).Closest(".field").Find(testid("field-error")).Text()
		if !strings.Contains(got, want) {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if v, _ := doc.Find(`input[name="name"]`).Attr("value"); v != "Maria da Silva" {
		t.Errorf("name not kept: %q", v)
	}
}

func TestConcurrentSubmissionsMakeOneTransaction(t *testing.T) {
	e := newEnv(t)
	cart := e.newCart("ebook-receitas-do-cerrado", "2")
	_, doc := e.get(cart + "/checkout")
	form := customer(requestKey(t, doc)).Encode()
	const n = 50
	var wg sync.WaitGroup
	locs := make([]string, n)
	codes := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, e.srv.URL+cart+"/checkout", strings.NewReader(form))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			res, err := e.http.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			res.Body.Close()
			codes[i], locs[i] = res.StatusCode, res.Header.Get("Location")
		}()
	}
	wg.Wait()
	for i := range n {
		if codes[i] != http.StatusSeeOther || locs[i] != locs[0] || !strings.HasPrefix(locs[0], "/pay/") {
			t.Fatalf("submission %d: %d %q; first %q", i, codes[i], locs[i], locs[0])
		}
	}
	page, err := e.client.ListDeposits(context.Background(), gatewayclient.DepositFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 || len(page.Data) != 1 {
		t.Fatalf("the sandbox holds %d transactions, want 1", page.Total)
	}
	if page.Data[0].Amount != 5980 {
		t.Errorf("amount %d, want 5980", page.Data[0].Amount)
	}
	_, doc = e.get(locs[0])
	if strings.TrimSpace(doc.Find(testid("pix-code")).Text()) == "" {
		t.Error("the PIX page has no code")
	}
}

// formAction returns the action of the form holding sel.
func formAction(doc *goquery.Document, sel string) string {
	a, _ := doc.Find(sel).Closest("form").Attr("action")
	return a
}

func TestAddToNewCartRefusals(t *testing.T) {
	e := newEnv(t)
	res, doc := e.post("/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}, "quantity": {"0"}})
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Text(), "1 a 100") {
		t.Errorf("quantity 0: %d", res.StatusCode)
	}
	if len(res.Cookies()) != 0 {
		t.Error("a refused add started a session")
	}
	res, _ = e.post("/cart", url.Values{"product_id": {"no-such-product"}})
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown product: %d, want 404", res.StatusCode)
	}
}

func TestContinueShoppingKeepsTheCartWithoutCookies(t *testing.T) {
	e := newEnv(t)
	cart := e.newCart("ebook-receitas-do-cerrado", "1")
	_, doc := e.get(cart)
	back, ok := doc.Find(`a[href*="?cart="]`).Attr("href")
	if !ok {
		t.Fatal("no link back to the catalogue naming the cart")
	}
	_, doc = e.get(back)
	if got, _ := doc.Find(testid("cart-link")).Attr("href"); got != cart {
		t.Errorf("catalogue links to cart %q, want %q", got, cart)
	}
	action := formAction(doc, `[data-product-id="caneca-de-ceramica"] `+testid("add-to-cart"))
	res, _ := e.post(action, url.Values{"product_id": {"caneca-de-ceramica"}, "quantity": {"1"}})
	if loc := e.location(res); loc != cart {
		t.Errorf("add from the catalogue went to %q, want the same cart %q", loc, cart)
	}
	_, doc = e.get(cart)
	if n := doc.Find(testid("cart-line")).Length(); n != 2 {
		t.Errorf("%d lines, want 2", n)
	}
}

// TestNewCartsAreLimitedPerAddress: one client address may start a burst of carts, then gets a
// 429 with Retry-After and no cart is made; adding to an existing cart is not limited.
func TestNewCartsAreLimitedPerAddress(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.newCartBurst = 3 })
	var carts []string
	for range 3 {
		res, _ := e.post("/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}})
		carts = append(carts, e.location(res))
	}
	res, doc := e.post("/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}})
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Fatalf("fourth new cart: %d, Retry-After %q; want 429 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if !strings.Contains(doc.Text(), "carrinhos novos") {
		t.Errorf("the 429 page does not say why: %q", doc.Find("main").Text())
	}
	res, _ = e.post(carts[0]+"/items", url.Values{"product_id": {"caneca-de-ceramica"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("adding to an existing cart after the limit: %d, want 303", res.StatusCode)
	}
}

// TestCEPLookup: GET /cep/{cep} answers the address of a known CEP (cacheable: it holds
// nothing personal), 404 for an unknown one, 422 for what is no CEP; the form points its script
// at it.
func TestCEPLookup(t *testing.T) {
	e := newEnv(t)
	res := e.do(http.MethodGet, "/cep/01310-100", nil)
	var a struct{ CEP, Street, Neighborhood, City, State string }
	if err := json.NewDecoder(res.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || a.Street != "Avenida Paulista" || a.City != "São Paulo" || a.State != "SP" ||
		!strings.Contains(res.Header.Get("Cache-Control"), "max-age") {
		t.Errorf("known CEP: %d %+v, Cache-Control %q", res.StatusCode, a, res.Header.Get("Cache-Control"))
	}
	for path, want := range map[string]int{"/cep/12345-678": http.StatusNotFound, "/cep/123": http.StatusUnprocessableEntity} {
		res := e.do(http.MethodGet, path, nil)
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("%s: %d, want %d", path, res.StatusCode, want)
		}
	}
	cart := e.newCart("caneca-de-ceramica", "1")
	_, doc := e.get(cart + "/checkout")
	if u, _ := doc.Find(`form[data-testid="checkout-form"]`).Attr("data-cep-url"); u != "/cep/" {
		t.Errorf("the form's lookup URL is %q", u)
	}
}

// TestPhysicalOrderWithoutCountryIsBrazilian: the form asks no country; the order and the
// gateway's request say Brasil.
func TestPhysicalOrderWithoutCountryIsBrazilian(t *testing.T) {
	e := newEnv(t)
	cart := e.newCart("caneca-de-ceramica", "1")
	_, doc := e.get(cart + "/checkout")
	form := url.Values{"request_key": {requestKey(t, doc)}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"},
		"email": {"maria@example.com.br"}, "phone": {"(11) 98765-4321"}, "zip_code": {"01310-100"},
		"street": {"Avenida Paulista"}, "number": {"1000"}, "neighborhood": {"Bela Vista"}, "city": {"São Paulo"}, "state": {"SP"}}
	res, _ := e.post(cart+"/checkout", form)
	pay := e.location(res)
	o, err := e.svc.Order(context.Background(), strings.TrimPrefix(pay, "/pay/"))
	if err != nil {
		t.Fatal(err)
	}
	if o.Address == nil || o.Address.Country != "Brasil" {
		t.Errorf("address %+v, want country Brasil", o.Address)
	}
}

// The browser remembers the current cart in a cookie holding its id, and nothing else: adding
// from the catalogue goes to that cart, and the cookie is forgotten once the cart became an
// order.
func TestCartCookieRemembersTheCart(t *testing.T) {
	e := newEnv(t)
	res, _ := e.post("/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}})
	cart := e.location(res)
	var remembered *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "checkout_cart" {
			remembered = c
		}
	}
	if remembered == nil || "/cart/"+remembered.Value != cart || !remembered.HttpOnly ||
		remembered.SameSite != http.SameSiteLaxMode || remembered.Path != "/" || remembered.MaxAge != 0 {
		t.Fatalf("cart cookie %+v for %s", remembered, cart)
	}
	cookie := "checkout_cart=" + remembered.Value

	// The catalogue adds to the remembered cart, and so does POST /cart without a cart named.
	_, doc := e.get("/", "Cookie", cookie)
	if action := formAction(doc, testid("add-to-cart")); action != cart+"/items" {
		t.Errorf("add-to-cart with the cookie posts to %q, want %q", action, cart+"/items")
	}
	res, _ = e.post("/cart", url.Values{"product_id": {"camiseta-ipe-amarelo"}}, "Cookie", cookie)
	if got := e.location(res); got != cart {
		t.Errorf("POST /cart with the cookie went to %q, want %q", got, cart)
	}

	// The order is placed: the cookie is forgotten.
	_, doc = e.get(cart+"/checkout", "Cookie", cookie)
	res, _ = e.post(cart+"/checkout", customer(requestKey(t, doc)), "Cookie", cookie)
	e.location(res)
	forgotten := false
	for _, c := range res.Cookies() {
		forgotten = forgotten || (c.Name == "checkout_cart" && c.MaxAge < 0)
	}
	if !forgotten {
		t.Errorf("placing the order did not forget the cart cookie: %v", res.Cookies())
	}
}

// newCartFrom posts a new cart with the forwarding header header set to value, and
// returns the answer's status.
func (e *env) newCartFrom(header, value string) int {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/cart", strings.NewReader(url.Values{"product_id": {"ebook-receitas-do-cerrado"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(header, value)
	res, err := e.http.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestTrustedProxyForwardsEachShopper: behind a trusted proxy, two shoppers with different
// X-Forwarded-For (or Forwarded) each get their own cart limit, and an address forged left of
// the proxy's own entry changes nothing; from a peer that is not trusted the same headers are
// ignored: every shopper behind it shares its limit.
func TestTrustedProxyForwardsEachShopper(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.newCartBurst = 3; o.trustedProxies = "127.0.0.0/8, ::1" })
	for range 3 {
		if st := e.newCartFrom("X-Forwarded-For", "203.0.113.1"); st != http.StatusSeeOther {
			t.Fatalf("shopper 1's cart: %d", st)
		}
	}
	if st := e.newCartFrom("X-Forwarded-For", "203.0.113.1"); st != http.StatusTooManyRequests {
		t.Errorf("shopper 1's fourth cart: %d, want 429", st)
	}
	// A forged address left of what the proxy appended does not make shopper 1 someone else.
	if st := e.newCartFrom("X-Forwarded-For", "198.51.100.77, 203.0.113.1"); st != http.StatusTooManyRequests {
		t.Errorf("shopper 1 with a forged first hop: %d, want 429", st)
	}
	// Shopper 2, behind the same proxy, has a limit of its own; through RFC 7239's header too.
	for i := range 3 {
		header, value := "X-Forwarded-For", "203.0.113.2"
		if i == 1 {
			header, value = "Forwarded", `for=203.0.113.2;proto=https`
		}
		if st := e.newCartFrom(header, value); st != http.StatusSeeOther {
			t.Fatalf("shopper 2's cart %d: %d, want 303", i+1, st)
		}
	}
	if st := e.newCartFrom("X-Forwarded-For", "203.0.113.2"); st != http.StatusTooManyRequests {
		t.Errorf("shopper 2's fourth cart: %d, want 429", st)
	}

	// The same headers from a peer that is not a trusted proxy: ignored.
	u := newEnv(t, func(o *envOptions) { o.newCartBurst = 3 })
	for i := range 3 {
		if st := u.newCartFrom("X-Forwarded-For", fmt.Sprintf("203.0.113.%d", i+1)); st != http.StatusSeeOther {
			t.Fatalf("cart %d: %d", i+1, st)
		}
	}
	if st := u.newCartFrom("X-Forwarded-For", "203.0.113.9"); st != http.StatusTooManyRequests {
		t.Errorf("a fourth cart from an untrusted peer claiming another address: %d, want 429", st)
	}
}

// TestCEPLookupLimited: one client may look up 30 CEPs at once, then waits (Retry-After): a
// client asking by the hundred does not pass each on to the CEP service.
func TestCEPLookupLimited(t *testing.T) {
	e := newEnv(t)
	for i := range 30 {
		res := e.do(http.MethodGet, "/cep/01310-100", nil)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("lookup %d: %d", i+1, res.StatusCode)
		}
	}
	res := e.do(http.MethodGet, "/cep/01310-100", nil)
	res.Body.Close()
	if res.StatusCode < 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("the 31st lookup at once: %d, Retry-After %q; want refused with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
}
