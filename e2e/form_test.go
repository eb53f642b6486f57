package e2e

import (
	"maps"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// A physical product needs an address: the block is there, its inputs are required, the order
// is refused without them (each error beside its field), and accepted with them.
func TestPhysicalPurchaseNeedsAddress(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(physicalProduct).checkout()

	s.check(s.expect.Locator(form.addressBlock()).ToBeVisible(), "address block for a physical product")
	for _, name := range addressFields {
		in := form.field(name)
		s.check(s.expect.Locator(in).ToBeVisible(), name+" visible")
		if name == "complement" {
			s.check(s.expect.Locator(in).Not().ToHaveAttribute("required", ""), "complement is optional")
			continue
		}
		s.check(s.expect.Locator(in).ToHaveAttribute("required", ""), name+" is required")
	}
	s.a11y(s.page, "customer form with address")
	s.shot("customer-form")

	// Without the address the server refuses the order, naming each missing field.
	form.fillCustomer(validCustomer())
	before := form.values()
	form.submit()
	s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "error summary")
	missing := 0
	for _, name := range addressFields {
		if name == "complement" || before[name] != "" { // country may come filled in
			s.check(s.expect.Locator(form.errorOf(name)).ToHaveCount(0), "no error for "+name)
			continue
		}
		missing++
		s.check(s.expect.Locator(form.errorOf(name)).ToBeVisible(), "error beside "+name)
		s.check(s.expect.Locator(form.field(name)).ToHaveAttribute("aria-invalid", "true"), name+" marked invalid")
	}
	if missing < 6 {
		t.Errorf("only %d address fields were empty: %v", missing, before)
	}
	s.check(s.expect.Locator(form.fieldErrors()).ToHaveCount(missing), "one field-error per missing field")
	s.a11y(s.page, "customer form with errors")
	s.shot("address-missing")
	if n := len(a.deposits(t)); n != 0 {
		t.Fatalf("a refused form made %d deposits", n)
	}

	form.fillAddress(validAddress())
	s.shot("address-filled")
	pix := form.placeOrder()
	s.check(s.expect.Locator(pix.testID("amount")).ToHaveText(regexp.MustCompile(`R\$\s*59,00`)), "PIX page amount R$ 59,00")
	s.shot("pix")

	deps := a.deposits(t)
	if len(deps) != 1 || deps[0].Amount != physicalPrice {
		t.Fatalf("deposits %+v, want one of %d cents", deps, physicalPrice)
	}
}

// A CPF with a wrong check digit: the error shows beside the document, the summary takes the
// focus, and every value the shopper typed (address and state included) is still there.
func TestInvalidCPFKeepsTypedValues(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(physicalProduct).checkout()

	c := validCustomer()
	c.Document = "529.982.247-26" // the last check digit is 5
	form.fillCustomer(c)
	form.fillAddress(validAddress())
	// Typed key by key as bare digits, the masked inputs format themselves.
	for name, keys := range map[string]string{"document": "52998224726", "phone": "11987654321", "zip_code": "01310100"} {
		s.check(form.field(name).Clear(), "clear "+name)
		s.check(form.field(name).PressSequentially(keys), "type "+name)
	}
	typed := form.values()
	if typed["document"] != c.Document || typed["phone"] != c.Phone || typed["zip_code"] != validAddress().ZipCode || typed["state"] != "SP" {
		t.Fatalf("the form did not take (and mask) the typed values: %v", typed)
	}
	s.shot("typed")
	form.submit()

	s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "error summary")
	s.check(s.expect.Locator(form.errorSummary()).ToBeFocused(), "error summary focused")
	if v := s.eval(s.page, `() => document.activeElement && document.activeElement.getAttribute("data-testid")`); v != "error-summary" {
		t.Errorf("document.activeElement is %v, want the error summary", v)
	}
	s.check(s.expect.Locator(form.fieldErrors()).ToHaveCount(1), "exactly one field-error")
	docErr := form.errorOf("document")
	s.check(s.expect.Locator(docErr).ToBeVisible(), "error beside the document")
	s.check(s.expect.Locator(docErr).ToHaveText(regexp.MustCompile(`\S`)), "document error has a message")
	s.check(s.expect.Locator(form.field("document")).ToHaveAttribute("aria-invalid", "true"), "document marked invalid")
	s.check(s.expect.Locator(form.field("document")).ToHaveAttribute("aria-describedby", regexp.MustCompile(`\bf-document-error\b`)), "document described by its error")
	// The summary links to the field.
	s.check(s.expect.Locator(form.errorSummary().Locator(`a[href="#f-document"]`)).ToHaveCount(1), "summary links to the document")
	s.shot("cpf-error")

	kept := form.values()
	if !maps.Equal(kept, typed) {
		t.Errorf("typed values lost:\nbefore %v\nafter  %v", typed, kept)
	}
	if n := len(a.deposits(t)); n != 0 {
		t.Errorf("an invalid CPF made %d deposits", n)
	}

	// Correcting the digit is enough to go on.
	s.check(form.field("document").Fill(validCustomer().Document), "fix the CPF")
	form.placeOrder()
	s.shot("pix")
}

// On a 390×844 phone, a mobile number that is not one ("1234", "(12) 34", the area code 00) is
// an error beside the phone, never dropped from an order that goes through; a one-letter name
// is refused the same way. Nothing reaches the gateway until both are right.
func TestInvalidPhoneAndNameAreFieldErrors(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{
		Viewport:          &playwright.Size{Width: 390, Height: 844},
		DeviceScaleFactor: playwright.Float(2),
		IsMobile:          playwright.Bool(true),
		HasTouch:          playwright.Bool(true),
	})
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(digitalProduct).checkout()
	for _, phone := range []string{"1234", "(12) 34", "(00) 91234-5678"} {
		c := validCustomer()
		c.Phone = phone
		form.fillCustomer(c)
		form.submit()
		s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "error summary for phone "+phone)
		s.check(s.expect.Locator(form.fieldErrors()).ToHaveCount(1), "exactly one field-error for phone "+phone)
		s.check(s.expect.Locator(form.errorOf("phone")).ToBeVisible(), "error beside the phone "+phone)
		s.check(s.expect.Locator(form.field("phone")).ToHaveAttribute("aria-invalid", "true"), "phone marked invalid")
		// The mask may have reformatted it ("1234" shows as "(12) 34"); it is kept, not emptied.
		if got := form.values()["phone"]; got == "" {
			t.Errorf("the phone typed %q came back empty", phone)
		}
		s.shot("phone-" + safeName(phone))
	}
	c := validCustomer()
	c.Name = "A"
	form.fillCustomer(c)
	form.submit()
	s.check(s.expect.Locator(form.errorOf("name")).ToBeVisible(), "error beside a one-letter name")
	s.check(s.expect.Locator(form.fieldErrors()).ToHaveCount(1), "exactly one field-error for the name")
	s.shot("name-one-letter")
	if n := len(a.deposits(t)); n != 0 {
		t.Fatalf("invalid forms made %d deposits", n)
	}
	form.fillCustomer(validCustomer())
	form.placeOrder()
	if deps := a.deposits(t); len(deps) != 1 {
		t.Fatalf("%d deposits after the valid form, want 1", len(deps))
	}
}
