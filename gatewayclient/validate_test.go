package gatewayclient

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// testNow is the clock of the tests that involve birthdates.
func testNow() time.Time { return time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC) }

// fc is the (Field, Code) pair of a violation, what every test asserts.
type fc struct{ Field, Code string }

// assertViolations checks that err is a *ValidationError of the given kind, matches
// ErrValidation, and holds exactly the wanted violations in order. want == nil means err must
// be nil.
func assertViolations(t *testing.T, err error, kind UnprocessableKind, want []fc) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("want no error, got %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("want violations %v, got nil error", want)
	}
	if !errors.Is(err, ErrValidation) {
		t.Errorf("errors.Is(%v, ErrValidation) = false", err)
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError, got %T: %v", err, err)
	}
	if ve.Kind != kind {
		t.Errorf("kind = %q, want %q (%v)", ve.Kind, kind, err)
	}
	got := make([]fc, len(ve.Violations))
	for i, v := range ve.Violations {
		got[i] = fc{v.Field, v.Code}
		if v.Message == "" {
			t.Errorf("violation %v has no message", v)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("violations\n got %v\nwant %v\n(%v)", got, want, err)
	}
}

// validRequest is a request that passes every rule and fills every field, for a physical
// product so that the address rules apply.
func validRequest() CreateTransactionRequest {
	return CreateTransactionRequest{
		Amount:         15000,
		PaymentMethod:  PaymentMethodPIX,
		WebhookURL:     "https://shop.example.com/hooks/pix?source=gw",
		ExternalCode:   "order-000123",
		IdempotencyKey: "8a6e0804-2bd0-4672-b79d-d97027f9071a",
		Customer: &Customer{
			IP:          "203.0.113.7",
			Name:        "Maria José d'Ávila-Souza",
			Document:    "529.982.247-25",
			Email:       "maria@example.com.br",
			Landline:    "(11) 3456-7890",
			MobilePhone: "(11) 98765-4321",
			Birthdate:   Date{1990, time.May, 17},
		},
		Seller:        &Seller{Name: "Loja Exemplo Ltda.", Document: "11.222.333/0001-81"},
		IsInfoProduct: Ptr(false),
		Address: &Address{
			ZipCode: "01310-100", Complement: "Apto 12", Number: "1578", Street: "Avenida Paulista",
			Neighborhood: "Bela Vista", City: "São Paulo", State: "SP", Country: "Brasil",
		},
		Items: []Item{
			{Title: "Camiseta", Description: "Algodão, azul", UnitPrice: 5000, Quantity: Ptr(2)},
			{Title: "Boné", UnitPrice: 5000},
		},
		Metadata: map[string]any{"campaign": "winter", "n": 3},
		Pix:      &PixRequest{ExpirationSeconds: Ptr(3600)},
	}
}

func TestValidRequestPasses(t *testing.T) {
	r := validRequest()
	assertViolations(t, r.ValidateAt(testNow()), "", nil)
	if err := r.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	minimal := CreateTransactionRequest{Amount: 1, PaymentMethod: PaymentMethodPIX, IdempotencyKey: "12345678", Pix: &PixRequest{}}
	assertViolations(t, minimal.ValidateAt(testNow()), "", nil)
}

func TestValidateNil(t *testing.T) {
	var r *CreateTransactionRequest
	assertViolations(t, r.Validate(), KindValidation, []fc{{"", CodeRequired}})
}

// ruleCase is one mutation of validRequest and the violations it must cause.
type ruleCase struct {
	name   string
	mutate func(r *CreateTransactionRequest)
	want   []fc
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := validRequest()
			tc.mutate(&r)
			assertViolations(t, r.ValidateAt(testNow()), KindValidation, tc.want)
		})
	}
}

// repeatRune returns a text of count runes made of r.
func repeatRune(r rune, count int) string { return strings.Repeat(string(r), count) }

func TestValidateAmountAndMethod(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"amount 0", func(r *CreateTransactionRequest) { r.Amount = 0 }, []fc{{"amount", CodeMin}}},
		{"amount 1", func(r *CreateTransactionRequest) { r.Amount = 1 }, nil},
		{"amount 10000000", func(r *CreateTransactionRequest) { r.Amount = 10000000 }, nil},
		{"amount 10000001", func(r *CreateTransactionRequest) { r.Amount = 10000001 }, []fc{{"amount", CodeMax}}},
		{"amount -1", func(r *CreateTransactionRequest) { r.Amount = -1 }, []fc{{"amount", CodeMin}}},
		{"paymentMethod empty", func(r *CreateTransactionRequest) { r.PaymentMethod = "" }, []fc{{"paymentMethod", CodeRequired}}},
		{"paymentMethod BOLETO", func(r *CreateTransactionRequest) { r.PaymentMethod = "BOLETO" }, []fc{{"paymentMethod", CodeEnum}}},
		{"paymentMethod lower case", func(r *CreateTransactionRequest) { r.PaymentMethod = "pix" }, []fc{{"paymentMethod", CodeEnum}}},
	})
}

func TestValidateCodeLengths(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"externalCode empty", func(r *CreateTransactionRequest) { r.ExternalCode = "" }, nil},
		{"externalCode 7", func(r *CreateTransactionRequest) { r.ExternalCode = repeatRune('a', 7) }, []fc{{"externalCode", CodeMinLength}}},
		{"externalCode 8", func(r *CreateTransactionRequest) { r.ExternalCode = repeatRune('a', 8) }, nil},
		{"externalCode 255", func(r *CreateTransactionRequest) { r.ExternalCode = repeatRune('a', 255) }, nil},
		{"externalCode 256", func(r *CreateTransactionRequest) { r.ExternalCode = repeatRune('a', 256) }, []fc{{"externalCode", CodeMaxLength}}},
		{"idempotencyKey empty", func(r *CreateTransactionRequest) { r.IdempotencyKey = "" }, []fc{{"idempotencyKey", CodeRequired}}},
		{"idempotencyKey blank", func(r *CreateTransactionRequest) { r.IdempotencyKey = repeatRune(' ', 9) }, []fc{{"idempotencyKey", CodeRequired}}},
		{"idempotencyKey 7", func(r *CreateTransactionRequest) { r.IdempotencyKey = repeatRune('k', 7) }, []fc{{"idempotencyKey", CodeMinLength}}},
		{"idempotencyKey 8", func(r *CreateTransactionRequest) { r.IdempotencyKey = repeatRune('k', 8) }, nil},
		{"idempotencyKey 255", func(r *CreateTransactionRequest) { r.IdempotencyKey = repeatRune('k', 255) }, nil},
		{"idempotencyKey 256", func(r *CreateTransactionRequest) { r.IdempotencyKey = repeatRune('k', 256) }, []fc{{"idempotencyKey", CodeMaxLength}}},
		// Characters are runes: 8 two-byte letters are 8 characters, 255 of them are 510 bytes.
		{"idempotencyKey 8 runes", func(r *CreateTransactionRequest) { r.IdempotencyKey = repeatRune('ç', 8) }, nil},
		{"idempotencyKey 7 runes 14 bytes", func(r *CreateTransactionRequest) { r.IdempotencyKey = repeatRune('ç', 7) }, []fc{{"idempotencyKey", CodeMinLength}}},
		{"externalCode 255 runes", func(r *CreateTransactionRequest) { r.ExternalCode = repeatRune('ã', 255) }, nil},
		{"externalCode 256 runes", func(r *CreateTransactionRequest) { r.ExternalCode = repeatRune('ã', 256) }, []fc{{"externalCode", CodeMaxLength}}},
		{"externalCode invalid UTF-8", func(r *CreateTransactionRequest) { r.ExternalCode = "abcdefgh\xff" }, []fc{{"externalCode", CodeFormat}}},
	})
}

func TestValidateWebhookURL(t *testing.T) {
	cases := []struct {
		url  string
		code string // "" when valid
	}{
		{"https://example.com", ""},
		{"https://example.com/hook", ""},
		{"https://api.shop.example.com.br/hooks/pix?source=gw&x=1", ""},
		{"https://example.com:8443/hook?a=b", ""},
		{"HTTPS://Example.COM/hook", ""},
		{"https://exemplo.xn--p1ai/hook", ""},
		{"https://my-shop.example.com/", ""},
		{"http://example.com/hook", CodeHTTPS},
		{"http://", CodeHTTPS},
		{"ftp://example.com/x", CodeHTTPS},
		{"https://", CodeURL},
		{"https:///hook", CodeURL},
		{"https://localhost/x", CodeURL},
		{"https://intranet/x", CodeURL},
		{"https://127.0.0.1/hook", CodeURL},
		{"https://203.0.113.7:8443/hook", CodeURL},
		{"https://[2001:db8::1]/hook", CodeURL},
		{"https://[::1]:8443/hook", CodeURL},
		{"https://example.com/hook#x", CodeURL},
		{"https://example.com/hook#", CodeURL},
		{"https://example.com#", CodeURL},
		{"/hook", CodeURL},
		{"example.com/hook", CodeURL},
		{"//example.com/hook", CodeURL},
		{"https:example.com", CodeURL},
		{"https://exa mple.com", CodeURL},
		{"https://user:pass@example.com/hook", CodeURL},
		{"https://user@example.com/hook", CodeURL},
		{"https://example./x", CodeURL},
		{"https://example.123/x", CodeURL},
		{"https://example.c/x", CodeURL},
		{"https://example.c0m/x", CodeURL},
		{"https://.example.com/x", CodeURL},
		{"https://a..example.com/x", CodeURL},
		{"https://-shop.example.com/x", CodeURL},
		{"https://shop-.example.com/x", CodeURL},
		{"https://exa_mple.com/x", CodeURL},
		{"https://example.com:0/x", CodeURL},
		{"https://example.com:99999/x", CodeURL},
		{"https://example.com:abc/x", CodeURL},
		{"https://" + repeatRune('a', 64) + ".com/x", CodeURL},
		{"https://example.com/\x7f", CodeURL},
		{" https://example.com", CodeURL},
	}
	for _, tc := range cases {
		t.Run(tc.url, func(t *testing.T) {
			r := validRequest()
			r.WebhookURL = tc.url
			var want []fc
			if tc.code != "" {
				want = []fc{{"webhookUrl", tc.code}}
			}
			assertViolations(t, r.ValidateAt(testNow()), KindValidation, want)
		})
	}
}

func TestValidateCustomer(t *testing.T) {
	cust := func(f func(c *Customer)) func(r *CreateTransactionRequest) {
		return func(r *CreateTransactionRequest) { f(r.Customer) }
	}
	runRuleCases(t, []ruleCase{
		{"no customer", func(r *CreateTransactionRequest) { r.Customer = nil }, nil},
		{"only name and document", func(r *CreateTransactionRequest) {
			r.Customer = &Customer{Name: "Ana", Document: "52998224725"}
		}, nil},
		// name
		{"name empty", cust(func(c *Customer) { c.Name = "" }), []fc{{"customer.name", CodeRequired}}},
		{"name blank", cust(func(c *Customer) { c.Name = "   " }), []fc{{"customer.name", CodeRequired}}},
		{"name CJK", cust(func(c *Customer) { c.Name = "李小龍" }), nil},
		{"name Cyrillic", cust(func(c *Customer) { c.Name = "Пётр Иванов" }), nil},
		{"name punctuation", cust(func(c *Customer) { c.Name = "O'Brien-Smith Jr." }), nil},
		{"name decomposed accent", cust(func(c *Customer) { c.Name = "Jose\u0301" }), nil},
		{"name with digits", cust(func(c *Customer) { c.Name = "João 2º" }), nil},
		{"name markup", cust(func(c *Customer) { c.Name = "<script>" }), []fc{{"customer.name", CodeFormat}}},
		{"name braces", cust(func(c *Customer) { c.Name = "Ana {x}" }), []fc{{"customer.name", CodeFormat}}},
		{"name tab", cust(func(c *Customer) { c.Name = "Ana\tMaria" }), []fc{{"customer.name", CodeFormat}}},
		{"name newline", cust(func(c *Customer) { c.Name = "Ana\nMaria" }), []fc{{"customer.name", CodeFormat}}},
		{"name only punctuation", cust(func(c *Customer) { c.Name = "..." }), []fc{{"customer.name", CodeFormat}}},
		{"name invalid UTF-8", cust(func(c *Customer) { c.Name = "Ana\xff" }), []fc{{"customer.name", CodeFormat}}},
		// document
		{"CPF masked", cust(func(c *Customer) { c.Document = "529.982.247-25" }), nil},
		{"CPF bare", cust(func(c *Customer) { c.Document = "11144477735" }), nil},
		{"CNPJ masked", cust(func(c *Customer) { c.Document = "11.222.333/0001-81" }), nil},
		{"CNPJ bare", cust(func(c *Customer) { c.Document = "11222333000181" }), nil},
		{"CNPJ alphanumeric", cust(func(c *Customer) { c.Document = "12ABC34501DE35" }), nil},
		{"CNPJ alphanumeric masked", cust(func(c *Customer) { c.Document = "12.ABC.345/01DE-35" }), nil},
		{"document empty", cust(func(c *Customer) { c.Document = "" }), []fc{{"customer.document", CodeRequired}}},
		{"CPF wrong check digit", cust(func(c *Customer) { c.Document = "529.982.247-24" }), []fc{{"customer.document", CodeDocument}}},
		{"CPF all equal", cust(func(c *Customer) { c.Document = "111.111.111-11" }), []fc{{"customer.document", CodeDocument}}},
		{"CPF short", cust(func(c *Customer) { c.Document = "5299822472" }), []fc{{"customer.document", CodeDocument}}},
		{"CNPJ wrong check digit", cust(func(c *Customer) { c.Document = "11222333000182" }), []fc{{"customer.document", CodeDocument}}},
		{"CNPJ all equal", cust(func(c *Customer) { c.Document = "00000000000000" }), []fc{{"customer.document", CodeDocument}}},
		{"CNPJ alphanumeric wrong digit", cust(func(c *Customer) { c.Document = "12ABC34501DE36" }), []fc{{"customer.document", CodeDocument}}},
		{"document letters", cust(func(c *Customer) { c.Document = "not a document" }), []fc{{"customer.document", CodeDocument}}},
		// e-mail and phones
		{"email empty", cust(func(c *Customer) { c.Email = "" }), nil},
		{"email no domain", cust(func(c *Customer) { c.Email = "maria@" }), []fc{{"customer.email", CodeFormat}}},
		{"email no at", cust(func(c *Customer) { c.Email = "maria.example.com" }), []fc{{"customer.email", CodeFormat}}},
		{"email space", cust(func(c *Customer) { c.Email = "maria silva@example.com" }), []fc{{"customer.email", CodeFormat}}},
		{"landline bare", cust(func(c *Customer) { c.Landline = "1134567890" }), nil},
		{"landline with country code", cust(func(c *Customer) { c.Landline = "+55 21 2345-6789" }), nil},
		{"landline is a mobile", cust(func(c *Customer) { c.Landline = "(11) 98765-4321" }), []fc{{"customer.landline", CodeFormat}}},
		{"landline short", cust(func(c *Customer) { c.Landline = "3456-7890" }), []fc{{"customer.landline", CodeFormat}}},
		{"mobile bare", cust(func(c *Customer) { c.MobilePhone = "11987654321" }), nil},
		{"mobile E.164", cust(func(c *Customer) { c.MobilePhone = "+5511987654321" }), nil},
		{"mobile is a landline", cust(func(c *Customer) { c.MobilePhone = "(11) 3456-7890" }), []fc{{"customer.mobilePhone", CodeFormat}}},
		{"mobile unknown area code", cust(func(c *Customer) { c.MobilePhone = "(10) 98765-4321" }), []fc{{"customer.mobilePhone", CodeFormat}}},
		{"mobile letters", cust(func(c *Customer) { c.MobilePhone = "call me" }), []fc{{"customer.mobilePhone", CodeFormat}}},
		// ip
		{"ip empty", cust(func(c *Customer) { c.IP = "" }), nil},
		{"ipv4", cust(func(c *Customer) { c.IP = "192.168.0.1" }), nil},
		{"ipv6", cust(func(c *Customer) { c.IP = "2001:db8::1" }), nil},
		{"ipv4-mapped ipv6", cust(func(c *Customer) { c.IP = "::ffff:192.0.2.1" }), nil},
		{"ipv4 out of range", cust(func(c *Customer) { c.IP = "256.1.1.1" }), []fc{{"customer.ip", CodeFormat}}},
		{"ipv4 short", cust(func(c *Customer) { c.IP = "10.1.1" }), []fc{{"customer.ip", CodeFormat}}},
		{"ipv6 with zone", cust(func(c *Customer) { c.IP = "fe80::1%eth0" }), []fc{{"customer.ip", CodeFormat}}},
		{"ip with port", cust(func(c *Customer) { c.IP = "192.168.0.1:80" }), []fc{{"customer.ip", CodeFormat}}},
		{"ip host name", cust(func(c *Customer) { c.IP = "example.com" }), []fc{{"customer.ip", CodeFormat}}},
		// birthdate (testNow is 2025-06-15 12:00 UTC, already 2025-06-16 in UTC+14)
		{"birthdate unset", cust(func(c *Customer) { c.Birthdate = Date{} }), nil},
		{"birthdate leap day", cust(func(c *Customer) { c.Birthdate = Date{2024, time.February, 29} }), nil},
		{"birthdate today", cust(func(c *Customer) { c.Birthdate = Date{2025, time.June, 15} }), nil},
		{"birthdate today in UTC+14", cust(func(c *Customer) { c.Birthdate = Date{2025, time.June, 16} }), nil},
		{"birthdate future", cust(func(c *Customer) { c.Birthdate = Date{2025, time.June, 17} }), []fc{{"customer.birthdate", CodeFuture}}},
		{"birthdate far future", cust(func(c *Customer) { c.Birthdate = Date{2990, time.January, 1} }), []fc{{"customer.birthdate", CodeFuture}}},
		{"birthdate no leap day", cust(func(c *Customer) { c.Birthdate = Date{2023, time.February, 29} }), []fc{{"customer.birthdate", CodeFormat}}},
		{"birthdate month 13", cust(func(c *Customer) { c.Birthdate = Date{1990, 13, 1} }), []fc{{"customer.birthdate", CodeFormat}}},
		{"birthdate day 0", cust(func(c *Customer) { c.Birthdate = Date{1990, time.May, 0} }), []fc{{"customer.birthdate", CodeFormat}}},
		{"birthdate year 0", cust(func(c *Customer) { c.Birthdate = Date{0, time.May, 1} }), []fc{{"customer.birthdate", CodeFormat}}},
	})
}

func TestValidateSeller(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"no seller", func(r *CreateTransactionRequest) { r.Seller = nil }, nil},
		{"empty seller", func(r *CreateTransactionRequest) { r.Seller = &Seller{} },
			[]fc{{"seller.name", CodeRequired}, {"seller.document", CodeRequired}}},
		{"seller with ampersand", func(r *CreateTransactionRequest) { r.Seller.Name = "Silva & Filhos (Matriz)" }, nil},
		{"seller bad name", func(r *CreateTransactionRequest) { r.Seller.Name = "Loja <b>" }, []fc{{"seller.name", CodeFormat}}},
		{"seller bad document", func(r *CreateTransactionRequest) { r.Seller.Document = "11.222.333/0001-80" }, []fc{{"seller.document", CodeDocument}}},
		{"seller CPF", func(r *CreateTransactionRequest) { r.Seller.Document = "123.456.789-09" }, nil},
	})
}

func TestValidateAddress(t *testing.T) {
	addr := func(f func(a *Address)) func(r *CreateTransactionRequest) {
		return func(r *CreateTransactionRequest) { f(r.Address) }
	}
	cases := []ruleCase{
		{"physical without address", func(r *CreateTransactionRequest) { r.Address = nil }, []fc{{"address", CodeRequired}}},
		{"digital without address", func(r *CreateTransactionRequest) { r.Address = nil; r.IsInfoProduct = Ptr(true) }, nil},
		{"default digital without address", func(r *CreateTransactionRequest) { r.Address = nil; r.IsInfoProduct = nil }, nil},
		{"digital with a bad address", func(r *CreateTransactionRequest) { r.IsInfoProduct = nil; r.Address.City = "X" },
			[]fc{{"address.city", CodeMinLength}}},
		{"empty address", func(r *CreateTransactionRequest) { r.Address = &Address{} }, []fc{
			{"address.zipCode", CodeRequired}, {"address.number", CodeRequired}, {"address.street", CodeRequired},
			{"address.neighborhood", CodeRequired}, {"address.city", CodeRequired}, {"address.state", CodeRequired},
			{"address.country", CodeRequired}}},
		{"zipCode bare", addr(func(a *Address) { a.ZipCode = "01310100" }), nil},
		{"zipCode short", addr(func(a *Address) { a.ZipCode = "1310-100" }), []fc{{"address.zipCode", CodeFormat}}},
		{"zipCode zeros", addr(func(a *Address) { a.ZipCode = "00000-000" }), []fc{{"address.zipCode", CodeFormat}}},
		{"zipCode letters", addr(func(a *Address) { a.ZipCode = "0131A-100" }), []fc{{"address.zipCode", CodeFormat}}},
		{"number 1", addr(func(a *Address) { a.Number = "1" }), nil},
		{"number 10", addr(func(a *Address) { a.Number = "1234567890" }), nil},
		{"number 11", addr(func(a *Address) { a.Number = "12345678901" }), []fc{{"address.number", CodeMaxLength}}},
		{"number letters", addr(func(a *Address) { a.Number = "12A" }), []fc{{"address.number", CodeFormat}}},
		{"number s/n", addr(func(a *Address) { a.Number = "s/n" }), []fc{{"address.number", CodeFormat}}},
		{"number Arabic-Indic digits", addr(func(a *Address) { a.Number = "١٢" }), []fc{{"address.number", CodeFormat}}},
		{"complement empty", addr(func(a *Address) { a.Complement = "" }), nil},
		{"street with NUL", addr(func(a *Address) { a.Street = "Rua A\x00B" }), []fc{{"address.street", CodeFormat}}},
		{"city with newline", addr(func(a *Address) { a.City = "São\nPaulo" }), []fc{{"address.city", CodeFormat}}},
		{"complement with tab", addr(func(a *Address) { a.Complement = "Apto\t12" }), []fc{{"address.complement", CodeFormat}}},
	}
	lengths := []struct {
		field    string
		set      func(a *Address, s string)
		min, max int
	}{
		{"address.complement", func(a *Address, s string) { a.Complement = s }, 2, 150},
		{"address.street", func(a *Address, s string) { a.Street = s }, 2, 200},
		{"address.neighborhood", func(a *Address, s string) { a.Neighborhood = s }, 2, 100},
		{"address.city", func(a *Address, s string) { a.City = s }, 2, 100},
		{"address.state", func(a *Address, s string) { a.State = s }, 2, 50},
		{"address.country", func(a *Address, s string) { a.Country = s }, 2, 60},
	}
	for _, l := range lengths {
		for _, k := range []struct {
			count int
			code  string
		}{{l.min - 1, CodeMinLength}, {l.min, ""}, {l.max, ""}, {l.max + 1, CodeMaxLength}} {
			var want []fc
			if k.code != "" {
				want = []fc{{l.field, k.code}}
			}
			cases = append(cases, ruleCase{
				name:   l.field + " " + strconv.Itoa(k.count),
				mutate: addr(func(a *Address) { l.set(a, repeatRune('é', k.count)) }),
				want:   want,
			})
		}
	}
	runRuleCases(t, cases)
}

func TestValidateItems(t *testing.T) {
	item := func(f func(it *Item)) func(r *CreateTransactionRequest) {
		return func(r *CreateTransactionRequest) { f(&r.Items[1]) }
	}
	runRuleCases(t, []ruleCase{
		{"no items", func(r *CreateTransactionRequest) { r.Items = nil }, nil},
		{"title empty", item(func(it *Item) { it.Title = "" }), []fc{{"items[1].title", CodeRequired}}},
		{"title 1", item(func(it *Item) { it.Title = "X" }), []fc{{"items[1].title", CodeMinLength}}},
		{"title 2", item(func(it *Item) { it.Title = "XY" }), nil},
		{"title 150", item(func(it *Item) { it.Title = repeatRune('ü', 150) }), nil},
		{"title 151", item(func(it *Item) { it.Title = repeatRune('ü', 151) }), []fc{{"items[1].title", CodeMaxLength}}},
		{"description empty", item(func(it *Item) { it.Description = "" }), nil},
		{"title with NUL", item(func(it *Item) { it.Title = "Camiseta\x00" }), []fc{{"items[1].title", CodeFormat}}},
		{"description with a control character", item(func(it *Item) { it.Description = "\x01Algodão" }),
			[]fc{{"items[1].description", CodeFormat}}},
		{"description 1", item(func(it *Item) { it.Description = "d" }), []fc{{"items[1].description", CodeMinLength}}},
		{"description 2", item(func(it *Item) { it.Description = "dd" }), nil},
		{"description 255", item(func(it *Item) { it.Description = repeatRune('d', 255) }), nil},
		{"description 256", item(func(it *Item) { it.Description = repeatRune('d', 256) }), []fc{{"items[1].description", CodeMaxLength}}},
		{"unitPrice 0", item(func(it *Item) { it.UnitPrice = 0 }), []fc{{"items[1].unitPrice", CodeMin}}},
		{"unitPrice -5", item(func(it *Item) { it.UnitPrice = -5 }), []fc{{"items[1].unitPrice", CodeMin}}},
		{"unitPrice 1", item(func(it *Item) { it.UnitPrice = 1 }), nil},
		{"unitPrice 10000000", item(func(it *Item) { it.UnitPrice = 10000000 }), nil},
		{"unitPrice 10000001", item(func(it *Item) { it.UnitPrice = 10000001 }), []fc{{"items[1].unitPrice", CodeMax}}},
		{"quantity nil", item(func(it *Item) { it.Quantity = nil }), nil},
		{"quantity 0", item(func(it *Item) { it.Quantity = Ptr(0) }), []fc{{"items[1].quantity", CodeMin}}},
		{"quantity 1", item(func(it *Item) { it.Quantity = Ptr(1) }), nil},
		{"quantity 100", item(func(it *Item) { it.Quantity = Ptr(100) }), nil},
		{"quantity 101", item(func(it *Item) { it.Quantity = Ptr(101) }), []fc{{"items[1].quantity", CodeMax}}},
		// The spec does not tie the amount to the items: a mismatch is not a violation.
		{"items do not sum to amount", func(r *CreateTransactionRequest) { r.Amount = 1 }, nil},
	})
}

func TestValidatePixAndMetadata(t *testing.T) {
	runRuleCases(t, []ruleCase{
		{"pix missing", func(r *CreateTransactionRequest) { r.Pix = nil }, []fc{{"pix", CodeRequired}}},
		{"pix empty", func(r *CreateTransactionRequest) { r.Pix = &PixRequest{} }, nil},
		{"expiration 59", func(r *CreateTransactionRequest) { r.Pix.ExpirationSeconds = Ptr(59) }, []fc{{"pix.expirationSeconds", CodeMin}}},
		{"expiration 60", func(r *CreateTransactionRequest) { r.Pix.ExpirationSeconds = Ptr(60) }, nil},
		{"expiration 86400", func(r *CreateTransactionRequest) { r.Pix.ExpirationSeconds = Ptr(86400) }, nil},
		{"expiration 86401", func(r *CreateTransactionRequest) { r.Pix.ExpirationSeconds = Ptr(86401) }, []fc{{"pix.expirationSeconds", CodeMax}}},
		{"expiration 0", func(r *CreateTransactionRequest) { r.Pix.ExpirationSeconds = Ptr(0) }, []fc{{"pix.expirationSeconds", CodeMin}}},
		{"metadata nil", func(r *CreateTransactionRequest) { r.Metadata = nil }, nil},
		{"metadata nested", func(r *CreateTransactionRequest) {
			r.Metadata = map[string]any{"a": map[string]any{"b": []any{1, "x", nil, true}}}
		}, nil},
		{"metadata not encodable", func(r *CreateTransactionRequest) { r.Metadata = map[string]any{"ch": make(chan int)} },
			[]fc{{"metadata", CodeType}}},
	})
}

func TestValidateReportsAllAtOnce(t *testing.T) {
	r := validRequest()
	r.Amount = 0
	r.WebhookURL = "http://example.com"
	r.Customer.Document = "123"
	r.Items[1].UnitPrice = 10000001
	r.Address.ZipCode = "abc"
	err := r.ValidateAt(testNow())
	assertViolations(t, err, KindValidation, []fc{
		{"amount", CodeMin},
		{"webhookUrl", CodeHTTPS},
		{"customer.document", CodeDocument},
		{"address.zipCode", CodeFormat},
		{"items[1].unitPrice", CodeMax},
	})
	var ve *ValidationError
	errors.As(err, &ve)
	if got := ve.For("customer.document"); len(got) != 1 || got[0].Code != CodeDocument {
		t.Errorf("For(customer.document) = %v", got)
	}
	if got := ve.For("seller.name"); got != nil {
		t.Errorf("For(seller.name) = %v, want none", got)
	}
	// Each message reads back through ParseViolation with its field, as a 422 body carries it.
	for _, v := range ve.Violations {
		if p := ParseViolation(v.String()); p.Field != v.Field || p.Message != v.Message {
			t.Errorf("ParseViolation(%q) = %+v", v.String(), p)
		}
	}
	if !strings.Contains(err.Error(), "items[1].unitPrice: must be at most 10000000") {
		t.Errorf("Error() = %q", err)
	}
}

func TestWithDefaults(t *testing.T) {
	r := validRequest()
	r.IsInfoProduct = nil
	r.Pix = &PixRequest{}
	d := r.WithDefaults()
	if got := *d.Items[0].Quantity; got != 2 {
		t.Errorf("items[0].quantity = %d, want the 2 given", got)
	}
	if d.Items[1].Quantity == nil || *d.Items[1].Quantity != DefaultQuantity {
		t.Errorf("items[1].quantity = %v, want default 1", d.Items[1].Quantity)
	}
	if d.Pix.ExpirationSeconds == nil || *d.Pix.ExpirationSeconds != DefaultExpirationSeconds {
		t.Errorf("pix.expirationSeconds = %v, want default 1800", d.Pix.ExpirationSeconds)
	}
	if d.IsInfoProduct != nil {
		t.Errorf("isInfoProduct = %v, want left unset", *d.IsInfoProduct)
	}
	// The original is untouched and shares no slice or pointer that the copy changed.
	if r.Items[1].Quantity != nil || r.Pix.ExpirationSeconds != nil {
		t.Fatalf("WithDefaults changed its receiver: %+v %+v", r.Items[1], r.Pix)
	}
	d.Items[0].Title = "changed"
	if r.Items[0].Title == "changed" {
		t.Error("WithDefaults shares the items slice")
	}
	if d.Pix == r.Pix {
		t.Error("WithDefaults shares the pix value")
	}
	var empty CreateTransactionRequest
	if e := empty.WithDefaults(); e.Items != nil || e.Pix != nil {
		t.Errorf("WithDefaults of an empty request = %+v", e)
	}
	kept := CreateTransactionRequest{Pix: &PixRequest{ExpirationSeconds: Ptr(60)}}.WithDefaults()
	if *kept.Pix.ExpirationSeconds != 60 {
		t.Errorf("expirationSeconds = %d, want the 60 given", *kept.Pix.ExpirationSeconds)
	}
}

// filterTimes returns two times a day apart, with milliseconds, for the filters.
func filterTimes() (t0, t1 time.Time) {
	t0 = time.Date(2024, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	return t0, t0.Add(24 * time.Hour)
}

func TestDepositFilterValidate(t *testing.T) {
	t0, t1 := filterTimes()
	cases := []struct {
		name string
		f    DepositFilter
		want []fc
	}{
		{"empty", DepositFilter{}, nil},
		{"full", DepositFilter{StartDate: t0, EndDate: t1, Status: []DepositStatus{DepositPaid, DepositPending},
			MinAmount: 1, MaxAmount: 10000000, DepositOrigin: []DepositOrigin{OriginQRCode, OriginPixKey}, Page: 2, PerPage: 50}, nil},
		{"min 1", DepositFilter{MinAmount: 1}, nil},
		{"min -1", DepositFilter{MinAmount: -1}, []fc{{"minAmount", CodeMin}}},
		{"min 10000001", DepositFilter{MinAmount: 10000001}, []fc{{"minAmount", CodeMax}}},
		{"max 10000000", DepositFilter{MaxAmount: 10000000}, nil},
		{"max 10000001", DepositFilter{MaxAmount: 10000001}, []fc{{"maxAmount", CodeMax}}},
		{"max -3", DepositFilter{MaxAmount: -3}, []fc{{"maxAmount", CodeMin}}},
		{"min equals max", DepositFilter{MinAmount: 500, MaxAmount: 500}, nil},
		{"min above max", DepositFilter{MinAmount: 501, MaxAmount: 500}, []fc{{"maxAmount", CodeRange}}},
		{"start equals end", DepositFilter{StartDate: t0, EndDate: t0}, nil},
		{"start after end", DepositFilter{StartDate: t1, EndDate: t0}, []fc{{"endDate", CodeRange}}},
		{"start only", DepositFilter{StartDate: t1}, nil},
		{"year 10000", DepositFilter{EndDate: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, []fc{{"endDate", CodeFormat}}},
		{"status unknown", DepositFilter{Status: []DepositStatus{DepositPaid, "SETTLED"}}, []fc{{"status[1]", CodeEnum}}},
		{"status duplicate", DepositFilter{Status: []DepositStatus{DepositPaid, DepositPending, DepositPaid}}, []fc{{"status[2]", CodeDuplicate}}},
		{"status withdrawal only", DepositFilter{Status: []DepositStatus{"PROCESSED"}}, []fc{{"status[0]", CodeEnum}}},
		{"all statuses", DepositFilter{Status: DepositStatuses()}, nil},
		{"origin unknown", DepositFilter{DepositOrigin: []DepositOrigin{"BOLETO"}}, []fc{{"depositOrigin[0]", CodeEnum}}},
		{"origin duplicate", DepositFilter{DepositOrigin: []DepositOrigin{OriginPixKey, OriginPixKey}}, []fc{{"depositOrigin[1]", CodeDuplicate}}},
		{"page negative", DepositFilter{Page: -1, PerPage: -1}, []fc{{"page", CodeMin}, {"perPage", CodeMin}}},
		{"many at once", DepositFilter{MinAmount: -1, StartDate: t1, EndDate: t0, Status: []DepositStatus{DepositPaid, DepositPaid}},
			[]fc{{"minAmount", CodeMin}, {"endDate", CodeRange}, {"status[1]", CodeDuplicate}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assertViolations(t, tc.f.Validate(), KindValidation, tc.want)
		})
	}
}

func TestWithdrawalFilterValidate(t *testing.T) {
	t0, t1 := filterTimes()
	cases := []struct {
		name string
		f    WithdrawalFilter
		want []fc
	}{
		{"empty", WithdrawalFilter{}, nil},
		{"full", WithdrawalFilter{StartDate: t0, EndDate: t1, Status: []WithdrawalStatus{WithdrawalProcessed, WithdrawalFailed},
			ID: "f47ac10b-58cc-4372-a567-0e02b2c3d479", PixKey: "+5511987654321", EndToEnd: "E12345678202401021234abcdefghijk",
			EndToEndRefund: "D12345678202401021234abcdefghijk", ExternalCode: "order-000123", MinAmount: 10, MaxAmount: 10000000,
			Page: 1, PerPage: 20}, nil},
		{"min 9", WithdrawalFilter{MinAmount: 9}, []fc{{"minAmount", CodeMin}}},
		{"min 10", WithdrawalFilter{MinAmount: 10}, nil},
		{"max 10000000", WithdrawalFilter{MaxAmount: 10000000}, nil},
		{"max 10000001", WithdrawalFilter{MaxAmount: 10000001}, []fc{{"maxAmount", CodeMax}}},
		{"max 1", WithdrawalFilter{MaxAmount: 1}, []fc{{"maxAmount", CodeMin}}},
		{"min above max", WithdrawalFilter{MinAmount: 1000, MaxAmount: 999}, []fc{{"maxAmount", CodeRange}}},
		{"start after end", WithdrawalFilter{StartDate: t0.Add(time.Millisecond), EndDate: t0}, []fc{{"endDate", CodeRange}}},
		{"status duplicate", WithdrawalFilter{Status: []WithdrawalStatus{WithdrawalFailed, WithdrawalFailed}}, []fc{{"status[1]", CodeDuplicate}}},
		{"status deposit only", WithdrawalFilter{Status: []WithdrawalStatus{"PAID"}}, []fc{{"status[0]", CodeEnum}}},
		{"all statuses", WithdrawalFilter{Status: WithdrawalStatuses()}, nil},
		{"id v4 upper case", WithdrawalFilter{ID: "F47AC10B-58CC-4372-A567-0E02B2C3D479"}, nil},
		{"id v1", WithdrawalFilter{ID: "f47ac10b-58cc-1372-a567-0e02b2c3d479"}, []fc{{"id", CodeUUID}}},
		{"id bad variant", WithdrawalFilter{ID: "f47ac10b-58cc-4372-c567-0e02b2c3d479"}, []fc{{"id", CodeUUID}}},
		{"id not a uuid", WithdrawalFilter{ID: "12345"}, []fc{{"id", CodeUUID}}},
		{"pixKey CPF", WithdrawalFilter{PixKey: "52998224725"}, nil},
		{"pixKey CNPJ", WithdrawalFilter{PixKey: "12ABC34501DE35"}, nil},
		{"pixKey email", WithdrawalFilter{PixKey: "pix@example.com"}, nil},
		{"pixKey phone", WithdrawalFilter{PixKey: "+5511987654321"}, nil},
		{"pixKey EVP", WithdrawalFilter{PixKey: "f47ac10b-58cc-4372-a567-0e02b2c3d479"}, nil},
		{"pixKey bad CPF", WithdrawalFilter{PixKey: "52998224724"}, []fc{{"pixKey", CodePixKey}}},
		{"pixKey phone without +55", WithdrawalFilter{PixKey: "(11) 98765-4321"}, []fc{{"pixKey", CodePixKey}}},
		{"pixKey junk", WithdrawalFilter{PixKey: "hello"}, []fc{{"pixKey", CodePixKey}}},
		{"endToEnd 7", WithdrawalFilter{EndToEnd: repeatRune('e', 7)}, []fc{{"endToEnd", CodeMinLength}}},
		{"endToEnd 8", WithdrawalFilter{EndToEnd: repeatRune('e', 8)}, nil},
		{"endToEnd 255", WithdrawalFilter{EndToEnd: repeatRune('e', 255)}, nil},
		{"endToEnd 256", WithdrawalFilter{EndToEnd: repeatRune('e', 256)}, []fc{{"endToEnd", CodeMaxLength}}},
		{"endToEndRefund 7", WithdrawalFilter{EndToEndRefund: repeatRune('e', 7)}, []fc{{"endToEndRefund", CodeMinLength}}},
		{"endToEndRefund 256", WithdrawalFilter{EndToEndRefund: repeatRune('e', 256)}, []fc{{"endToEndRefund", CodeMaxLength}}},
		{"externalCode 7", WithdrawalFilter{ExternalCode: repeatRune('x', 7)}, []fc{{"externalCode", CodeMinLength}}},
		{"externalCode 256", WithdrawalFilter{ExternalCode: repeatRune('x', 256)}, []fc{{"externalCode", CodeMaxLength}}},
		{"perPage negative", WithdrawalFilter{PerPage: -10}, []fc{{"perPage", CodeMin}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assertViolations(t, tc.f.Validate(), KindValidation, tc.want)
		})
	}
}

// BenchmarkValidateAndEncode measures validating one full CreateTransaction request and
// encoding it as the body of POST /transaction.
func BenchmarkValidateAndEncode(b *testing.B) {
	r := validRequest()
	b.ReportAllocs()
	for b.Loop() {
		if err := r.ValidateAt(testNow()); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(r.WithDefaults()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate measures the validation of one full CreateTransaction request alone, the
// part of BenchmarkValidateAndEncode that is not JSON encoding.
func BenchmarkValidate(b *testing.B) {
	r := validRequest()
	now := testNow()
	b.ReportAllocs()
	for b.Loop() {
		if err := r.ValidateAt(now); err != nil {
			b.Fatal(err)
		}
	}
}
