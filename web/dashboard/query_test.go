package dashboard

import (
	"slices"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

func TestParseReais(t *testing.T) {
	for in, want := range map[string]checkout.Cents{
		"10": 1000, "10,5": 1050, "10,50": 1050, "10.50": 1050, "10.5": 1050, "1.234,56": 123456,
		"1,234.56": 123456, "1.234": 123400, "1,234": 123400, "1.234.567,89": 123456789,
		"R$ 1.234,56": 123456, "R$10": 1000, " 0,01 ": 1, ",5": 50, "0005": 500, "10,": 1000,
		"1 234,56": 123456, "1\u00a0234,56": 123456, "100000": 10000000, "0": 0,
	} {
		got, err := checkout.ParseReais(in)
		if err != nil || got != want {
			t.Errorf("checkout.ParseReais(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "abc", "10,5555", "10.5555", "1.2.3", "12.34.56", "1,234,5.6", "1.234.5", "-5", "1e3",
		"10,50,1", "1234.567", "R$", ".", "9999999999999999", "10.50.", "+5", "5 reais", "0x10"} {
		if got, err := checkout.ParseReais(in); err == nil {
			t.Errorf("checkout.ParseReais(%q) = %d; want an error", in, got)
		}
	}
}

func TestStrictQuery(t *testing.T) {
	q, errs := strictQuery("status=PAID;x&minAmount=10&page=1;DROP&perPage=10&bad%zz=1&x=%zz&&status=FAILED")
	if errs.Code("status") != codeUnreadable || errs.Code("page") != codeUnreadable {
		t.Errorf("violations %v; want status and page named", errs)
	}
	if errs.Code("x") != codeUnreadable || errs.Code("bad%zz") != codeUnreadable {
		t.Errorf("bad escapes: %v", errs)
	}
	if q.Get("minAmount") != "10" || q.Get("perPage") != "10" || !slices.Equal(q["status"], []string{"FAILED"}) {
		t.Errorf("readable pairs %v", q)
	}
	if _, errs := strictQuery("a=1&b=%C3%A9+x&c"); len(errs.Violations) != 0 {
		t.Errorf("a clean query: %v", errs)
	}
}

// TestParseDepositQuery: the mapping of the deposit view's parameters onto the gateway's
// filter: repeated status, reais to cents, São Paulo time to UTC, blank fields left out.
func TestParseDepositQuery(t *testing.T) {
	_, f, errs := parseDepositQuery("startDate=2026-03-01T14%3A30&endDate=2026-03-02&status=PAID&status=REFUNDED" +
		"&minAmount=10%2C5&maxAmount=1.234%2C56&depositOrigin=QRCODE&page=3&perPage=50&lang=en")
	if len(errs.Violations) != 0 {
		t.Fatalf("errors %v", errs)
	}
	want := gatewayclient.DepositFilter{
		StartDate:     time.Date(2026, 3, 1, 17, 30, 0, 0, time.UTC),
		EndDate:       time.Date(2026, 3, 3, 2, 59, 59, 999e6, time.UTC),
		Status:        []gatewayclient.DepositStatus{"PAID", "REFUNDED"},
		MinAmount:     1050,
		MaxAmount:     123456,
		DepositOrigin: []gatewayclient.DepositOrigin{"QRCODE"},
		Page:          3,
		PerPage:       50,
	}
	if !f.StartDate.Equal(want.StartDate) || !f.EndDate.Equal(want.EndDate) || !slices.Equal(f.Status, want.Status) ||
		f.MinAmount != want.MinAmount || f.MaxAmount != want.MaxAmount || !slices.Equal(f.DepositOrigin, want.DepositOrigin) ||
		f.Page != want.Page || f.PerPage != want.PerPage {
		t.Errorf("filter %+v\nwant   %+v", f, want)
	}
	got := f.Query("page", "perPage").Encode()
	if got != "depositOrigin=QRCODE&endDate=2026-03-03T02%3A59%3A59.999Z&maxAmount=123456&minAmount=1050&page=3&perPage=50&startDate=2026-03-01T17%3A30%3A00.000Z&status=PAID&status=REFUNDED" {
		t.Errorf("gateway query %s", got)
	}
	// Blank fields, as a GET form sends them, are left out; perPage takes the default.
	_, f, errs = parseDepositQuery("startDate=&endDate=&minAmount=&maxAmount=&page=&perPage=&status=")
	if len(errs.Violations) != 0 {
		t.Fatalf("errors %v", errs)
	}
	if got := f.Query("page", "perPage").Encode(); got != "perPage=25" {
		t.Errorf("blank form sends %q", got)
	}
	// An ISO time with an offset or Z is taken as it says; commas split statuses too.
	_, f, errs = parseDepositQuery("startDate=2026-03-01T12:00:00Z&endDate=2026-03-01T12:00:00.5-03:00&status=PAID,FAILED")
	if len(errs.Violations) != 0 || !f.StartDate.Equal(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)) ||
		!f.EndDate.Equal(time.Date(2026, 3, 1, 15, 0, 0, 5e8, time.UTC)) || len(f.Status) != 2 {
		t.Errorf("ISO times: %+v %v", f, errs)
	}
}

// TestDepositQueryViolations: every rule of the API for deposits, by parameter.
func TestDepositQueryViolations(t *testing.T) {
	for _, tc := range []struct {
		query, param, code string
	}{
		{"startDate=yesterday", "startDate", checkout.CodeFormat},
		{"endDate=2026-02-30", "endDate", checkout.CodeFormat},
		{"startDate=2026-03-02&endDate=2026-03-01", "endDate", checkout.CodeRange},
		{"startDate=1&startDate=2", "startDate", checkout.CodeDuplicate},
		{"status=PAID&status=NOPE", "status", checkout.CodeEnum},
		{"status=PAID&status=PAID", "status", checkout.CodeDuplicate},
		{"status=paid", "status", checkout.CodeEnum},
		{"minAmount=abc", "minAmount", checkout.CodeFormat},
		{"minAmount=0", "minAmount", checkout.CodeMin},
		{"minAmount=-3", "minAmount", checkout.CodeMin},
		{"minAmount=10,5555", "minAmount", checkout.CodeFormat},
		{"maxAmount=100000,01", "maxAmount", checkout.CodeMax},
		{"minAmount=20&maxAmount=10", "maxAmount", checkout.CodeRange},
		{"depositOrigin=PIX", "depositOrigin", checkout.CodeEnum},
		{"depositOrigin=QRCODE&depositOrigin=QRCODE", "depositOrigin", checkout.CodeDuplicate},
		{"page=0", "page", checkout.CodeMin},
		{"page=-1", "page", checkout.CodeMin},
		{"page=x", "page", checkout.CodeInteger},
		{"page=9223372036854775807", "page", checkout.CodeMax},
		{"page=99999999999999999999999", "page", checkout.CodeMax},
		{"perPage=101", "perPage", checkout.CodeMax},
		{"status=PAID;x", "status", codeUnreadable},
		{"page=1;DROP", "page", codeUnreadable},
	} {
		_, _, errs := parseDepositQuery(tc.query)
		if code := errs.Code(tc.param); code != tc.code {
			t.Errorf("%s: violations %v; want %s %s", tc.query, errs, tc.param, tc.code)
		}
	}
	// Several violations at once, each beside its own parameter; valid ones untouched.
	q, _, errs := parseDepositQuery("minAmount=abc&maxAmount=5&status=NOPE&startDate=2026-03-01T10:00")
	if len(errs.Violations) != 2 || errs.Code("minAmount") == "" || errs.Code("status") == "" || q.Get("maxAmount") != "5" {
		t.Errorf("violations %v, values %v", errs, q)
	}
}

// TestWithdrawalQuery: the withdrawal filters and their rules.
func TestWithdrawalQuery(t *testing.T) {
	id := "3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d"
	_, f, errs := parseWithdrawalQuery("id=" + id + "&pixKey=ana%40example.com&endToEnd=E12345678202603011200abcdefghijk" +
		"&endToEndRefund=D1234567890&externalCode=PEDIDO-0001&minAmount=0,10&maxAmount=50&status=PROCESSED&status=FAILED")
	if len(errs.Violations) != 0 {
		t.Fatalf("errors %v", errs)
	}
	if f.ID != id || f.PixKey != "ana@example.com" || f.EndToEnd != "E12345678202603011200abcdefghijk" ||
		f.EndToEndRefund != "D1234567890" || f.ExternalCode != "PEDIDO-0001" || f.MinAmount != 10 || f.MaxAmount != 5000 ||
		len(f.Status) != 2 {
		t.Errorf("filter %+v", f)
	}
	for _, tc := range []struct{ query, param, code string }{
		{"id=123", "id", checkout.CodeUUID},
		{"pixKey=not-a-key", "pixKey", checkout.CodePixKey},
		{"endToEnd=short", "endToEnd", checkout.CodeMinLength},
		{"endToEndRefund=short", "endToEndRefund", checkout.CodeMinLength},
		{"externalCode=short", "externalCode", checkout.CodeMinLength},
		{"minAmount=0,09", "minAmount", checkout.CodeMin},
		{"status=PAID", "status", checkout.CodeEnum}, // a deposit state, not a withdrawal one
		{"externalCode=a&externalCode=b", "externalCode", checkout.CodeDuplicate},
	} {
		_, _, errs := parseWithdrawalQuery(tc.query)
		if code := errs.Code(tc.param); code != tc.code {
			t.Errorf("%s: violations %v; want %s %s", tc.query, errs, tc.param, tc.code)
		}
	}
}
