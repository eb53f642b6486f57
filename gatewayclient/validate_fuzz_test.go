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

// FuzzDecodeCreateTransactionRequest checks that decoding never panics, that invalid data
// never comes with a request, and that an accepted request validates and survives a
// marshal/decode round trip unchanged.
func FuzzDecodeCreateTransactionRequest(f *testing.F) {
	f.Add([]byte(validBody))
	f.Add([]byte(`{"amount":1,"paymentMethod":"PIX","idempotencyKey":"12345678","pix":{}}`))
	f.Add([]byte(`{"amount":1.5,"paymentMethod":"BOLETO","customer":"x","items":[1,{}],"pix":{"expirationSeconds":"60"}}`))
	f.Add([]byte(`{"amount":-1,"paymentMethod":"PIX","idempotencyKey":"k","isInfoProduct":false,"pix":null}`))
	f.Add([]byte(`{"amount":10,"paymentMethod":"PIX","idempotencyKey":"\u00e7\u00e7\u00e7\u00e7\u00e7\u00e7\u00e7\u00e7","pix":{},"metadata":{"a":1e400,"b":[{}]},"items":[]}`))
	f.Add([]byte(`{"amount":99999999999999999999,"paymentMethod":"PIX","idempotencyKey":"12345678","pix":{},"customer":{"name":"A","document":"52998224725","birthdate":"2024-02-29"}}`))
	f.Add([]byte(`{"amount":100,"paymentMethod":"PIX","idempotencyKey":"12345678","pix":{},"webhookUrl":"https://a.com/#"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"amount":1,"amount":2}`))
	f.Add([]byte("{\"amount\":1,\"paymentMethod\":\"PIX\",\"idempotencyKey\":\"12345678\xff\",\"pix\":{}}"))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := DecodeCreateTransactionRequest(body)
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, ErrValidation) || len(ve.Violations) == 0 {
				t.Fatalf("error %v is not a *ValidationError with violations", err)
			}
			if ve.Kind == KindInvalidData && !reflect.DeepEqual(r, CreateTransactionRequest{}) {
				t.Fatalf("invalid data came with a request: %+v", r)
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("decoded request fails Validate: %v", err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := DecodeCreateTransactionRequest(b)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", b, err)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("round trip changed the request\n got %+v\nwant %+v", again, r)
		}
	})
}

// FuzzParseDepositFilter checks that parsing any query never panics and that an accepted
// filter is written by Query and read back unchanged (times to the millisecond, as the wire
// carries them).
func FuzzParseDepositFilter(f *testing.F) {
	f.Add("startDate=2024-01-02T03:04:05.123Z&endDate=2024-01-03T03:04:05Z&status=PAID&status=PENDING&minAmount=1&maxAmount=10000000&depositOrigin=QRCODE&page=1&perPage=50")
	f.Add("status=PAID,REFUNDED&depositOrigin=QRCODE,PIX_KEY")
	f.Add("startDate=2024-01-02T00:00:00.123456789-03:00")
	f.Add("startDate=0000-01-01T00:00:00%2B01:00")
	f.Add("minAmount=1.5&maxAmount=-1&page=-1")
	f.Add("status=PAID&status=PAID")
	f.Add("minAmount=99999999999999999999")
	f.Add("startDate=&status=&page=")
	f.Add("%zz")
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		fl, err := ParseDepositFilter(q, "", "")
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Violations) == 0 {
				t.Fatalf("error %v is not a *ValidationError with violations", err)
			}
			return
		}
		if err := fl.Validate(); err != nil {
			t.Fatalf("parsed filter fails Validate: %v", err)
		}
		back, err := ParseDepositFilter(fl.Query("", ""), "", "")
		if err != nil {
			t.Fatalf("re-parse of %v: %v", fl.Query("", ""), err)
		}
		want := fl
		want.StartDate = truncMillis(fl.StartDate)
		want.EndDate = truncMillis(fl.EndDate)
		if !reflect.DeepEqual(back, want) {
			t.Fatalf("round trip changed the filter\n got %+v\nwant %+v", back, want)
		}
	})
}

// truncMillis drops what the wire format cannot carry below the millisecond.
func truncMillis(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Truncate(time.Millisecond)
}

// FuzzParseWithdrawalFilter is FuzzParseDepositFilter for the query of GET /withdrawal.
func FuzzParseWithdrawalFilter(f *testing.F) {
	f.Add("startDate=2024-01-02T03:04:05.123Z&endDate=2024-01-03T03:04:05Z&status=PROCESSED&status=FAILED" +
		"&id=f47ac10b-58cc-4372-a567-0e02b2c3d479&pixKey=%2B5511987654321&endToEnd=E1234567820240102&endToEndRefund=D1234567820240102" +
		"&externalCode=order-000123&minAmount=10&maxAmount=10000000&page=2&perPage=20")
	f.Add("pixKey=52998224725&id=not-a-uuid")
	f.Add("pixKey=pix@example.com&status=PROCESSED,REJECTED")
	f.Add("minAmount=9&maxAmount=1&endToEnd=short")
	f.Add("id=a&id=b")
	f.Add("externalCode=%00%00%00%00%00%00%00%00")
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		fl, err := ParseWithdrawalFilter(q, "", "")
		if err != nil {
			var ve *ValidationError
			if !errors.As(err, &ve) || len(ve.Violations) == 0 {
				t.Fatalf("error %v is not a *ValidationError with violations", err)
			}
			return
		}
		if err := fl.Validate(); err != nil {
			t.Fatalf("parsed filter fails Validate: %v", err)
		}
		back, err := ParseWithdrawalFilter(fl.Query("", ""), "", "")
		if err != nil {
			t.Fatalf("re-parse of %v: %v", fl.Query("", ""), err)
		}
		want := fl
		want.StartDate = truncMillis(fl.StartDate)
		want.EndDate = truncMillis(fl.EndDate)
		if !reflect.DeepEqual(back, want) {
			t.Fatalf("round trip changed the filter\n got %+v\nwant %+v", back, want)
		}
	})
}

// FuzzWebhookURL checks that the webhookUrl rule never panics and that whatever it accepts
// is an absolute https URL with a dotted host name, no user information and no fragment.
func FuzzWebhookURL(f *testing.F) {
	for _, s := range []string{"https://example.com/hook?a=b", "http://example.com", "https://localhost/x",
		"https://127.0.0.1/x", "https://[::1]/x", "https://example.com/#", "https://u:p@example.com/", "https://exa mple.com",
		"https://example.c0m/x", "https://exemplo.xn--p1ai/", "https://example.com:99999/", "HTTPS://EXAMPLE.COM", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, msg := checkWebhookURL(s)
		if code != "" {
			if msg == "" {
				t.Fatalf("checkWebhookURL(%q): code %q without a message", s, code)
			}
			return
		}
		u, err := url.Parse(s)
		if err != nil || !strings.EqualFold(u.Scheme, "https") || u.User != nil || strings.Contains(s, "#") ||
			!strings.Contains(u.Hostname(), ".") {
			t.Fatalf("checkWebhookURL accepted %q (%+v, %v)", s, u, err)
		}
		r := CreateTransactionRequest{Amount: 1, PaymentMethod: PaymentMethodPIX, IdempotencyKey: "12345678",
			Pix: &PixRequest{}, WebhookURL: s}
		if err := r.Validate(); err != nil {
			t.Fatalf("Validate refuses the accepted %q: %v", s, err)
		}
	})
}
