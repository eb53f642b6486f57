package gatewayclient

import (
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"
)

// validBody is a JSON body that passes every rule, with every field.
const validBody = `{
	"amount": 15000,
	"paymentMethod": "PIX",
	"webhookUrl": "https://shop.example.com/hooks/pix?source=gw",
	"externalCode": "order-000123",
	"idempotencyKey": "8a6e0804-2bd0-4672-b79d-d97027f9071a",
	"customer": {
		"ip": "203.0.113.7", "name": "Maria José", "document": "529.982.247-25",
		"email": "maria@example.com.br", "landline": "(11) 3456-7890",
		"mobilePhone": "(11) 98765-4321", "birthdate": "1990-05-17"
	},
	"seller": {"name": "Loja Exemplo", "document": "11.222.333/0001-81"},
	"isInfoProduct": false,
	"address": {
		"zipCode": "01310-100", "complement": "Apto 12", "number": "1578", "street": "Avenida Paulista",
		"neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP", "country": "Brasil"
	},
	"items": [
		{"title": "Camiseta", "description": "Algodão", "unitPrice": 5000, "quantity": 2},
		{"title": "Boné", "unitPrice": 5000, "quantity": null}
	],
	"metadata": {"campaign": "winter", "n": 12345678901234567890, "nested": {"list": [1.5, "x", null]}},
	"pix": {"expirationSeconds": 3600},
	"unknownField": "ignored"
}`

// patchBody returns validBody with the JSON values at the given paths replaced: each path is
// dot-separated ("customer.name", "items.1.unitPrice"); a replacement of deleteKey removes
// the key. Replacements are raw JSON.
func patchBody(t *testing.T, patches map[string]string) []byte {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(validBody), &doc); err != nil {
		t.Fatal(err)
	}
	for path, raw := range patches {
		keys := strings.Split(path, ".")
		parent := doc
		for _, k := range keys[:len(keys)-1] {
			switch p := parent.(type) {
			case map[string]any:
				parent = p[k]
			case []any:
				parent = p[int(k[0]-'0')]
			}
		}
		last := keys[len(keys)-1]
		switch p := parent.(type) {
		case map[string]any:
			if raw == deleteKey {
				delete(p, last)
				continue
			}
			p[last] = json.RawMessage(raw)
		case []any:
			p[int(last[0]-'0')] = json.RawMessage(raw)
		}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const deleteKey = "<delete>"

func TestDecodeValidBody(t *testing.T) {
	r, err := DecodeCreateTransactionRequest([]byte(validBody))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	want := CreateTransactionRequest{
		Amount:         15000,
		PaymentMethod:  PaymentMethodPIX,
		WebhookURL:     "https://shop.example.com/hooks/pix?source=gw",
		ExternalCode:   "order-000123",
		IdempotencyKey: "8a6e0804-2bd0-4672-b79d-d97027f9071a",
		Customer: &Customer{
			IP: "203.0.113.7", Name: "Maria José", Document: "529.982.247-25", Email: "maria@example.com.br",
			Landline: "(11) 3456-7890", MobilePhone: "(11) 98765-4321", Birthdate: Date{1990, time.May, 17},
		},
		Seller:        &Seller{Name: "Loja Exemplo", Document: "11.222.333/0001-81"},
		IsInfoProduct: Ptr(false),
		Address: &Address{ZipCode: "01310-100", Complement: "Apto 12", Number: "1578", Street: "Avenida Paulista",
			Neighborhood: "Bela Vista", City: "São Paulo", State: "SP", Country: "Brasil"},
		Items: []Item{
			{Title: "Camiseta", Description: "Algodão", UnitPrice: 5000, Quantity: Ptr(2)},
			{Title: "Boné", UnitPrice: 5000},
		},
		// Numbers of the free metadata keep their text: nothing is rounded through float64.
		Metadata: map[string]any{"campaign": "winter", "n": json.Number("12345678901234567890"),
			"nested": map[string]any{"list": []any{json.Number("1.5"), "x", nil}}},
		Pix: &PixRequest{ExpirationSeconds: Ptr(3600)},
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("decoded\n got %+v\nwant %+v", r, want)
	}
	minimal := `{"amount":1,"paymentMethod":"PIX","idempotencyKey":"12345678","pix":{},"items":[],"metadata":{}}`
	r, err = DecodeCreateTransactionRequest([]byte(minimal))
	if err != nil {
		t.Fatalf("decode minimal: %v", err)
	}
	if r.Items != nil || r.Metadata != nil || r.Pix == nil || r.Pix.ExpirationSeconds != nil || !r.InfoProduct() {
		t.Errorf("minimal decoded as %+v", r)
	}
}

func TestDecodeRules(t *testing.T) {
	cases := []struct {
		name    string
		patches map[string]string
		kind    UnprocessableKind
		want    []fc
	}{
		// amount at its boundaries, as JSON
		{"amount 0", map[string]string{"amount": "0"}, KindValidation, []fc{{"amount", CodeMin}}},
		{"amount 1", map[string]string{"amount": "1"}, "", nil},
		{"amount 10000000", map[string]string{"amount": "10000000"}, "", nil},
		{"amount 10000001", map[string]string{"amount": "10000001"}, KindValidation, []fc{{"amount", CodeMax}}},
		{"amount -1", map[string]string{"amount": "-1"}, KindValidation, []fc{{"amount", CodeMin}}},
		{"amount huge", map[string]string{"amount": "123456789012345678901234567890"}, KindValidation, []fc{{"amount", CodeMax}}},
		{"amount huge negative", map[string]string{"amount": "-123456789012345678901234567890"}, KindValidation, []fc{{"amount", CodeMin}}},
		{"amount 1.5", map[string]string{"amount": "1.5"}, KindInvalidData, []fc{{"amount", CodeInteger}}},
		{"amount 100.0", map[string]string{"amount": "100.0"}, KindInvalidData, []fc{{"amount", CodeInteger}}},
		{"amount 1e3", map[string]string{"amount": "1e3"}, KindInvalidData, []fc{{"amount", CodeInteger}}},
		{"amount string", map[string]string{"amount": `"10"`}, KindInvalidData, []fc{{"amount", CodeType}}},
		{"amount bool", map[string]string{"amount": "true"}, KindInvalidData, []fc{{"amount", CodeType}}},
		{"amount object", map[string]string{"amount": "{}"}, KindInvalidData, []fc{{"amount", CodeType}}},
		{"amount null", map[string]string{"amount": "null"}, KindInvalidData, []fc{{"amount", CodeRequired}}},
		{"amount missing", map[string]string{"amount": deleteKey}, KindInvalidData, []fc{{"amount", CodeRequired}}},
		// field names are case-sensitive
		{"Amount", map[string]string{"amount": deleteKey, "Amount": "100"}, KindInvalidData, []fc{{"amount", CodeRequired}}},
		// paymentMethod
		{"paymentMethod BOLETO", map[string]string{"paymentMethod": `"BOLETO"`}, KindInvalidData, []fc{{"paymentMethod", CodeEnum}}},
		{"paymentMethod pix", map[string]string{"paymentMethod": `"pix"`}, KindInvalidData, []fc{{"paymentMethod", CodeEnum}}},
		{"paymentMethod empty", map[string]string{"paymentMethod": `""`}, KindInvalidData, []fc{{"paymentMethod", CodeRequired}}},
		{"paymentMethod missing", map[string]string{"paymentMethod": deleteKey}, KindInvalidData, []fc{{"paymentMethod", CodeRequired}}},
		{"paymentMethod number", map[string]string{"paymentMethod": "1"}, KindInvalidData, []fc{{"paymentMethod", CodeType}}},
		// texts
		{"idempotencyKey missing", map[string]string{"idempotencyKey": deleteKey}, KindInvalidData, []fc{{"idempotencyKey", CodeRequired}}},
		{"idempotencyKey number", map[string]string{"idempotencyKey": "12345678"}, KindInvalidData, []fc{{"idempotencyKey", CodeType}}},
		{"idempotencyKey 7", map[string]string{"idempotencyKey": `"1234567"`}, KindValidation, []fc{{"idempotencyKey", CodeMinLength}}},
		{"webhookUrl number", map[string]string{"webhookUrl": "1"}, KindInvalidData, []fc{{"webhookUrl", CodeType}}},
		{"webhookUrl null", map[string]string{"webhookUrl": "null"}, "", nil},
		{"webhookUrl http", map[string]string{"webhookUrl": `"http://example.com"`}, KindValidation, []fc{{"webhookUrl", CodeHTTPS}}},
		{"externalCode array", map[string]string{"externalCode": `["a"]`}, KindInvalidData, []fc{{"externalCode", CodeType}}},
		// customer
		{"customer string", map[string]string{"customer": `"Maria"`}, KindInvalidData, []fc{{"customer", CodeType}}},
		{"customer null", map[string]string{"customer": "null"}, "", nil},
		{"customer empty", map[string]string{"customer": "{}"}, KindInvalidData,
			[]fc{{"customer.name", CodeRequired}, {"customer.document", CodeRequired}}},
		{"customer name number", map[string]string{"customer.name": "42"}, KindInvalidData, []fc{{"customer.name", CodeType}}},
		{"customer name empty", map[string]string{"customer.name": `""`}, KindValidation, []fc{{"customer.name", CodeRequired}}},
		{"customer document bad", map[string]string{"customer.document": `"123.456.789-00"`}, KindValidation, []fc{{"customer.document", CodeDocument}}},
		{"customer email object", map[string]string{"customer.email": `{"address":"a@b.com"}`}, KindInvalidData, []fc{{"customer.email", CodeType}}},
		{"customer email bad", map[string]string{"customer.email": `"a@b"`}, KindValidation, []fc{{"customer.email", CodeFormat}}},
		{"customer landline number", map[string]string{"customer.landline": "1134567890"}, KindInvalidData, []fc{{"customer.landline", CodeType}}},
		{"customer mobile bool", map[string]string{"customer.mobilePhone": "false"}, KindInvalidData, []fc{{"customer.mobilePhone", CodeType}}},
		{"customer ip bad", map[string]string{"customer.ip": `"1.2.3"`}, KindValidation, []fc{{"customer.ip", CodeFormat}}},
		{"birthdate with time", map[string]string{"customer.birthdate": `"1990-05-17T00:00:00Z"`}, KindInvalidData, []fc{{"customer.birthdate", CodeFormat}}},
		{"birthdate Feb 30", map[string]string{"customer.birthdate": `"1990-02-30"`}, KindInvalidData, []fc{{"customer.birthdate", CodeFormat}}},
		{"birthdate Brazilian order", map[string]string{"customer.birthdate": `"17/05/1990"`}, KindInvalidData, []fc{{"customer.birthdate", CodeFormat}}},
		{"birthdate number", map[string]string{"customer.birthdate": "19900517"}, KindInvalidData, []fc{{"customer.birthdate", CodeType}}},
		{"birthdate empty", map[string]string{"customer.birthdate": `""`}, "", nil},
		{"birthdate future", map[string]string{"customer.birthdate": `"2999-01-01"`}, KindValidation, []fc{{"customer.birthdate", CodeFuture}}},
		// seller
		{"seller empty", map[string]string{"seller": "{}"}, KindInvalidData,
			[]fc{{"seller.name", CodeRequired}, {"seller.document", CodeRequired}}},
		{"seller array", map[string]string{"seller": "[]"}, KindInvalidData, []fc{{"seller", CodeType}}},
		// isInfoProduct and address
		{"isInfoProduct string", map[string]string{"isInfoProduct": `"false"`}, KindInvalidData, []fc{{"isInfoProduct", CodeType}}},
		{"physical without address", map[string]string{"address": deleteKey}, KindValidation, []fc{{"address", CodeRequired}}},
		{"physical with null address", map[string]string{"address": "null"}, KindValidation, []fc{{"address", CodeRequired}}},
		{"digital without address", map[string]string{"address": deleteKey, "isInfoProduct": "true"}, "", nil},
		{"default digital without address", map[string]string{"address": deleteKey, "isInfoProduct": deleteKey}, "", nil},
		{"address empty", map[string]string{"address": "{}"}, KindInvalidData, []fc{
			{"address.zipCode", CodeRequired}, {"address.number", CodeRequired}, {"address.street", CodeRequired},
			{"address.neighborhood", CodeRequired}, {"address.city", CodeRequired}, {"address.state", CodeRequired},
			{"address.country", CodeRequired}}},
		{"address number as number", map[string]string{"address.number": "1578"}, KindInvalidData, []fc{{"address.number", CodeType}}},
		{"address zipCode bad", map[string]string{"address.zipCode": `"01310"`}, KindValidation, []fc{{"address.zipCode", CodeFormat}}},
		// items
		{"items object", map[string]string{"items": "{}"}, KindInvalidData, []fc{{"items", CodeType}}},
		{"items of numbers", map[string]string{"items": "[1, null]"}, KindInvalidData, []fc{{"items[0]", CodeType}, {"items[1]", CodeType}}},
		{"item empty", map[string]string{"items.1": "{}"}, KindInvalidData,
			[]fc{{"items[1].title", CodeRequired}, {"items[1].unitPrice", CodeRequired}}},
		{"item unitPrice 1.5", map[string]string{"items.1.unitPrice": "1.5"}, KindInvalidData, []fc{{"items[1].unitPrice", CodeInteger}}},
		{"item unitPrice 0", map[string]string{"items.1.unitPrice": "0"}, KindValidation, []fc{{"items[1].unitPrice", CodeMin}}},
		{"item quantity 0", map[string]string{"items.0.quantity": "0"}, KindValidation, []fc{{"items[0].quantity", CodeMin}}},
		{"item quantity 1", map[string]string{"items.0.quantity": "1"}, "", nil},
		{"item quantity 100", map[string]string{"items.0.quantity": "100"}, "", nil},
		{"item quantity 101", map[string]string{"items.0.quantity": "101"}, KindValidation, []fc{{"items[0].quantity", CodeMax}}},
		{"item quantity huge", map[string]string{"items.0.quantity": "99999999999999999999999"}, KindValidation, []fc{{"items[0].quantity", CodeMax}}},
		{"item quantity 1.5", map[string]string{"items.0.quantity": "1.5"}, KindInvalidData, []fc{{"items[0].quantity", CodeInteger}}},
		{"item quantity string", map[string]string{"items.0.quantity": `"2"`}, KindInvalidData, []fc{{"items[0].quantity", CodeType}}},
		{"item title 1", map[string]string{"items.0.title": `"X"`}, KindValidation, []fc{{"items[0].title", CodeMinLength}}},
		// metadata and pix
		{"metadata string", map[string]string{"metadata": `"x"`}, KindInvalidData, []fc{{"metadata", CodeType}}},
		{"metadata array", map[string]string{"metadata": `[1]`}, KindInvalidData, []fc{{"metadata", CodeType}}},
		{"pix missing", map[string]string{"pix": deleteKey}, KindValidation, []fc{{"pix", CodeRequired}}},
		{"pix string", map[string]string{"pix": `"yes"`}, KindInvalidData, []fc{{"pix", CodeType}}},
		{"expiration 59", map[string]string{"pix.expirationSeconds": "59"}, KindValidation, []fc{{"pix.expirationSeconds", CodeMin}}},
		{"expiration 60", map[string]string{"pix.expirationSeconds": "60"}, "", nil},
		{"expiration 86400", map[string]string{"pix.expirationSeconds": "86400"}, "", nil},
		{"expiration 86401", map[string]string{"pix.expirationSeconds": "86401"}, KindValidation, []fc{{"pix.expirationSeconds", CodeMax}}},
		{"expiration string", map[string]string{"pix.expirationSeconds": `"60"`}, KindInvalidData, []fc{{"pix.expirationSeconds", CodeType}}},
		{"expiration 60.5", map[string]string{"pix.expirationSeconds": "60.5"}, KindInvalidData, []fc{{"pix.expirationSeconds", CodeInteger}}},
		// every invalid-data violation at once, and validations wait until the data reads
		{"invalid data at once", map[string]string{
			"amount": `"10"`, "paymentMethod": `"BOLETO"`, "customer.name": deleteKey, "items.1.unitPrice": "2.5",
			"pix.expirationSeconds": "true", "idempotencyKey": `"short"`,
		}, KindInvalidData, []fc{
			{"amount", CodeType}, {"paymentMethod", CodeEnum}, {"customer.name", CodeRequired},
			{"items[1].unitPrice", CodeInteger}, {"pix.expirationSeconds", CodeType}}},
		{"validations at once", map[string]string{
			"amount": "0", "webhookUrl": `"https://localhost/x"`, "customer.document": `"111"`,
			"items.0.quantity": "101", "pix.expirationSeconds": "59",
		}, KindValidation, []fc{
			{"amount", CodeMin}, {"webhookUrl", CodeURL}, {"customer.document", CodeDocument},
			{"items[0].quantity", CodeMax}, {"pix.expirationSeconds", CodeMin}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := DecodeCreateTransactionRequest(patchBody(t, tc.patches))
			assertViolations(t, err, tc.kind, tc.want)
			switch tc.kind {
			case KindInvalidData:
				if !reflect.DeepEqual(r, CreateTransactionRequest{}) {
					t.Errorf("invalid data returned a request: %+v", r)
				}
			case KindValidation:
				if r.IdempotencyKey == "" {
					t.Errorf("a request failing validation should be returned as decoded: %+v", r)
				}
			}
		})
	}
}

func TestDecodeMalformedBodies(t *testing.T) {
	cases := []struct {
		body string
		want fc
	}{
		{``, fc{"", CodeJSON}},
		{`{`, fc{"", CodeJSON}},
		{`{"amount": 1,}`, fc{"", CodeJSON}},
		{`{"amount": 1}{}`, fc{"", CodeJSON}},
		{`null`, fc{"", CodeType}},
		{`[]`, fc{"", CodeType}},
		{`"amount"`, fc{"", CodeType}},
		{`42`, fc{"", CodeType}},
	}
	for _, tc := range cases {
		r, err := DecodeCreateTransactionRequest([]byte(tc.body))
		assertViolations(t, err, KindInvalidData, []fc{tc.want})
		if !reflect.DeepEqual(r, CreateTransactionRequest{}) {
			t.Errorf("%q returned a request: %+v", tc.body, r)
		}
	}
}

// TestDecodeEncodeRoundTrip checks that what the client sends (json.Marshal of a request) is
// read back by the sandbox into the same request.
func TestDecodeEncodeRoundTrip(t *testing.T) {
	r := validRequest()
	r.Metadata = map[string]any{"campaign": "winter", "n": json.Number("3")}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeCreateTransactionRequest(b)
	if err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip\n got %+v\nwant %+v", got, r)
	}
}

func TestParseDepositFilter(t *testing.T) {
	cases := []struct {
		name  string
		query string
		want  DepositFilter
		kind  UnprocessableKind
		viols []fc
	}{
		{name: "empty", query: ""},
		{name: "blank form fields ignored", query: "startDate=&endDate=&minAmount=&maxAmount=&status=&depositOrigin=&page=&perPage="},
		{name: "dates with and without milliseconds",
			query: "startDate=2024-01-02T03:04:05Z&endDate=2024-01-03T03:04:05.123Z",
			want: DepositFilter{StartDate: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
				EndDate: time.Date(2024, 1, 3, 3, 4, 5, 123_000_000, time.UTC)}},
		{name: "date with offset becomes UTC", query: "startDate=" + url.QueryEscape("2024-01-02T00:00:00-03:00"),
			want: DepositFilter{StartDate: time.Date(2024, 1, 2, 3, 0, 0, 0, time.UTC)}},
		{name: "status repeated and comma separated", query: "status=PAID,PENDING&status=REFUNDED&depositOrigin=QRCODE,%20PIX_KEY",
			want: DepositFilter{Status: []DepositStatus{DepositPaid, DepositPending, DepositRefunded},
				DepositOrigin: []DepositOrigin{OriginQRCode, OriginPixKey}}},
		{name: "amounts and paging", query: "minAmount=1&maxAmount=10000000&page=3&perPage=25",
			want: DepositFilter{MinAmount: 1, MaxAmount: 10000000, Page: 3, PerPage: 25}},
		{name: "date without time", query: "startDate=2024-01-02", kind: KindInvalidData, viols: []fc{{"startDate", CodeFormat}}},
		{name: "date without zone", query: "endDate=2024-01-02T03:04:05", kind: KindInvalidData, viols: []fc{{"endDate", CodeFormat}}},
		{name: "date twice", query: "startDate=2024-01-02T03:04:05Z&startDate=2024-01-03T03:04:05Z", kind: KindInvalidData, viols: []fc{{"startDate", CodeDuplicate}}},
		{name: "decimal amount", query: "minAmount=1.5", kind: KindInvalidData, viols: []fc{{"minAmount", CodeInteger}}},
		{name: "word amount", query: "maxAmount=ten", kind: KindInvalidData, viols: []fc{{"maxAmount", CodeInteger}}},
		{name: "unknown status", query: "status=PAID&status=SETTLED", kind: KindInvalidData, viols: []fc{{"status[1]", CodeEnum}}},
		{name: "unknown origin", query: "depositOrigin=QRCODE,BOLETO", kind: KindInvalidData, viols: []fc{{"depositOrigin[1]", CodeEnum}}},
		{name: "bad page", query: "page=first", kind: KindInvalidData, viols: []fc{{"page", CodeInteger}}},
		{name: "invalid data at once", query: "startDate=yesterday&minAmount=1.5&status=NOPE",
			kind: KindInvalidData, viols: []fc{{"startDate", CodeFormat}, {"status[0]", CodeEnum}, {"minAmount", CodeInteger}}},
		{name: "negative amount", query: "minAmount=-5", want: DepositFilter{MinAmount: -5},
			kind: KindValidation, viols: []fc{{"minAmount", CodeMin}}},
		{name: "huge amount", query: "maxAmount=99999999999999999999999", want: DepositFilter{MaxAmount: 1<<63 - 1},
			kind: KindValidation, viols: []fc{{"maxAmount", CodeMax}}},
		{name: "duplicate status", query: "status=PAID,PENDING&status=PAID",
			want: DepositFilter{Status: []DepositStatus{DepositPaid, DepositPending, DepositPaid}},
			kind: KindValidation, viols: []fc{{"status[2]", CodeDuplicate}}},
		{name: "reversed range", query: "minAmount=200&maxAmount=100&startDate=2024-01-03T00:00:00Z&endDate=2024-01-02T00:00:00Z",
			want: DepositFilter{MinAmount: 200, MaxAmount: 100,
				StartDate: time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC), EndDate: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)},
			kind: KindValidation, viols: []fc{{"maxAmount", CodeRange}, {"endDate", CodeRange}}},
		// 0 is "not set" in the filter type, but a 0 that was sent breaks the minimum.
		{name: "explicit zero amounts", query: "minAmount=0&maxAmount=0&status=PAID,PAID", want: DepositFilter{Status: []DepositStatus{DepositPaid, DepositPaid}},
			kind: KindValidation, viols: []fc{{"status[1]", CodeDuplicate}, {"minAmount", CodeMin}, {"maxAmount", CodeMin}}},
		{name: "explicit zero alone", query: "maxAmount=0", kind: KindValidation, viols: []fc{{"maxAmount", CodeMin}}},
		{name: "negative page", query: "page=-1", want: DepositFilter{Page: -1}, kind: KindValidation, viols: []fc{{"page", CodeMin}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			f, err := ParseDepositFilter(q, "", "")
			assertViolations(t, err, tc.kind, tc.viols)
			if !reflect.DeepEqual(f, tc.want) {
				t.Errorf("filter\n got %+v\nwant %+v", f, tc.want)
			}
		})
	}
}

func TestParseFilterPagingNames(t *testing.T) {
	q := url.Values{"p": {"-1"}, "size": {"-2"}, "page": {"junk"}}
	_, err := ParseDepositFilter(q, "p", "size")
	assertViolations(t, err, KindValidation, []fc{{"p", CodeMin}, {"size", CodeMin}})
	_, err = ParseWithdrawalFilter(url.Values{"pagina": {"x"}}, "pagina", "")
	assertViolations(t, err, KindInvalidData, []fc{{"pagina", CodeInteger}})

	f := DepositFilter{Page: 4, PerPage: 30}
	got := f.Query("p", "size")
	if want := (url.Values{"p": {"4"}, "size": {"30"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("Query = %v, want %v", got, want)
	}
	if back, err := ParseDepositFilter(got, "p", "size"); err != nil || !reflect.DeepEqual(back, f) {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func TestParseWithdrawalFilter(t *testing.T) {
	cases := []struct {
		name  string
		query string
		want  WithdrawalFilter
		kind  UnprocessableKind
		viols []fc
	}{
		{name: "texts", query: "id=f47ac10b-58cc-4372-a567-0e02b2c3d479&pixKey=%2B5511987654321&endToEnd=E1234567890&endToEndRefund=D1234567890&externalCode=order-0001",
			want: WithdrawalFilter{ID: "f47ac10b-58cc-4372-a567-0e02b2c3d479", PixKey: "+5511987654321",
				EndToEnd: "E1234567890", EndToEndRefund: "D1234567890", ExternalCode: "order-0001"}},
		{name: "statuses", query: "status=PROCESSED&status=FAILED,CANCELED",
			want: WithdrawalFilter{Status: []WithdrawalStatus{WithdrawalProcessed, WithdrawalFailed, WithdrawalCanceled}}},
		{name: "deposit status", query: "status=PAID", kind: KindInvalidData, viols: []fc{{"status[0]", CodeEnum}}},
		{name: "id twice", query: "id=a&id=b", kind: KindInvalidData, viols: []fc{{"id", CodeDuplicate}}},
		{name: "bad id and key", query: "id=123&pixKey=nope", want: WithdrawalFilter{ID: "123", PixKey: "nope"},
			kind: KindValidation, viols: []fc{{"id", CodeUUID}, {"pixKey", CodePixKey}}},
		{name: "amount 0", query: "minAmount=0", kind: KindValidation, viols: []fc{{"minAmount", CodeMin}}},
		{name: "amount 9", query: "minAmount=9&maxAmount=10", want: WithdrawalFilter{MinAmount: 9, MaxAmount: 10},
			kind: KindValidation, viols: []fc{{"minAmount", CodeMin}}},
		{name: "short codes", query: "endToEnd=1234567&externalCode=abc", want: WithdrawalFilter{EndToEnd: "1234567", ExternalCode: "abc"},
			kind: KindValidation, viols: []fc{{"endToEnd", CodeMinLength}, {"externalCode", CodeMinLength}}},
		{name: "duplicate status", query: "status=FAILED&status=FAILED",
			want: WithdrawalFilter{Status: []WithdrawalStatus{WithdrawalFailed, WithdrawalFailed}},
			kind: KindValidation, viols: []fc{{"status[1]", CodeDuplicate}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			f, err := ParseWithdrawalFilter(q, "", "")
			assertViolations(t, err, tc.kind, tc.viols)
			if !reflect.DeepEqual(f, tc.want) {
				t.Errorf("filter\n got %+v\nwant %+v", f, tc.want)
			}
		})
	}
}

func TestFilterQueryRoundTrip(t *testing.T) {
	t0, t1 := filterTimes()
	deposits := []DepositFilter{
		{},
		{StartDate: t0, EndDate: t1, Status: []DepositStatus{DepositPaid, DepositPixQRCodeGenerated}, MinAmount: 1,
			MaxAmount: 10000000, DepositOrigin: []DepositOrigin{OriginPixKey, OriginQRCode}, Page: 1, PerPage: 100},
		{Status: DepositStatuses()},
		{EndDate: t1, MaxAmount: 5000},
	}
	for _, f := range deposits {
		q := f.Query("", "")
		back, err := ParseDepositFilter(q, "", "")
		if err != nil || !reflect.DeepEqual(back, f) {
			t.Errorf("deposit filter %+v -> %s -> %+v, %v", f, q.Encode(), back, err)
		}
	}
	withdrawals := []WithdrawalFilter{
		{},
		{StartDate: t0, EndDate: t1, Status: WithdrawalStatuses(), ID: "f47ac10b-58cc-4372-a567-0e02b2c3d479",
			PixKey: "+5511987654321", EndToEnd: "E12345678", EndToEndRefund: "D12345678", ExternalCode: "ext code & more",
			MinAmount: 10, MaxAmount: 10000000, Page: 2, PerPage: 10},
		{PixKey: "pix+tag@example.com"},
	}
	for _, f := range withdrawals {
		q := f.Query("", "")
		// Through the wire: encoded, then parsed as a server reads a URL.
		wire, err := url.ParseQuery(q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseWithdrawalFilter(wire, "", "")
		if err != nil || !reflect.DeepEqual(back, f) {
			t.Errorf("withdrawal filter %+v -> %s -> %+v, %v", f, q.Encode(), back, err)
		}
	}
}

func TestFilterQueryFormat(t *testing.T) {
	f := DepositFilter{
		StartDate: time.Date(2024, 1, 2, 0, 30, 0, 123_456_789, time.FixedZone("BRT", -3*60*60)),
		Status:    []DepositStatus{DepositPaid, DepositRefunded},
		MinAmount: 100,
	}
	got := f.Query("", "")
	want := url.Values{
		"startDate": {"2024-01-02T03:30:00.123Z"},
		"status":    {"PAID", "REFUNDED"},
		"minAmount": {"100"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Query = %v, want %v", got, want)
	}
	if enc := got.Encode(); !strings.Contains(enc, "status=PAID&status=REFUNDED") {
		t.Errorf("status is not repeated: %s", enc)
	}
}

// TestDecodeRefusesDuplicateKeys: a key given twice in one object, at any depth, is refused as
// invalid data naming its path, rather than read as the last (or first) value.
func TestDecodeRefusesDuplicateKeys(t *testing.T) {
	for body, want := range map[string][]string{
		`{"amount":1990,"amount":1,"paymentMethod":"PIX","idempotencyKey":"dup-key-0001","pix":{}}`:                                                                       {"amount"},
		`{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"dup-key-0001","pix":{"expirationSeconds":60,"expirationSeconds":86400}}`:                                  {"pix.expirationSeconds"},
		`{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"dup-key-0001","pix":{},"items":[{"title":"ab","unitPrice":1},{"title":"ab","title":"cd","unitPrice":1}]}`: {"items[1].title"},
		`{"amount":1990,"paymentMethod":"PIX","paymentMethod":"PIX","idempotencyKey":"a","idempotencyKey":"b","pix":{}}`:                                                  {"paymentMethod", "idempotencyKey"},
		`{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"dup-key-0001","pix":{},"metadata":{"a":1,"a":2}}`:                                                         {"metadata.a"},
	} {
		_, err := DecodeCreateTransactionRequest([]byte(body))
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Kind != KindInvalidData {
			t.Fatalf("%s: %v, want invalid data", body, err)
		}
		var got []string
		for _, v := range ve.Violations {
			if v.Code != CodeDuplicate {
				t.Errorf("%s: violation %+v", body, v)
			}
			got = append(got, v.Field)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: duplicates %v, want %v", body, got, want)
		}
	}
	// The same keys in different objects are no duplicates.
	ok := `{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"dup-key-0001","pix":{},"customer":{"name":"Ana Lima","document":"529.982.247-25"},"seller":{"name":"Loja","document":"11.222.333/0001-81"}}`
	if _, err := DecodeCreateTransactionRequest([]byte(ok)); err != nil {
		t.Fatalf("distinct objects sharing key names: %v", err)
	}
}
