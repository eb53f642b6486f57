package decode_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/decode"
)

// FuzzCreateTransactionRequest checks that decoding never panics, that invalid data
// never comes with a request, and that an accepted request validates and survives a
// marshal/decode round trip unchanged.
func FuzzCreateTransactionRequest(f *testing.F) {
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
		r, err := decode.CreateTransactionRequest(body)
		if err != nil {
			var ve *gc.ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, gc.ErrValidation) || len(ve.Violations) == 0 {
				t.Fatalf("error %v is not a *gc.ValidationError with violations", err)
			}
			if ve.Kind == gc.KindInvalidData && !reflect.DeepEqual(r, gc.CreateTransactionRequest{}) {
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
		again, err := decode.CreateTransactionRequest(b)
		if err != nil {
			t.Fatalf("re-decode of %s: %v", b, err)
		}
		if !reflect.DeepEqual(again, r) {
			t.Fatalf("round trip changed the request\n got %+v\nwant %+v", again, r)
		}
	})
}

// FuzzDepositFilter checks that parsing any query never panics and that an accepted
// filter is written by Query and read back unchanged (times to the millisecond, as the wire
// carries them).
func FuzzDepositFilter(f *testing.F) {
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
		fl, err := decode.DepositFilter(q, "", "")
		if err != nil {
			var ve *gc.ValidationError
			if !errors.As(err, &ve) || len(ve.Violations) == 0 {
				t.Fatalf("error %v is not a *gc.ValidationError with violations", err)
			}
			return
		}
		if err := fl.Validate(); err != nil {
			t.Fatalf("parsed filter fails Validate: %v", err)
		}
		back, err := decode.DepositFilter(fl.Query("", ""), "", "")
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

// FuzzWithdrawalFilter is FuzzDepositFilter for the query of GET /withdrawal.
func FuzzWithdrawalFilter(f *testing.F) {
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
		fl, err := decode.WithdrawalFilter(q, "", "")
		if err != nil {
			var ve *gc.ValidationError
			if !errors.As(err, &ve) || len(ve.Violations) == 0 {
				t.Fatalf("error %v is not a *gc.ValidationError with violations", err)
			}
			return
		}
		if err := fl.Validate(); err != nil {
			t.Fatalf("parsed filter fails Validate: %v", err)
		}
		back, err := decode.WithdrawalFilter(fl.Query("", ""), "", "")
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
