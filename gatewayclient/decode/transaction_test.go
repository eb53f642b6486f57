package decode_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/decode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
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

// validRequest is the request validBody holds.
func validRequest() gc.CreateTransactionRequest {
	return gc.CreateTransactionRequest{
		Amount:         15000,
		PaymentMethod:  gc.PaymentMethodPIX,
		WebhookURL:     "https://shop.example.com/hooks/pix?source=gw",
		ExternalCode:   "order-000123",
		IdempotencyKey: "8a6e0804-2bd0-4672-b79d-d97027f9071a",
		Customer: &gc.Customer{
			IP: "203.0.113.7", Name: "Maria José", Document: "529.982.247-25", Email: "maria@example.com.br",
			Landline: "(11) 3456-7890", MobilePhone: "(11) 98765-4321", Birthdate: gc.Date{Year: 1990, Month: time.May, Day: 17},
		},
		Seller:        &gc.Seller{Name: "Loja Exemplo", Document: "11.222.333/0001-81"},
		IsInfoProduct: gc.Ptr(false),
		Address: &gc.Address{ZipCode: "01310-100", Complement: "Apto 12", Number: "1578", Street: "Avenida Paulista",
			Neighborhood: "Bela Vista", City: "São Paulo", State: "SP", Country: "Brasil"},
		Items: []gc.Item{
			{Title: "Camiseta", Description: "Algodão", UnitPrice: 5000, Quantity: gc.Ptr(2)},
			{Title: "Boné", UnitPrice: 5000},
		},
		// Numbers of the free metadata keep their text: nothing is rounded through float64.
		Metadata: map[string]any{"campaign": "winter", "n": json.Number("12345678901234567890"),
			"nested": map[string]any{"list": []any{json.Number("1.5"), "x", nil}}},
		Pix: &gc.PixRequest{ExpirationSeconds: gc.Ptr(3600)},
	}
}

func TestDecodeValidBody(t *testing.T) {
	r, err := decode.CreateTransactionRequest([]byte(validBody))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	want := validRequest()
	if !reflect.DeepEqual(r, want) {
		t.Errorf("decoded\n got %+v\nwant %+v", r, want)
	}
	minimal := `{"amount":1,"paymentMethod":"PIX","idempotencyKey":"12345678","pix":{},"items":[],"metadata":{}}`
	r, err = decode.CreateTransactionRequest([]byte(minimal))
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
		kind    gc.UnprocessableKind
		want    []fc
	}{
		// amount at its boundaries, as JSON
		{"amount 0", map[string]string{"amount": "0"}, gc.KindValidation, []fc{{"amount", gc.CodeMin}}},
		{"amount 1", map[string]string{"amount": "1"}, "", nil},
		{"amount 10000000", map[string]string{"amount": "10000000"}, "", nil},
		{"amount 10000001", map[string]string{"amount": "10000001"}, gc.KindValidation, []fc{{"amount", gc.CodeMax}}},
		{"amount -1", map[string]string{"amount": "-1"}, gc.KindValidation, []fc{{"amount", gc.CodeMin}}},
		{"amount huge", map[string]string{"amount": "123456789012345678901234567890"}, gc.KindValidation, []fc{{"amount", gc.CodeMax}}},
		{"amount huge negative", map[string]string{"amount": "-123456789012345678901234567890"}, gc.KindValidation, []fc{{"amount", gc.CodeMin}}},
		{"amount 1.5", map[string]string{"amount": "1.5"}, gc.KindInvalidData, []fc{{"amount", gc.CodeInteger}}},
		{"amount 100.0", map[string]string{"amount": "100.0"}, gc.KindInvalidData, []fc{{"amount", gc.CodeInteger}}},
		{"amount 1e3", map[string]string{"amount": "1e3"}, gc.KindInvalidData, []fc{{"amount", gc.CodeInteger}}},
		{"amount string", map[string]string{"amount": `"10"`}, gc.KindInvalidData, []fc{{"amount", gc.CodeType}}},
		{"amount bool", map[string]string{"amount": "true"}, gc.KindInvalidData, []fc{{"amount", gc.CodeType}}},
		{"amount object", map[string]string{"amount": "{}"}, gc.KindInvalidData, []fc{{"amount", gc.CodeType}}},
		{"amount null", map[string]string{"amount": "null"}, gc.KindInvalidData, []fc{{"amount", gc.CodeRequired}}},
		{"amount missing", map[string]string{"amount": deleteKey}, gc.KindInvalidData, []fc{{"amount", gc.CodeRequired}}},
		// field names are case-sensitive
		{"Amount", map[string]string{"amount": deleteKey, "Amount": "100"}, gc.KindInvalidData, []fc{{"amount", gc.CodeRequired}}},
		// paymentMethod
		{"paymentMethod BOLETO", map[string]string{"paymentMethod": `"BOLETO"`}, gc.KindInvalidData, []fc{{"paymentMethod", gc.CodeEnum}}},
		{"paymentMethod pix", map[string]string{"paymentMethod": `"pix"`}, gc.KindInvalidData, []fc{{"paymentMethod", gc.CodeEnum}}},
		{"paymentMethod empty", map[string]string{"paymentMethod": `""`}, gc.KindInvalidData, []fc{{"paymentMethod", gc.CodeRequired}}},
		{"paymentMethod missing", map[string]string{"paymentMethod": deleteKey}, gc.KindInvalidData, []fc{{"paymentMethod", gc.CodeRequired}}},
		{"paymentMethod number", map[string]string{"paymentMethod": "1"}, gc.KindInvalidData, []fc{{"paymentMethod", gc.CodeType}}},
		// texts
		{"idempotencyKey missing", map[string]string{"idempotencyKey": deleteKey}, gc.KindInvalidData, []fc{{"idempotencyKey", gc.CodeRequired}}},
		{"idempotencyKey number", map[string]string{"idempotencyKey": "12345678"}, gc.KindInvalidData, []fc{{"idempotencyKey", gc.CodeType}}},
		{"idempotencyKey 7", map[string]string{"idempotencyKey": `"1234567"`}, gc.KindValidation, []fc{{"idempotencyKey", gc.CodeMinLength}}},
		{"webhookUrl number", map[string]string{"webhookUrl": "1"}, gc.KindInvalidData, []fc{{"webhookUrl", gc.CodeType}}},
		{"webhookUrl null", map[string]string{"webhookUrl": "null"}, "", nil},
		{"webhookUrl http", map[string]string{"webhookUrl": `"http://example.com"`}, gc.KindValidation, []fc{{"webhookUrl", gc.CodeHTTPS}}},
		{"externalCode array", map[string]string{"externalCode": `["a"]`}, gc.KindInvalidData, []fc{{"externalCode", gc.CodeType}}},
		// customer
		{"customer string", map[string]string{"customer": `"Maria"`}, gc.KindInvalidData, []fc{{"customer", gc.CodeType}}},
		{"customer null", map[string]string{"customer": "null"}, "", nil},
		{"customer empty", map[string]string{"customer": "{}"}, gc.KindInvalidData,
			[]fc{{"customer.name", gc.CodeRequired}, {"customer.document", gc.CodeRequired}}},
		{"customer name number", map[string]string{"customer.name": "42"}, gc.KindInvalidData, []fc{{"customer.name", gc.CodeType}}},
		{"customer name empty", map[string]string{"customer.name": `""`}, gc.KindValidation, []fc{{"customer.name", gc.CodeRequired}}},
		{"customer document bad", map[string]string{"customer.document": `"123.456.789-00"`}, gc.KindValidation, []fc{{"customer.document", gc.CodeDocument}}},
		{"customer email object", map[string]string{"customer.email": `{"address":"a@b.com"}`}, gc.KindInvalidData, []fc{{"customer.email", gc.CodeType}}},
		{"customer email bad", map[string]string{"customer.email": `"a@b"`}, gc.KindValidation, []fc{{"customer.email", gc.CodeFormat}}},
		{"customer landline number", map[string]string{"customer.landline": "1134567890"}, gc.KindInvalidData, []fc{{"customer.landline", gc.CodeType}}},
		{"customer mobile bool", map[string]string{"customer.mobilePhone": "false"}, gc.KindInvalidData, []fc{{"customer.mobilePhone", gc.CodeType}}},
		{"customer ip bad", map[string]string{"customer.ip": `"1.2.3"`}, gc.KindValidation, []fc{{"customer.ip", gc.CodeFormat}}},
		{"birthdate with time", map[string]string{"customer.birthdate": `"1990-05-17T00:00:00Z"`}, gc.KindInvalidData, []fc{{"customer.birthdate", gc.CodeFormat}}},
		{"birthdate Feb 30", map[string]string{"customer.birthdate": `"1990-02-30"`}, gc.KindInvalidData, []fc{{"customer.birthdate", gc.CodeFormat}}},
		{"birthdate Brazilian order", map[string]string{"customer.birthdate": `"17/05/1990"`}, gc.KindInvalidData, []fc{{"customer.birthdate", gc.CodeFormat}}},
		{"birthdate number", map[string]string{"customer.birthdate": "19900517"}, gc.KindInvalidData, []fc{{"customer.birthdate", gc.CodeType}}},
		{"birthdate empty", map[string]string{"customer.birthdate": `""`}, "", nil},
		{"birthdate future", map[string]string{"customer.birthdate": `"2999-01-01"`}, gc.KindValidation, []fc{{"customer.birthdate", gc.CodeFuture}}},
		// seller
		{"seller empty", map[string]string{"seller": "{}"}, gc.KindInvalidData,
			[]fc{{"seller.name", gc.CodeRequired}, {"seller.document", gc.CodeRequired}}},
		{"seller array", map[string]string{"seller": "[]"}, gc.KindInvalidData, []fc{{"seller", gc.CodeType}}},
		// isInfoProduct and address
		{"isInfoProduct string", map[string]string{"isInfoProduct": `"false"`}, gc.KindInvalidData, []fc{{"isInfoProduct", gc.CodeType}}},
		{"physical without address", map[string]string{"address": deleteKey}, gc.KindValidation, []fc{{"address", gc.CodeRequired}}},
		{"physical with null address", map[string]string{"address": "null"}, gc.KindValidation, []fc{{"address", gc.CodeRequired}}},
		{"digital without address", map[string]string{"address": deleteKey, "isInfoProduct": "true"}, "", nil},
		{"default digital without address", map[string]string{"address": deleteKey, "isInfoProduct": deleteKey}, "", nil},
		{"address empty", map[string]string{"address": "{}"}, gc.KindInvalidData, []fc{
			{"address.zipCode", gc.CodeRequired}, {"address.number", gc.CodeRequired}, {"address.street", gc.CodeRequired},
			{"address.neighborhood", gc.CodeRequired}, {"address.city", gc.CodeRequired}, {"address.state", gc.CodeRequired},
			{"address.country", gc.CodeRequired}}},
		{"address number as number", map[string]string{"address.number": "1578"}, gc.KindInvalidData, []fc{{"address.number", gc.CodeType}}},
		{"address zipCode bad", map[string]string{"address.zipCode": `"01310"`}, gc.KindValidation, []fc{{"address.zipCode", gc.CodeFormat}}},
		// items
		{"items object", map[string]string{"items": "{}"}, gc.KindInvalidData, []fc{{"items", gc.CodeType}}},
		{"items of numbers", map[string]string{"items": "[1, null]"}, gc.KindInvalidData, []fc{{"items[0]", gc.CodeType}, {"items[1]", gc.CodeType}}},
		{"item empty", map[string]string{"items.1": "{}"}, gc.KindInvalidData,
			[]fc{{"items[1].title", gc.CodeRequired}, {"items[1].unitPrice", gc.CodeRequired}}},
		{"item unitPrice 1.5", map[string]string{"items.1.unitPrice": "1.5"}, gc.KindInvalidData, []fc{{"items[1].unitPrice", gc.CodeInteger}}},
		{"item unitPrice 0", map[string]string{"items.1.unitPrice": "0"}, gc.KindValidation, []fc{{"items[1].unitPrice", gc.CodeMin}}},
		{"item quantity 0", map[string]string{"items.0.quantity": "0"}, gc.KindValidation, []fc{{"items[0].quantity", gc.CodeMin}}},
		{"item quantity 1", map[string]string{"items.0.quantity": "1"}, "", nil},
		{"item quantity 100", map[string]string{"items.0.quantity": "100"}, "", nil},
		{"item quantity 101", map[string]string{"items.0.quantity": "101"}, gc.KindValidation, []fc{{"items[0].quantity", gc.CodeMax}}},
		{"item quantity huge", map[string]string{"items.0.quantity": "99999999999999999999999"}, gc.KindValidation, []fc{{"items[0].quantity", gc.CodeMax}}},
		{"item quantity 1.5", map[string]string{"items.0.quantity": "1.5"}, gc.KindInvalidData, []fc{{"items[0].quantity", gc.CodeInteger}}},
		{"item quantity string", map[string]string{"items.0.quantity": `"2"`}, gc.KindInvalidData, []fc{{"items[0].quantity", gc.CodeType}}},
		{"item title 1", map[string]string{"items.0.title": `"X"`}, gc.KindValidation, []fc{{"items[0].title", gc.CodeMinLength}}},
		// metadata and pix
		{"metadata string", map[string]string{"metadata": `"x"`}, gc.KindInvalidData, []fc{{"metadata", gc.CodeType}}},
		{"metadata array", map[string]string{"metadata": `[1]`}, gc.KindInvalidData, []fc{{"metadata", gc.CodeType}}},
		{"pix missing", map[string]string{"pix": deleteKey}, gc.KindValidation, []fc{{"pix", gc.CodeRequired}}},
		{"pix string", map[string]string{"pix": `"yes"`}, gc.KindInvalidData, []fc{{"pix", gc.CodeType}}},
		{"expiration 59", map[string]string{"pix.expirationSeconds": "59"}, gc.KindValidation, []fc{{"pix.expirationSeconds", gc.CodeMin}}},
		{"expiration 60", map[string]string{"pix.expirationSeconds": "60"}, "", nil},
		{"expiration 86400", map[string]string{"pix.expirationSeconds": "86400"}, "", nil},
		{"expiration 86401", map[string]string{"pix.expirationSeconds": "86401"}, gc.KindValidation, []fc{{"pix.expirationSeconds", gc.CodeMax}}},
		{"expiration string", map[string]string{"pix.expirationSeconds": `"60"`}, gc.KindInvalidData, []fc{{"pix.expirationSeconds", gc.CodeType}}},
		{"expiration 60.5", map[string]string{"pix.expirationSeconds": "60.5"}, gc.KindInvalidData, []fc{{"pix.expirationSeconds", gc.CodeInteger}}},
		// every invalid-data violation at once, and validations wait until the data reads
		{"invalid data at once", map[string]string{
			"amount": `"10"`, "paymentMethod": `"BOLETO"`, "customer.name": deleteKey, "items.1.unitPrice": "2.5",
			"pix.expirationSeconds": "true", "idempotencyKey": `"short"`,
		}, gc.KindInvalidData, []fc{
			{"amount", gc.CodeType}, {"paymentMethod", gc.CodeEnum}, {"customer.name", gc.CodeRequired},
			{"items[1].unitPrice", gc.CodeInteger}, {"pix.expirationSeconds", gc.CodeType}}},
		{"validations at once", map[string]string{
			"amount": "0", "webhookUrl": `"https://localhost/x"`, "customer.document": `"111"`,
			"items.0.quantity": "101", "pix.expirationSeconds": "59",
		}, gc.KindValidation, []fc{
			{"amount", gc.CodeMin}, {"webhookUrl", gc.CodeURL}, {"customer.document", gc.CodeDocument},
			{"items[0].quantity", gc.CodeMax}, {"pix.expirationSeconds", gc.CodeMin}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := decode.CreateTransactionRequest(patchBody(t, tc.patches))
			assertViolations(t, err, tc.kind, tc.want)
			switch tc.kind {
			case gc.KindInvalidData:
				if !reflect.DeepEqual(r, gc.CreateTransactionRequest{}) {
					t.Errorf("invalid data returned a request: %+v", r)
				}
			case gc.KindValidation:
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
		{``, fc{"", gc.CodeJSON}},
		{`{`, fc{"", gc.CodeJSON}},
		{`{"amount": 1,}`, fc{"", gc.CodeJSON}},
		{`{"amount": 1}{}`, fc{"", gc.CodeJSON}},
		{`null`, fc{"", gc.CodeType}},
		{`[]`, fc{"", gc.CodeType}},
		{`"amount"`, fc{"", gc.CodeType}},
		{`42`, fc{"", gc.CodeType}},
	}
	for _, tc := range cases {
		r, err := decode.CreateTransactionRequest([]byte(tc.body))
		assertViolations(t, err, gc.KindInvalidData, []fc{tc.want})
		if !reflect.DeepEqual(r, gc.CreateTransactionRequest{}) {
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
	got, err := decode.CreateTransactionRequest(b)
	if err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip\n got %+v\nwant %+v", got, r)
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
		_, err := decode.CreateTransactionRequest([]byte(body))
		var ve *gc.ValidationError
		if !errors.As(err, &ve) || ve.Kind != gc.KindInvalidData {
			t.Fatalf("%s: %v, want invalid data", body, err)
		}
		var got []string
		for _, v := range ve.Violations {
			if v.Code != gc.CodeDuplicate {
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
	if _, err := decode.CreateTransactionRequest([]byte(ok)); err != nil {
		t.Fatalf("distinct objects sharing key names: %v", err)
	}
}

// TestDecodeRefusesDeepNesting: a body nested deeper than strictjson.MaxDepth levels is
// invalid data naming where it goes too deep, however deep it goes; at the limit it is read.
func TestDecodeRefusesDeepNesting(t *testing.T) {
	// metadata's object is the second level, its key a's arrays the next ones.
	body := func(levels int) []byte {
		n := levels - 2
		return []byte(`{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"deep-key-0001","pix":{},"metadata":{"a":` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`)
	}
	for _, levels := range []int{strictjson.MaxDepth + 1, 9_990, 40_000} {
		_, err := decode.CreateTransactionRequest(body(levels))
		assertViolations(t, err, gc.KindInvalidData, []fc{{"metadata.a" + strings.Repeat("[0]", strictjson.MaxDepth-2), gc.CodeJSON}})
	}
	r, err := decode.CreateTransactionRequest(body(strictjson.MaxDepth))
	if err != nil || r.Metadata["a"] == nil {
		t.Fatalf("%d levels: %+v %v", strictjson.MaxDepth, r, err)
	}
}

// BenchmarkDecodeDeepBody decodes a 20 KB body nesting 9,990 arrays in its metadata, which
// took 160 MB before the depth limit.
func BenchmarkDecodeDeepBody(b *testing.B) {
	body := []byte(`{"amount":1,"metadata":{"a":` + strings.Repeat("[", 9_990) + strings.Repeat("]", 9_990) + `}}`)
	b.ReportAllocs()
	for range b.N {
		if _, err := decode.CreateTransactionRequest(body); err == nil {
			b.Fatal("accepted")
		}
	}
}
