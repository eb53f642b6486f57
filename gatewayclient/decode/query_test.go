package decode_test

import (
	"math"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/decode"
)

// TestQueryRefusesWhatItCannotRead: url.ParseQuery drops a pair holding ";" or a bad
// escape and goes on, which would silently widen a filter; Query refuses the query and
// names each such parameter.
func TestQueryRefusesWhatItCannotRead(t *testing.T) {
	for raw, want := range map[string][]string{
		"status=PAID;x":                    {"status"},
		"page=1;DROP":                      {"page"},
		"status=PAID&minAmount=1;2&page=3": {"minAmount"},
		"status=PAID%zz":                   {"status"},
		"a;b=1&c=%&page=2":                 {"a;b", "c"},
		"%zz=1":                            {"%zz"},
	} {
		_, err := decode.Query(raw)
		vs := violationsOf(t, err, gc.KindInvalidData)
		var got []string
		for _, v := range vs {
			got = append(got, v.Field)
			if v.Code != gc.CodeFormat || !strings.Contains(v.Message, "could not be read") {
				t.Errorf("%q: violation %+v", raw, v)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: violations name %v, want %v", raw, got, want)
		}
		if _, err := decode.DepositQuery(raw, "", ""); err == nil {
			t.Errorf("decode.DepositQuery(%q) accepted it", raw)
		}
		if _, err := decode.WithdrawalQuery(raw, "", ""); err == nil {
			t.Errorf("decode.WithdrawalQuery(%q) accepted it", raw)
		}
	}
	// What url.ParseQuery reads whole, ParseQuery reads the same; %3B is a ";" that was meant.
	for _, raw := range []string{"", "status=PAID&status=REFUNDED&page=2", "externalCode=a%3Bb", "x=&y"} {
		got, err := decode.Query(raw)
		want, _ := url.ParseQuery(raw)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v %v, want %v", raw, got, err, want)
		}
	}
	f, err := decode.WithdrawalQuery("externalCode=order%3B0001", "", "")
	if err != nil || f.ExternalCode != "order;0001" {
		t.Errorf("an encoded ; : %+v %v", f, err)
	}
}

// TestPageNumbersAreNeverClamped: a page beyond an int is refused (clamped, it would answer
// another page); the largest int is kept as it is.
func TestPageNumbersAreNeverClamped(t *testing.T) {
	for _, tc := range []struct {
		raw, pageParam string
		want           gc.Violation
	}{
		{"page=9999999999999999999999", "", gc.Violation{Field: "page", Code: gc.CodeMax}},
		{"perPage=99999999999999999999999", "", gc.Violation{Field: "perPage", Code: gc.CodeMax}},
		{"page=-9999999999999999999999", "", gc.Violation{Field: "page", Code: gc.CodeMin}},
		{"p=99999999999999999999", "p", gc.Violation{Field: "p", Code: gc.CodeMax}},
	} {
		_, err := decode.DepositQuery(tc.raw, tc.pageParam, "")
		vs := violationsOf(t, err, gc.KindInvalidData)
		if len(vs) != 1 || vs[0].Field != tc.want.Field || vs[0].Code != tc.want.Code {
			t.Errorf("%q: %+v, want %+v", tc.raw, vs, tc.want)
		}
		if _, err := decode.WithdrawalQuery(tc.raw, tc.pageParam, ""); err == nil {
			t.Errorf("withdrawals: %q accepted", tc.raw)
		}
	}
	f, err := decode.DepositQuery("page=9223372036854775807&perPage=10", "", "")
	if err != nil || f.Page != math.MaxInt || f.PerPage != 10 {
		t.Fatalf("the largest page: %+v %v", f, err)
	}
}

// FuzzQuery checks that Query accepts exactly what url.ParseQuery reads whole, with
// the same result, and otherwise names at least one parameter.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"status=PAID;x", "page=1;DROP", "a=%zz", "a=1&b=2", "", ";", "&&", "=;=", "%3B=%3B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := decode.Query(raw)
		want, werr := url.ParseQuery(raw)
		if (err == nil) != (werr == nil) {
			t.Fatalf("Query %v, url.ParseQuery %v", err, werr)
		}
		if err == nil {
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("Query %v, url.ParseQuery %v", got, want)
			}
			return
		}
		violationsOf(t, err, gc.KindInvalidData)
	})
}

func TestDepositFilter(t *testing.T) {
	cases := []struct {
		name  string
		query string
		want  gc.DepositFilter
		kind  gc.UnprocessableKind
		viols []fc
	}{
		{name: "empty", query: ""},
		{name: "blank form fields ignored", query: "startDate=&endDate=&minAmount=&maxAmount=&status=&depositOrigin=&page=&perPage="},
		{name: "dates with and without milliseconds",
			query: "startDate=2024-01-02T03:04:05Z&endDate=2024-01-03T03:04:05.123Z",
			want: gc.DepositFilter{StartDate: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
				EndDate: time.Date(2024, 1, 3, 3, 4, 5, 123_000_000, time.UTC)}},
		{name: "date with offset becomes UTC", query: "startDate=" + url.QueryEscape("2024-01-02T00:00:00-03:00"),
			want: gc.DepositFilter{StartDate: time.Date(2024, 1, 2, 3, 0, 0, 0, time.UTC)}},
		{name: "status repeated and comma separated", query: "status=PAID,PENDING&status=REFUNDED&depositOrigin=QRCODE,%20PIX_KEY",
			want: gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositPaid, gc.DepositPending, gc.DepositRefunded},
				DepositOrigin: []gc.DepositOrigin{gc.OriginQRCode, gc.OriginPixKey}}},
		{name: "amounts and paging", query: "minAmount=1&maxAmount=10000000&page=3&perPage=25",
			want: gc.DepositFilter{MinAmount: 1, MaxAmount: 10000000, Page: 3, PerPage: 25}},
		{name: "date without time", query: "startDate=2024-01-02", kind: gc.KindInvalidData, viols: []fc{{"startDate", gc.CodeFormat}}},
		{name: "date without zone", query: "endDate=2024-01-02T03:04:05", kind: gc.KindInvalidData, viols: []fc{{"endDate", gc.CodeFormat}}},
		{name: "date twice", query: "startDate=2024-01-02T03:04:05Z&startDate=2024-01-03T03:04:05Z", kind: gc.KindInvalidData, viols: []fc{{"startDate", gc.CodeDuplicate}}},
		{name: "decimal amount", query: "minAmount=1.5", kind: gc.KindInvalidData, viols: []fc{{"minAmount", gc.CodeInteger}}},
		{name: "word amount", query: "maxAmount=ten", kind: gc.KindInvalidData, viols: []fc{{"maxAmount", gc.CodeInteger}}},
		{name: "unknown status", query: "status=PAID&status=SETTLED", kind: gc.KindInvalidData, viols: []fc{{"status[1]", gc.CodeEnum}}},
		{name: "unknown origin", query: "depositOrigin=QRCODE,BOLETO", kind: gc.KindInvalidData, viols: []fc{{"depositOrigin[1]", gc.CodeEnum}}},
		{name: "bad page", query: "page=first", kind: gc.KindInvalidData, viols: []fc{{"page", gc.CodeInteger}}},
		{name: "invalid data at once", query: "startDate=yesterday&minAmount=1.5&status=NOPE",
			kind: gc.KindInvalidData, viols: []fc{{"startDate", gc.CodeFormat}, {"status[0]", gc.CodeEnum}, {"minAmount", gc.CodeInteger}}},
		{name: "negative amount", query: "minAmount=-5", want: gc.DepositFilter{MinAmount: -5},
			kind: gc.KindValidation, viols: []fc{{"minAmount", gc.CodeMin}}},
		{name: "huge amount", query: "maxAmount=99999999999999999999999", want: gc.DepositFilter{MaxAmount: 1<<63 - 1},
			kind: gc.KindValidation, viols: []fc{{"maxAmount", gc.CodeMax}}},
		{name: "duplicate status", query: "status=PAID,PENDING&status=PAID",
			want: gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositPaid, gc.DepositPending, gc.DepositPaid}},
			kind: gc.KindValidation, viols: []fc{{"status[2]", gc.CodeDuplicate}}},
		{name: "reversed range", query: "minAmount=200&maxAmount=100&startDate=2024-01-03T00:00:00Z&endDate=2024-01-02T00:00:00Z",
			want: gc.DepositFilter{MinAmount: 200, MaxAmount: 100,
				StartDate: time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC), EndDate: time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)},
			kind: gc.KindValidation, viols: []fc{{"maxAmount", gc.CodeRange}, {"endDate", gc.CodeRange}}},
		// 0 is "not set" in the filter type, but a 0 that was sent breaks the minimum.
		{name: "explicit zero amounts", query: "minAmount=0&maxAmount=0&status=PAID,PAID", want: gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositPaid, gc.DepositPaid}},
			kind: gc.KindValidation, viols: []fc{{"status[1]", gc.CodeDuplicate}, {"minAmount", gc.CodeMin}, {"maxAmount", gc.CodeMin}}},
		{name: "explicit zero alone", query: "maxAmount=0", kind: gc.KindValidation, viols: []fc{{"maxAmount", gc.CodeMin}}},
		{name: "negative page", query: "page=-1", want: gc.DepositFilter{Page: -1}, kind: gc.KindValidation, viols: []fc{{"page", gc.CodeMin}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			f, err := decode.DepositFilter(q, "", "")
			assertViolations(t, err, tc.kind, tc.viols)
			if !reflect.DeepEqual(f, tc.want) {
				t.Errorf("filter\n got %+v\nwant %+v", f, tc.want)
			}
		})
	}
}

func TestFilterPagingNames(t *testing.T) {
	q := url.Values{"p": {"-1"}, "size": {"-2"}, "page": {"junk"}}
	_, err := decode.DepositFilter(q, "p", "size")
	assertViolations(t, err, gc.KindValidation, []fc{{"p", gc.CodeMin}, {"size", gc.CodeMin}})
	_, err = decode.WithdrawalFilter(url.Values{"pagina": {"x"}}, "pagina", "")
	assertViolations(t, err, gc.KindInvalidData, []fc{{"pagina", gc.CodeInteger}})

	f := gc.DepositFilter{Page: 4, PerPage: 30}
	got := f.Query("p", "size")
	if want := (url.Values{"p": {"4"}, "size": {"30"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("Query = %v, want %v", got, want)
	}
	if back, err := decode.DepositFilter(got, "p", "size"); err != nil || !reflect.DeepEqual(back, f) {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func TestWithdrawalFilter(t *testing.T) {
	cases := []struct {
		name  string
		query string
		want  gc.WithdrawalFilter
		kind  gc.UnprocessableKind
		viols []fc
	}{
		{name: "texts", query: "id=f47ac10b-58cc-4372-a567-0e02b2c3d479&pixKey=%2B5511987654321&endToEnd=E1234567890&endToEndRefund=D1234567890&externalCode=order-0001",
			want: gc.WithdrawalFilter{ID: "f47ac10b-58cc-4372-a567-0e02b2c3d479", PixKey: "+5511987654321",
				EndToEnd: "E1234567890", EndToEndRefund: "D1234567890", ExternalCode: "order-0001"}},
		{name: "statuses", query: "status=PROCESSED&status=FAILED,CANCELED",
			want: gc.WithdrawalFilter{Status: []gc.WithdrawalStatus{gc.WithdrawalProcessed, gc.WithdrawalFailed, gc.WithdrawalCanceled}}},
		{name: "deposit status", query: "status=PAID", kind: gc.KindInvalidData, viols: []fc{{"status[0]", gc.CodeEnum}}},
		{name: "id twice", query: "id=a&id=b", kind: gc.KindInvalidData, viols: []fc{{"id", gc.CodeDuplicate}}},
		{name: "bad id and key", query: "id=123&pixKey=nope", want: gc.WithdrawalFilter{ID: "123", PixKey: "nope"},
			kind: gc.KindValidation, viols: []fc{{"id", gc.CodeUUID}, {"pixKey", gc.CodePixKey}}},
		{name: "amount 0", query: "minAmount=0", kind: gc.KindValidation, viols: []fc{{"minAmount", gc.CodeMin}}},
		{name: "amount 9", query: "minAmount=9&maxAmount=10", want: gc.WithdrawalFilter{MinAmount: 9, MaxAmount: 10},
			kind: gc.KindValidation, viols: []fc{{"minAmount", gc.CodeMin}}},
		{name: "short codes", query: "endToEnd=1234567&externalCode=abc", want: gc.WithdrawalFilter{EndToEnd: "1234567", ExternalCode: "abc"},
			kind: gc.KindValidation, viols: []fc{{"endToEnd", gc.CodeMinLength}, {"externalCode", gc.CodeMinLength}}},
		{name: "duplicate status", query: "status=FAILED&status=FAILED",
			want: gc.WithdrawalFilter{Status: []gc.WithdrawalStatus{gc.WithdrawalFailed, gc.WithdrawalFailed}},
			kind: gc.KindValidation, viols: []fc{{"status[1]", gc.CodeDuplicate}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			f, err := decode.WithdrawalFilter(q, "", "")
			assertViolations(t, err, tc.kind, tc.viols)
			if !reflect.DeepEqual(f, tc.want) {
				t.Errorf("filter\n got %+v\nwant %+v", f, tc.want)
			}
		})
	}
}

func TestFilterQueryRoundTrip(t *testing.T) {
	t0, t1 := filterTimes()
	deposits := []gc.DepositFilter{
		{},
		{StartDate: t0, EndDate: t1, Status: []gc.DepositStatus{gc.DepositPaid, gc.DepositPixQRCodeGenerated}, MinAmount: 1,
			MaxAmount: 10000000, DepositOrigin: []gc.DepositOrigin{gc.OriginPixKey, gc.OriginQRCode}, Page: 1, PerPage: 100},
		{Status: gc.DepositStatuses()},
		{EndDate: t1, MaxAmount: 5000},
	}
	for _, f := range deposits {
		q := f.Query("", "")
		back, err := decode.DepositFilter(q, "", "")
		if err != nil || !reflect.DeepEqual(back, f) {
			t.Errorf("deposit filter %+v -> %s -> %+v, %v", f, q.Encode(), back, err)
		}
	}
	withdrawals := []gc.WithdrawalFilter{
		{},
		{StartDate: t0, EndDate: t1, Status: gc.WithdrawalStatuses(), ID: "f47ac10b-58cc-4372-a567-0e02b2c3d479",
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
		back, err := decode.WithdrawalFilter(wire, "", "")
		if err != nil || !reflect.DeepEqual(back, f) {
			t.Errorf("withdrawal filter %+v -> %s -> %+v, %v", f, q.Encode(), back, err)
		}
	}
}
