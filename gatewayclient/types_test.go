package gatewayclient

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// jsonKeys marshals v and returns the sorted keys of the resulting JSON object.
func jsonKeys(t *testing.T, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%T marshals to %s, not an object: %v", v, b, err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// sorted returns a sorted copy of names.
func sorted(names ...string) []string {
	s := slices.Clone(names)
	slices.Sort(s)
	return s
}

// aTime returns a time in a non-UTC zone with nanoseconds, so that the wire format tests see
// both the conversion to UTC and the truncation to milliseconds.
func aTime() time.Time {
	return time.Date(2026, 3, 14, 12, 9, 26, 123456789, time.FixedZone("BRT", -3*3600))
}

// fullHolder is an AccountHolder with every field set.
func fullHolder() *AccountHolder {
	return &AccountHolder{Type: HolderPF, Name: "Maria", Document: "***.982.247-**",
		BankAccount: BankAccount{Type: "CHECKING", Digit: "1", ISPB: "00000000"},
		Pix:         PixKey{Key: "maria@example.com", Type: PixKeyEmail}}
}

// fullDeposit is a Deposit with every field set.
func fullDeposit() Deposit {
	return Deposit{
		ID: testDepositID, AcquirerCode: "ACQ-1", Acquirer: "ACQ", Amount: 1000, PaymentMethod: PaymentMethodPIX,
		WebhookURL: "https://shop.example.com/hook", ExternalCode: "order-000123",
		PaymentReceipt: &PaymentReceipt{URL: "https://r.example.com/1", ExpirationDate: aTime()},
		RefundReceipt:  &PaymentReceipt{URL: "https://r.example.com/2", ExpirationDate: aTime()},
		CreatedAt:      aTime(), Status: DepositRefunded,
		StatusHistory: []StatusHistory{{Status: string(DepositPaid), Date: aTime(), DurationInMilliseconds: 1500}},
		UpdatedAt:     aTime(), AmountPaid: Ptr[Cents](1000), PaymentDate: aTime(), RefundDate: aTime(), RefundAmount: Ptr[Cents](1000),
		PixResponse:  &PixResponse{URI: "000201...", QRCodeBase64: "iVBORw0KGgo=", ExpirationDate: aTime()},
		ErrorMessage: "e", ErrorMessageRefund: "r", EndToEnd: "E1234567820260314", EndToEndRefund: "D1234567820260314",
		Payer: fullHolder(), Receiver: fullHolder(), FeeAmount: Ptr[Cents](10), DepositOrigin: OriginQRCode,
	}
}

// fullWithdrawal is a Withdrawal with every field set.
func fullWithdrawal() Withdrawal {
	return Withdrawal{
		ID: testDepositID, AcquirerCode: "ACQ-1", Acquirer: "ACQ", Amount: 2500, Method: PaymentMethodPIX,
		WebhookURL: "https://shop.example.com/hook", ExternalCode: "payout-0001",
		PaymentReceipt: &PaymentReceipt{URL: "https://r.example.com/1", ExpirationDate: aTime()},
		RefundReceipt:  &PaymentReceipt{URL: "https://r.example.com/2", ExpirationDate: aTime()},
		CreatedAt:      aTime(), Status: WithdrawalProcessed,
		StatusHistory: []StatusHistory{{Status: string(WithdrawalProcessed), Date: aTime(), DurationInMilliseconds: 1}},
		UpdatedAt:     aTime(), AmountWithdrawn: Ptr[Cents](2500), ProcessedDate: aTime(), ErrorMessage: "e",
		EndToEnd: "E1234567820260314", EndToEndRefund: "D1234567820260314", RefundDate: aTime(), RefundAmount: Ptr[Cents](2500),
		Payer: fullHolder(), Receiver: fullHolder(), PixKey: &PixKey{Key: "+5511987654321", Type: PixKeyPhone},
		FeeAmount: Ptr[Cents](5),
	}
}

// TestJSONNamesMatchTheSpec compares the JSON names of every resource, fully populated, with
// the field tables of the gateway's spec, one by one.
func TestJSONNamesMatchTheSpec(t *testing.T) {
	req := fullRequest()
	req.Pix.ExpirationSeconds = Ptr(600)
	d, w := fullDeposit(), fullWithdrawal()
	cases := []struct {
		name string
		v    any
		want []string
	}{
		{"Token", Token{AccessToken: "a", ExpiresIn: "1", RefreshExpiresIn: "1", TokenType: "Bearer", NotBeforePolicy: "0",
			Scope: "a,b", ExpiresInSec: "1"},
			sorted("access_token", "expires_in", "refresh_expires_in", "token_type", "not-before-policy", "scope", "expires_in_sec")},
		{"transaction request", req, sorted("amount", "paymentMethod", "webhookUrl", "externalCode", "idempotencyKey",
			"customer", "seller", "isInfoProduct", "address", "items", "metadata", "pix")},
		{"Customer", req.Customer, sorted("ip", "name", "document", "email", "landline", "mobilePhone", "birthdate")},
		{"Seller", req.Seller, sorted("name", "document")},
		{"Address", req.Address, sorted("zipCode", "complement", "number", "street", "neighborhood", "city", "state", "country")},
		{"Item", req.Items[0], sorted("title", "description", "unitPrice", "quantity")},
		{"Pix", req.Pix, sorted("expirationSeconds")},
		{"Transaction", Transaction{ID: "i", ExternalCode: "e", Amount: 1, Type: TransactionTypeTransaction,
			Status: DepositPixQRCodeGenerated, PixResponse: d.PixResponse},
			sorted("id", "externalCode", "amount", "type", "status", "pixResponse")},
		{"PixResponse", d.PixResponse, sorted("uri", "qrCodeBase64", "expirationDate")},
		{"Deposit", d, sorted("id", "acquirerCode", "acquirer", "amount", "paymentMethod", "webhookUrl", "externalCode",
			"paymentReceipt", "refundReceipt", "createdAt", "status", "statusHistory", "updatedAt", "amountPaid", "paymentDate",
			"refundDate", "refundAmount", "pixResponse", "errorMessage", "errorMessageRefund", "endToEnd", "endToEndRefund",
			"payer", "receiver", "feeAmount", "depositOrigin")},
		{"Withdrawal", w, sorted("id", "acquirerCode", "acquirer", "amount", "method", "webhookUrl", "externalCode",
			"paymentReceipt", "refundReceipt", "createdAt", "status", "statusHistory", "updatedAt", "amountWithdrawn",
			"processedDate", "errorMessage", "endToEnd", "endToEndRefund", "refundDate", "refundAmount", "payer", "receiver",
			"pixKey", "feeAmount")},
		{"StatusHistory", d.StatusHistory[0], sorted("status", "date", "durationInMilliseconds")},
		{"AccountHolder", d.Payer, sorted("type", "name", "document", "bankAccount", "pix")},
		{"BankAccount", d.Payer.BankAccount, sorted("type", "digit", "ispb")},
		{"PixKeyVo", w.PixKey, sorted("key", "type")},
		{"PaymentReceiptUrl", d.PaymentReceipt, sorted("url", "expirationDate")},
		{"list envelope", Page[Deposit]{Data: []Deposit{}}, sorted("total", "totalPages", "currentPage", "perPage", "data")},
	}
	for _, tc := range cases {
		if got := jsonKeys(t, tc.v); !slices.Equal(got, tc.want) {
			t.Errorf("%s: JSON names\n got %v\nwant %v", tc.name, got, tc.want)
		}
	}
}

// TestOptionalFieldsOmitted checks that unset optional fields are left out of what is sent,
// rather than sent as zero values, while required ones are always written.
func TestOptionalFieldsOmitted(t *testing.T) {
	minimal := CreateTransactionRequest{Amount: 1, PaymentMethod: PaymentMethodPIX, IdempotencyKey: "12345678",
		Customer: &Customer{Name: "Ana", Document: testCPF}, Address: &Address{}, Items: []Item{{Title: "T", UnitPrice: 1}},
		Pix: &PixRequest{}}
	b, err := json.Marshal(minimal)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"amount":1,"paymentMethod":"PIX","idempotencyKey":"12345678",` +
		`"customer":{"name":"Ana","document":"529.982.247-25"},` +
		`"address":{"zipCode":"","number":"","street":"","neighborhood":"","city":"","state":"","country":""},` +
		`"items":[{"title":"T","unitPrice":1}],"pix":{}}`
	if string(b) != want {
		t.Errorf("minimal request\n got %s\nwant %s", b, want)
	}
	// The zero values that mean something are sent when set through their pointers.
	set := CreateTransactionRequest{IsInfoProduct: Ptr(false), Items: []Item{{Quantity: Ptr(0)}},
		Pix: &PixRequest{ExpirationSeconds: Ptr(0)}}
	b, err = json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"isInfoProduct":false`, `"quantity":0`, `"expirationSeconds":0`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("%s lacks %s", b, s)
		}
	}

	// A record with only its required fields: no optional key, no null.
	d := Deposit{ID: testDepositID, Acquirer: "ACQ", Amount: 1, PaymentMethod: PaymentMethodPIX, CreatedAt: aTime(),
		Status: DepositPending, StatusHistory: []StatusHistory{}, UpdatedAt: aTime(), DepositOrigin: OriginQRCode}
	if got, want := jsonKeys(t, d), sorted("id", "acquirer", "amount", "paymentMethod", "createdAt", "status",
		"statusHistory", "updatedAt", "depositOrigin"); !slices.Equal(got, want) {
		t.Errorf("minimal deposit keys %v, want %v", got, want)
	}
	w := Withdrawal{ID: testDepositID, Acquirer: "ACQ", Amount: 10, Method: PaymentMethodPIX, CreatedAt: aTime(),
		Status: WithdrawalPending, StatusHistory: []StatusHistory{}, UpdatedAt: aTime()}
	if got, want := jsonKeys(t, w), sorted("id", "acquirer", "amount", "method", "createdAt", "status",
		"statusHistory", "updatedAt"); !slices.Equal(got, want) {
		t.Errorf("minimal withdrawal keys %v, want %v", got, want)
	}
	if got, want := jsonKeys(t, Transaction{ID: "i", Amount: 1, Type: TransactionTypeTransaction, Status: DepositPixQRCodeGenerated}),
		sorted("id", "amount", "type", "status"); !slices.Equal(got, want) {
		t.Errorf("minimal transaction keys %v, want %v", got, want)
	}
}

// timeFields walks a JSON document and returns every value of a key in names, by path.
func timeFields(v any, path string, names map[string]bool, out map[string]any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := strings.TrimPrefix(path+"."+k, ".")
			if names[k] {
				out[p] = e
			}
			timeFields(e, p, names, out)
		}
	case []any:
		for i, e := range x {
			timeFields(e, path+"["+string(rune('0'+i))+"]", names, out)
		}
	}
}

// TestRecordTimesWireFormat marshals each record type with times in another zone and with
// nanoseconds, and checks that every time field is written in UTC with milliseconds and a
// trailing Z, and birthdate as a date.
func TestRecordTimesWireFormat(t *testing.T) {
	const want = "2026-03-14T15:09:26.123Z"
	// The only accepted writing of a time: UTC, milliseconds, trailing Z.
	wireTimeRE := regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$`)
	names := map[string]bool{"createdAt": true, "updatedAt": true, "paymentDate": true, "refundDate": true,
		"processedDate": true, "date": true, "expirationDate": true}
	cases := []struct {
		name  string
		v     any
		paths []string
	}{
		{"Deposit", fullDeposit(), []string{"createdAt", "updatedAt", "paymentDate", "refundDate", "statusHistory[0].date",
			"paymentReceipt.expirationDate", "refundReceipt.expirationDate", "pixResponse.expirationDate"}},
		{"Withdrawal", fullWithdrawal(), []string{"createdAt", "updatedAt", "processedDate", "refundDate",
			"statusHistory[0].date", "paymentReceipt.expirationDate", "refundReceipt.expirationDate"}},
		{"Transaction", Transaction{ID: "i", Amount: 1, PixResponse: &PixResponse{ExpirationDate: aTime()}},
			[]string{"pixResponse.expirationDate"}},
		{"Page of deposits", Page[Deposit]{Data: []Deposit{fullDeposit()}}, []string{"data[0].createdAt",
			"data[0].updatedAt", "data[0].paymentDate", "data[0].refundDate", "data[0].statusHistory[0].date",
			"data[0].paymentReceipt.expirationDate", "data[0].refundReceipt.expirationDate", "data[0].pixResponse.expirationDate"}},
		{"Page of withdrawals", &Page[Withdrawal]{Data: []Withdrawal{fullWithdrawal()}}, []string{"data[0].createdAt",
			"data[0].updatedAt", "data[0].processedDate", "data[0].refundDate", "data[0].statusHistory[0].date",
			"data[0].paymentReceipt.expirationDate", "data[0].refundReceipt.expirationDate"}},
		{"StatusHistory", StatusHistory{Date: aTime()}, []string{"date"}},
		{"PaymentReceipt", PaymentReceipt{ExpirationDate: aTime()}, []string{"expirationDate"}},
		{"PixResponse", &PixResponse{ExpirationDate: aTime()}, []string{"expirationDate"}},
	}
	for _, tc := range cases {
		b, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var doc any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		timeFields(doc, "", names, got)
		var paths []string
		for p, v := range got {
			paths = append(paths, p)
			s, _ := v.(string)
			if !wireTimeRE.MatchString(s) || s != want {
				t.Errorf("%s: %s = %v, want %q", tc.name, p, v, want)
			}
		}
		if slices.Sort(paths); !slices.Equal(paths, sorted(tc.paths...)) {
			t.Errorf("%s: time fields %v, want %v", tc.name, paths, sorted(tc.paths...))
		}
	}

	// customer.birthdate is a date without time.
	b, err := json.Marshal(fullRequest().Customer)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"birthdate":"1990-05-17"`) {
		t.Errorf("customer = %s", b)
	}
	// Filters write their dates the same way.
	q := DepositFilter{StartDate: aTime(), EndDate: aTime()}.Query("", "")
	if q.Get("startDate") != want || q.Get("endDate") != want {
		t.Errorf("filter dates = %v", q)
	}
}

// TestRecordsRoundTrip decodes records carrying every field of the spec and checks each
// value, then that marshalling them gives back the same JSON document.
func TestRecordsRoundTrip(t *testing.T) {
	const depositJSON = `{"id":"3f2b6c1e-8a4d-4c2e-9b7a-1d2e3f4a5b6c","acquirerCode":"ACQ-1","acquirer":"ACQ","amount":1000,
	"paymentMethod":"PIX","webhookUrl":"https://shop.example.com/hook","externalCode":"order-000123",
	"paymentReceipt":{"url":"https://r.example.com/1","expirationDate":"2026-03-14T15:09:26.123Z"},
	"refundReceipt":{"url":"https://r.example.com/2","expirationDate":"2026-03-14T15:09:26.123Z"},
	"createdAt":"2026-03-14T15:09:26.123Z","status":"REFUNDED",
	"statusHistory":[{"status":"PAID","date":"2026-03-14T15:09:26.123Z","durationInMilliseconds":1500}],
	"updatedAt":"2026-03-14T15:09:26.123Z","amountPaid":1000,"paymentDate":"2026-03-14T15:09:26.123Z",
	"refundDate":"2026-03-14T15:09:26.123Z","refundAmount":1000,
	"pixResponse":{"uri":"000201...","qrCodeBase64":"iVBORw0KGgo=","expirationDate":"2026-03-14T15:09:26.123Z"},
	"errorMessage":"e","errorMessageRefund":"r","endToEnd":"E1234567820260314","endToEndRefund":"D1234567820260314",
	"payer":{"type":"PF","name":"Maria","document":"***.982.247-**","bankAccount":{"type":"CHECKING","digit":"1","ispb":"00000000"},"pix":{"key":"maria@example.com","type":"EMAIL"}},
	"receiver":{"type":"PF","name":"Maria","document":"***.982.247-**","bankAccount":{"type":"CHECKING","digit":"1","ispb":"00000000"},"pix":{"key":"maria@example.com","type":"EMAIL"}},
	"feeAmount":10,"depositOrigin":"QRCODE"}`
	const withdrawalJSON = `{"id":"3f2b6c1e-8a4d-4c2e-9b7a-1d2e3f4a5b6c","acquirerCode":"ACQ-1","acquirer":"ACQ","amount":2500,
	"method":"PIX","webhookUrl":"https://shop.example.com/hook","externalCode":"payout-0001",
	"paymentReceipt":{"url":"https://r.example.com/1","expirationDate":"2026-03-14T15:09:26.123Z"},
	"refundReceipt":{"url":"https://r.example.com/2","expirationDate":"2026-03-14T15:09:26.123Z"},
	"createdAt":"2026-03-14T15:09:26.123Z","status":"PROCESSED",
	"statusHistory":[{"status":"PROCESSED","date":"2026-03-14T15:09:26.123Z","durationInMilliseconds":1}],
	"updatedAt":"2026-03-14T15:09:26.123Z","amountWithdrawn":2500,"processedDate":"2026-03-14T15:09:26.123Z","errorMessage":"e",
	"endToEnd":"E1234567820260314","endToEndRefund":"D1234567820260314","refundDate":"2026-03-14T15:09:26.123Z","refundAmount":2500,
	"payer":{"type":"PF","name":"Maria","document":"***.982.247-**","bankAccount":{"type":"CHECKING","digit":"1","ispb":"00000000"},"pix":{"key":"maria@example.com","type":"EMAIL"}},
	"receiver":{"type":"PF","name":"Maria","document":"***.982.247-**","bankAccount":{"type":"CHECKING","digit":"1","ispb":"00000000"},"pix":{"key":"maria@example.com","type":"EMAIL"}},
	"pixKey":{"key":"+5511987654321","type":"PHONE"},"feeAmount":5}`

	utc := aTime().UTC().Truncate(time.Millisecond)
	check := func(name, raw string, got, want any) {
		t.Helper()
		if err := json.Unmarshal([]byte(raw), got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s decoded as\n%+v\nwant\n%+v", name, got, want)
		}
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		var a, c any
		_ = json.Unmarshal([]byte(raw), &a)
		_ = json.Unmarshal(b, &c)
		if !reflect.DeepEqual(a, c) {
			t.Errorf("%s re-encoded as %s", name, b)
		}
	}
	d := withTimes(fullDeposit(), utc)
	check("deposit", depositJSON, &Deposit{}, &d)
	w := withWithdrawalTimes(fullWithdrawal(), utc)
	check("withdrawal", withdrawalJSON, &Withdrawal{}, &w)
}

// withTimes sets every time of a deposit to t.
func withTimes(d Deposit, t time.Time) Deposit {
	d.CreatedAt, d.UpdatedAt, d.PaymentDate, d.RefundDate = t, t, t, t
	d.PaymentReceipt.ExpirationDate, d.RefundReceipt.ExpirationDate, d.PixResponse.ExpirationDate = t, t, t
	d.StatusHistory[0].Date = t
	return d
}

// withWithdrawalTimes sets every time of a withdrawal to t.
func withWithdrawalTimes(w Withdrawal, t time.Time) Withdrawal {
	w.CreatedAt, w.UpdatedAt, w.ProcessedDate, w.RefundDate = t, t, t, t
	w.PaymentReceipt.ExpirationDate, w.RefundReceipt.ExpirationDate = t, t
	w.StatusHistory[0].Date = t
	return w
}

// TestWithdrawalNullFields decodes a withdrawal whose optional fields are all null, with
// unknown fields beside them.
func TestWithdrawalNullFields(t *testing.T) {
	raw := `{"id":"` + testDepositID + `","acquirerCode":null,"acquirer":"ACQ","amount":10,"method":"PIX","webhookUrl":null,
	"externalCode":null,"paymentReceipt":null,"refundReceipt":null,"createdAt":"2026-03-14T15:09:26.123Z","status":"PENDING",
	"statusHistory":[],"updatedAt":"2026-03-14T15:09:26.123Z","amountWithdrawn":null,"processedDate":null,"errorMessage":null,
	"endToEnd":null,"endToEndRefund":null,"refundDate":null,"refundAmount":null,"payer":null,"receiver":null,"pixKey":null,
	"feeAmount":null,"somethingNew":[1,{"a":null}]}`
	var w Withdrawal
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		t.Fatal(err)
	}
	want := Withdrawal{ID: testDepositID, Acquirer: "ACQ", Amount: 10, Method: PaymentMethodPIX,
		CreatedAt: time.Date(2026, 3, 14, 15, 9, 26, 123e6, time.UTC), Status: WithdrawalPending,
		StatusHistory: []StatusHistory{}, UpdatedAt: time.Date(2026, 3, 14, 15, 9, 26, 123e6, time.UTC)}
	if !reflect.DeepEqual(w, want) {
		t.Errorf("decoded %+v\nwant %+v", w, want)
	}
	var tx Transaction
	if err := json.Unmarshal([]byte(`{"id":"i","externalCode":null,"amount":5,"type":"TRANSACTION",
		"status":"PIX_QRCODE_GENERATED","pixResponse":null}`), &tx); err != nil || tx.PixResponse != nil || tx.ExternalCode != "" {
		t.Errorf("transaction %+v, %v", tx, err)
	}
}

// TestCentsDecoding checks that amounts read only as JSON integers.
func TestCentsDecoding(t *testing.T) {
	for raw, want := range map[string]Cents{`1`: 1, `10050`: 10050, `-1`: -1, `0`: 0, `10000001`: 10000001} {
		var c Cents
		if err := json.Unmarshal([]byte(raw), &c); err != nil || c != want {
			t.Errorf("Cents from %s = %d, %v; want %d", raw, c, err, want)
		}
	}
	for _, raw := range []string{`1.5`, `100.0`, `1e3`, `"100"`, `true`, `99999999999999999999`} {
		var c Cents
		if err := json.Unmarshal([]byte(raw), &c); err == nil {
			t.Errorf("Cents from %s = %d; want an error", raw, c)
		}
	}
	// A decimal amount in an answer fails the decoding rather than being rounded.
	var d Deposit
	if err := json.Unmarshal([]byte(`{"amount":10.5}`), &d); err == nil || !strings.Contains(err.Error(), "10.5") {
		t.Errorf("deposit with amount 10.5: err = %v", err)
	}
	var p *Cents
	if err := json.Unmarshal([]byte(`null`), &p); err != nil || p != nil {
		t.Errorf("null amount: %v, %v", p, err)
	}
}

// TestDateJSON checks customer.birthdate's wire format both ways.
func TestDateJSON(t *testing.T) {
	var c Customer
	if err := json.Unmarshal([]byte(`{"name":"A","document":"x","birthdate":"2024-02-29"}`), &c); err != nil ||
		c.Birthdate != (Date{2024, time.February, 29}) {
		t.Errorf("birthdate = %+v, %v", c.Birthdate, err)
	}
	if err := json.Unmarshal([]byte(`{"birthdate":null}`), &c); err != nil {
		t.Errorf("null birthdate: %v", err)
	}
	for _, bad := range []string{`"2023-02-29"`, `"1990-05-17T00:00:00Z"`, `"17/05/1990"`, `19900517`, `""`} {
		var d Date
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("birthdate %s accepted as %v", bad, d)
		}
	}
	if s := (Date{7, time.January, 2}).String(); s != "0007-01-02" {
		t.Errorf("String = %q", s)
	}
	b, err := json.Marshal(Customer{Name: "A", Document: "x"})
	if err != nil || strings.Contains(string(b), "birthdate") {
		t.Errorf("unset birthdate written: %s, %v", b, err)
	}
}

// TestRequiredArraysNeverNull checks that the arrays the spec makes required are written as
// [] when empty, never as null.
func TestRequiredArraysNeverNull(t *testing.T) {
	for name, v := range map[string]any{
		"deposit":          Deposit{},
		"withdrawal":       &Withdrawal{},
		"page":             Page[Deposit]{},
		"page of pointers": &Page[Withdrawal]{TotalPages: 1},
	} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if strings.Contains(string(b), "null") || !strings.Contains(string(b), "[]") {
			t.Errorf("%s = %s", name, b)
		}
	}
	var p Page[Deposit]
	if err := json.Unmarshal([]byte(`{"total":3,"totalPages":2,"currentPage":1,"perPage":2,"data":[{"id":"a"},{"id":"b"}]}`), &p); err != nil ||
		p.Total != 3 || p.TotalPages != 2 || p.CurrentPage != 1 || p.PerPage != 2 || len(p.Data) != 2 || p.Data[1].ID != "b" {
		t.Errorf("page decoded as %+v, %v", p, err)
	}
}
