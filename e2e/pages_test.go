package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/playwright-community/playwright-go"
)

// Page objects: each hides the selectors of one shopper page behind what a shopper does there.
// They work on a root locator, the <body> of a page or of a frame, so the same objects drive
// the checkout at the top level and inside a merchant's iframe. Locators are lazy: after a
// navigation the same root finds the new page's body.

// Demo products seeded by the checkout (checkout.SeedDemoCatalogue).
const (
	digitalProduct  = "E-book: Receitas do Cerrado" // R$ 29,90
	digitalPrice    = 2990
	physicalProduct = "Caneca de cerâmica" // R$ 59,00
	physicalPrice   = 5900
)

// customer is what a shopper types in the customer block of the form.
type customer struct {
	Name, Document, Email, Phone string
}

// address is what a shopper types in the address block of the form.
type address struct {
	ZipCode, Street, Number, Complement, Neighborhood, City, State, Country string
}

// validCustomer has a CPF with correct check digits and a mobile phone.
func validCustomer() customer {
	return customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com", Phone: "(11) 98765-4321"}
}

// validAddress is a complete Brazilian address.
func validAddress() address {
	return address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1578", Complement: "Sala 4",
		Neighborhood: "Bela Vista", City: "São Paulo", State: "SP", Country: "Brasil"}
}

// addressFields are the form names of the address inputs; all but complement are required.
// The country is not asked (a PIX payment is Brazilian).
var addressFields = []string{"zip_code", "number", "street", "complement", "neighborhood", "city", "state"}

// shop is the checkout as the shopper sees it, in a page or in a frame.
type shop struct {
	s    *session
	root playwright.Locator
}

// shopIn is the checkout in the session's main page.
func shopIn(s *session) shop { return shop{s: s, root: s.page.Locator("body")} }

// shopInPage is the checkout in another page of the session.
func shopInPage(s *session, p playwright.Page) shop { return shop{s: s, root: p.Locator("body")} }

// shopInFrame is the checkout inside the iframe matched by selector in the main page.
func shopInFrame(s *session, selector string) shop {
	return shop{s: s, root: s.page.FrameLocator(selector).Locator("body")}
}

func (h shop) testID(id string) playwright.Locator { return h.root.GetByTestId(id) }

func (h shop) visible(l playwright.Locator, what string) {
	h.s.t.Helper()
	h.s.check(h.s.expect.Locator(l).ToBeVisible(), what+" visible")
}

// catalogue is the product list at /.
func (h shop) catalogue() cataloguePage {
	h.s.t.Helper()
	h.visible(h.testID("product-card").First(), "product-card")
	return cataloguePage{h}
}

type cataloguePage struct{ shop }

// card is the product-card of the product titled title.
func (c cataloguePage) card(title string) playwright.Locator {
	return c.testID("product-card").Filter(playwright.LocatorFilterOptions{HasText: title})
}

// add puts one unit of the product titled title in the cart and returns the cart page.
func (c cataloguePage) add(title string) cartPage {
	c.s.t.Helper()
	card := c.card(title)
	c.s.check(c.s.expect.Locator(card).ToHaveCount(1), "one product-card for "+title)
	c.s.check(card.GetByTestId("add-to-cart").Click(), "click add-to-cart of "+title)
	line := c.testID("cart-line").Filter(playwright.LocatorFilterOptions{HasText: title})
	c.visible(line, "cart-line of "+title)
	return cartPage{c.shop}
}

type cartPage struct{ shop }

func (c cartPage) lines() playwright.Locator { return c.testID("cart-line") }
func (c cartPage) total() playwright.Locator { return c.testID("cart-total") }

// checkout follows the way on to the customer form.
func (c cartPage) checkout() customerForm {
	c.s.t.Helper()
	c.s.check(c.testID("go-to-checkout").Click(), "click go-to-checkout")
	f := customerForm{c.shop}
	c.visible(f.form(), "checkout-form")
	return f
}

type customerForm struct{ shop }

func (f customerForm) form() playwright.Locator { return f.testID("checkout-form") }

// field is the input (or select) named name.
func (f customerForm) field(name string) playwright.Locator {
	return f.form().Locator(fmt.Sprintf(`[name=%q]`, name))
}

func (f customerForm) addressBlock() playwright.Locator { return f.testID("address-block") }
func (f customerForm) errorSummary() playwright.Locator { return f.testID("error-summary") }
func (f customerForm) fieldErrors() playwright.Locator  { return f.testID("field-error") }

// errorOf is the error message shown beside the field named name.
func (f customerForm) errorOf(name string) playwright.Locator {
	return f.form().Locator("#f-" + name + "-error")
}

// fillCustomer types the customer block.
func (f customerForm) fillCustomer(c customer) {
	f.s.t.Helper()
	for name, v := range map[string]string{"name": c.Name, "document": c.Document, "email": c.Email, "phone": c.Phone} {
		f.s.check(f.field(name).Fill(v), "fill "+name)
	}
}

// fillAddress types the address block; the state is chosen in its select.
func (f customerForm) fillAddress(a address) {
	f.s.t.Helper()
	for name, v := range map[string]string{"zip_code": a.ZipCode, "street": a.Street, "number": a.Number,
		"complement": a.Complement, "neighborhood": a.Neighborhood, "city": a.City} {
		f.s.check(f.field(name).Fill(v), "fill "+name)
	}
	_, err := f.field("state").SelectOption(playwright.SelectOptionValues{Values: &[]string{a.State}})
	f.s.check(err, "select state")
}

// values reads every visible input and select of the form, by name.
func (f customerForm) values() map[string]string {
	f.s.t.Helper()
	all, err := f.form().Locator("input:not([type=hidden]):not([type=checkbox]), select").All()
	f.s.check(err, "form inputs")
	out := map[string]string{}
	for _, in := range all {
		name, err := in.GetAttribute("name")
		f.s.check(err, "input name")
		v, err := in.InputValue()
		f.s.check(err, "input value of "+name)
		out[name] = v
	}
	return out
}

// submit clicks place-order without waiting for any page.
func (f customerForm) submit() {
	f.s.t.Helper()
	f.s.check(f.testID("place-order").Click(), "click place-order")
}

// placeOrder submits the form and waits for the PIX page.
func (f customerForm) placeOrder() pixPage {
	f.s.t.Helper()
	f.submit()
	p := pixPage{f.shop}
	p.waitActive()
	return p
}

type pixPage struct{ shop }

func (p pixPage) qr() playwright.Locator        { return p.testID("pix-qr") }
func (p pixPage) code() playwright.Locator      { return p.testID("pix-code") }
func (p pixPage) countdown() playwright.Locator { return p.testID("countdown") }
func (p pixPage) status() playwright.Locator    { return p.testID("order-status") }
func (p pixPage) payButton() playwright.Locator { return p.testID("sandbox-pay") }
func (p pixPage) newQR() playwright.Locator     { return p.testID("new-qr") }
func (p pixPage) paid() playwright.Locator      { return p.testID("paid") }

// waitActive waits for a payable PIX page: the QR and its code shown.
func (p pixPage) waitActive() {
	p.s.t.Helper()
	p.visible(p.qr(), "pix-qr")
	p.visible(p.code(), "pix-code")
}

// codeText is the copy-and-paste code.
func (p pixPage) codeText() string {
	p.s.t.Helper()
	v, err := p.code().InputValue()
	p.s.check(err, "pix-code value")
	if strings.TrimSpace(v) == "" {
		p.s.t.Fatal("pix-code is empty")
	}
	return v
}

// remaining reads the countdown (mm:ss or h:mm:ss).
func (p pixPage) remaining() time.Duration {
	p.s.t.Helper()
	text, err := p.countdown().TextContent()
	p.s.check(err, "countdown text")
	d, err := parseCountdown(text)
	p.s.check(err, "countdown")
	return d
}

// waitPaid waits for the paid page.
func (p pixPage) waitPaid() {
	p.s.t.Helper()
	p.visible(p.paid(), "paid")
}

var countdownRE = regexp.MustCompile(`^(?:(\d+):)?(\d{1,2}):(\d{2})$`)

// parseCountdown parses the countdown's text: "29:59" or "1:05:00".
func parseCountdown(text string) (time.Duration, error) {
	m := countdownRE.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return 0, fmt.Errorf("countdown %q is not mm:ss or h:mm:ss", text)
	}
	h := 0
	if m[1] != "" {
		h, _ = strconv.Atoi(m[1])
	}
	mm, _ := strconv.Atoi(m[2])
	ss, _ := strconv.Atoi(m[3])
	if mm > 59 || ss > 59 {
		return 0, fmt.Errorf("countdown %q has minutes or seconds above 59", text)
	}
	return time.Duration(h)*time.Hour + time.Duration(mm)*time.Minute + time.Duration(ss)*time.Second, nil
}
