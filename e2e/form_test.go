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

// Sent empty, then fixed field by field: each field's message, its invalid state and its line
// in the summary go as soon as its value changes (typed, chosen, or filled in from the CEP),
// while the others stay; the summary goes with the last one, and the focus stays where the
// shopper types. Without JavaScript the errors are the server's: they change on each submit.
func TestFixedFieldLosesItsError(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, phone())
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(physicalProduct).checkout()
	form.submit()
	s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "error summary")
	s.check(s.expect.Locator(form.errorOf("name")).ToBeVisible(), "error beside the name")
	errs, err := form.fieldErrors().Count()
	s.check(err, "count the field errors")
	if errs < 10 {
		t.Fatalf("%d field errors for an empty form, want one per required field", errs)
	}
	s.shot("empty")

	// One field fixed: its error goes, the others stay.
	s.check(form.field("name").Fill(validCustomer().Name), "fill the name")
	s.check(s.expect.Locator(form.errorOf("name")).ToHaveCount(0), "no error beside the name")
	s.check(s.expect.Locator(form.field("name")).Not().ToHaveAttribute("aria-invalid", regexp.MustCompile(".*")), "the name no longer invalid")
	s.check(s.expect.Locator(form.field("name")).Not().ToHaveAttribute("aria-describedby", regexp.MustCompile(".*")), "the name described by nothing")
	s.check(s.expect.Locator(form.errorSummary().Locator(`a[href="#f-name"]`)).ToHaveCount(0), "the summary's line of the name gone")
	s.check(s.expect.Locator(form.errorSummary().Locator(`a[href="#f-email"]`)).ToHaveCount(1), "the summary's line of the e-mail kept")
	s.check(s.expect.Locator(form.fieldErrors()).ToHaveCount(errs-1), "the other errors kept")
	s.check(s.expect.Locator(form.errorOf("email")).ToBeVisible(), "error beside the e-mail kept")
	s.check(s.expect.Locator(form.field("name")).ToBeFocused(), "focus kept on the name")

	// A field with a hint keeps the hint as its description.
	s.check(form.field("phone").Fill(validCustomer().Phone), "fill the phone")
	s.check(s.expect.Locator(form.field("phone")).ToHaveAttribute("aria-describedby", "f-phone-hint"), "the phone described by its hint alone")
	s.check(s.expect.Locator(form.errorOf("phone")).ToHaveCount(0), "no error beside the phone")

	// The CEP fills four fields in: their errors go too; the number's stays.
	s.check(form.field("zip_code").PressSequentially("01310100"), "type the CEP")
	s.check(s.expect.Locator(form.field("city")).ToHaveValue("São Paulo"), "city filled from the CEP")
	for _, name := range []string{"zip_code", "street", "neighborhood", "city", "state"} {
		s.check(s.expect.Locator(form.errorOf(name)).ToHaveCount(0), "no error beside "+name)
		s.check(s.expect.Locator(form.field(name)).Not().ToHaveAttribute("aria-invalid", regexp.MustCompile(".*")), name+" no longer invalid")
	}
	s.check(s.expect.Locator(form.errorOf("number")).ToBeVisible(), "error beside the number kept")
	s.a11y(s.page, "customer form partly fixed")
	s.shot("partly-fixed")

	// The last ones: the summary goes.
	s.check(form.field("document").Fill(validCustomer().Document), "fill the document")
	s.check(form.field("email").Fill(validCustomer().Email), "fill the e-mail")
	s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "the summary while the number is wrong")
	s.check(form.field("number").Fill("1578"), "fill the number")
	s.check(s.expect.Locator(form.errorSummary()).ToHaveCount(0), "no summary once every field is fixed")
	s.check(s.expect.Locator(form.fieldErrors()).ToHaveCount(0), "no field error left")
	s.check(s.expect.Locator(form.field("number")).ToBeFocused(), "focus kept on the number")
	s.a11y(s.page, "customer form fixed")
	s.shot("fixed")
	form.placeOrder()

	t.Run("without JavaScript", func(t *testing.T) {
		s := newSession(t, playwright.BrowserNewContextOptions{JavaScriptEnabled: playwright.Bool(false)})
		s.open(a.url + "/")
		form := shopIn(s).catalogue().add(digitalProduct).checkout()
		form.submit()
		s.check(s.expect.Locator(form.errorOf("name")).ToBeVisible(), "error beside the name")
		s.check(form.field("name").Fill(validCustomer().Name), "fill the name")
		s.check(s.expect.Locator(form.errorOf("name")).ToBeVisible(), "the error stays until the next submit")
		form.submit()
		s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "error summary")
		s.check(s.expect.Locator(form.errorOf("name")).ToHaveCount(0), "no error beside the name once sent")
		s.check(s.expect.Locator(form.errorOf("email")).ToBeVisible(), "error beside the e-mail")
	})
}
