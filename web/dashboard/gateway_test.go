package dashboard_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
)

// signedIn is an env with the dashboard and a browser signed in.
func signedIn(t *testing.T, mods ...func(*envOptions)) (*env, *browser) {
	t.Helper()
	e := newEnv(t, mods...)
	b := e.browser()
	b.login()
	return e, b
}

// lastDepositQuery is the gateway query of the last deposit list call.
func (e *env) lastDepositQuery() string {
	e.t.Helper()
	calls := e.dash.gateway.depositCalls()
	if len(calls) == 0 {
		e.t.Fatal("the gateway was not called")
	}
	return calls[len(calls)-1].Query("page", "perPage").Encode()
}

// TestDepositFilterMapping: each filter of the page reaches the gateway under the API's own
// parameter: repeated status, reais to cents, São Paulo time to UTC, blank fields left out.
func TestDepositFilterMapping(t *testing.T) {
	e, b := signedIn(t)
	for _, tc := range []struct{ query, want string }{
		{"", "perPage=25"},
		{"startDate=&endDate=&minAmount=&maxAmount=&page=&perPage=", "perPage=25"},
		{"status=PAID&status=REFUNDED", "perPage=25&status=PAID&status=REFUNDED"},
		{"minAmount=10", "minAmount=1000&perPage=25"},
		{"minAmount=10%2C5", "minAmount=1050&perPage=25"},
		{"minAmount=10%2C50", "minAmount=1050&perPage=25"},
		{"maxAmount=1.234%2C56", "maxAmount=123456&perPage=25"},
		{"maxAmount=10.50", "maxAmount=1050&perPage=25"},
		{"startDate=2026-03-01T14%3A30", "perPage=25&startDate=2026-03-01T17%3A30%3A00.000Z"},
		{"endDate=2026-03-01T23%3A59%3A59", "endDate=2026-03-02T02%3A59%3A59.000Z&perPage=25"},
		{"startDate=2026-03-01T12%3A00%3A00Z", "perPage=25&startDate=2026-03-01T12%3A00%3A00.000Z"},
		{"startDate=2026-03-01T12%3A00%3A00-03%3A00", "perPage=25&startDate=2026-03-01T15%3A00%3A00.000Z"},
		{"depositOrigin=PIX_KEY", "depositOrigin=PIX_KEY&perPage=25"},
		{"depositOrigin=QRCODE&depositOrigin=PIX_KEY", "depositOrigin=QRCODE&depositOrigin=PIX_KEY&perPage=25"},
		{"page=3&perPage=10", "page=3&perPage=10"},
		{"lang=en&status=FAILED", "perPage=25&status=FAILED"},
	} {
		res, doc := b.get("/dashboard/deposits?" + tc.query)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d: %s", tc.query, res.StatusCode, doc.Find(`[data-testid="filter-error"]`).Text())
			continue
		}
		if got := e.lastDepositQuery(); got != tc.want {
			t.Errorf("%s: the gateway got %s, want %s", tc.query, got, tc.want)
		}
	}
}

// TestWithdrawalFilterMapping: the same for every withdrawal filter.
func TestWithdrawalFilterMapping(t *testing.T) {
	e, b := signedIn(t)
	id := "3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d"
	for _, tc := range []struct{ query, want string }{
		{"", "perPage=25"},
		{"status=PROCESSED&status=FAILED", "perPage=25&status=PROCESSED&status=FAILED"},
		{"id=" + id, "id=" + id + "&perPage=25"},
		{"pixKey=ana%40example.com", "perPage=25&pixKey=ana%40example.com"},
		{"endToEnd=E12345678202603011200abcdefghijk", "endToEnd=E12345678202603011200abcdefghijk&perPage=25"},
		{"endToEndRefund=D12345678202603011200abcdefghijk", "endToEndRefund=D12345678202603011200abcdefghijk&perPage=25"},
		{"externalCode=PEDIDO-000123", "externalCode=PEDIDO-000123&perPage=25"},
		{"minAmount=0%2C10&maxAmount=2.000", "maxAmount=200000&minAmount=10&perPage=25"},
		{"startDate=2026-03-01&endDate=2026-03-01", "endDate=2026-03-02T02%3A59%3A59.999Z&perPage=25&startDate=2026-03-01T03%3A00%3A00.000Z"},
		{"id=&pixKey=&endToEnd=&endToEndRefund=&externalCode=", "perPage=25"},
	} {
		res, doc := b.get("/dashboard/withdrawals?" + tc.query)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d: %s", tc.query, res.StatusCode, doc.Find(`[data-testid="filter-error"]`).Text())
			continue
		}
		calls := e.dash.gateway.withdrawalCalls()
		if got := calls[len(calls)-1].Query("page", "perPage").Encode(); got != tc.want {
			t.Errorf("%s: the gateway got %s, want %s", tc.query, got, tc.want)
		}
	}
}

// TestFilterValidationMessages: every rule of the API is checked before the gateway is called;
// the message sits beside its field (filter-error, aria-invalid, aria-describedby), and the
// other values stay in the form.
func TestFilterValidationMessages(t *testing.T) {
	e, b := signedIn(t)
	for _, tc := range []struct {
		page, query, param, msg string
	}{
		{"deposits", "startDate=ontem", "startDate", "Informe data e hora, como 01/03/2026 14:30."},
		{"deposits", "startDate=2026-03-02T10:00&endDate=2026-03-01T10:00", "endDate", "A data final deve ser igual ou posterior à inicial."},
		{"deposits", "status=PAID&status=NOPE", "status", "Valor desconhecido: NOPE."},
		{"deposits", "status=PAID&status=PAID", "status", "Valor repetido: PAID."},
		{"deposits", "minAmount=abc", "minAmount", "Informe um valor em reais, como 10,50 ou 1.234,56."},
		{"deposits", "minAmount=10,555%2C5", "minAmount", "Informe um valor em reais, como 10,50 ou 1.234,56."},
		{"deposits", "minAmount=0", "minAmount", "O valor mínimo é R$ 0,01."},
		{"deposits", "maxAmount=100.000,01", "maxAmount", "O valor máximo é R$ 100.000,00."},
		{"deposits", "minAmount=20&maxAmount=10", "maxAmount", "O máximo deve ser maior ou igual ao mínimo."},
		{"deposits", "depositOrigin=BOLETO", "depositOrigin", "Valor desconhecido: BOLETO."},
		{"deposits", "page=0", "page", "Informe uma página a partir de 1."},
		{"deposits", "page=9223372036854775807", "page", "Informe uma página a partir de 1."},
		{"deposits", "perPage=1000", "perPage", "Informe de 1 a 100 itens por página."},
		{"deposits", "status=PAID;x", "status", "Não foi possível ler o parâmetro status da URL: o ';' não separa parâmetros. Corrija o filtro."},
		{"deposits", "page=1;DROP", "page", "Não foi possível ler o parâmetro page da URL: o ';' não separa parâmetros. Corrija o filtro."},
		{"withdrawals", "id=123", "id", "Informe um id no formato UUID v4, como 3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d."},
		{"withdrawals", "pixKey=chave-ruim", "pixKey", "Informe uma chave Pix válida: CPF, CNPJ, e-mail, celular ou chave aleatória."},
		{"withdrawals", "endToEnd=E123", "endToEnd", "Informe de 8 a 255 caracteres."},
		{"withdrawals", "endToEndRefund=D123", "endToEndRefund", "Informe de 8 a 255 caracteres."},
		{"withdrawals", "externalCode=curto", "externalCode", "Informe de 8 a 255 caracteres."},
		{"withdrawals", "minAmount=0,09", "minAmount", "O valor mínimo é R$ 0,10."},
		{"withdrawals", "status=PAID", "status", "Valor desconhecido: PAID."},
	} {
		before := len(e.dash.gateway.depositCalls()) + len(e.dash.gateway.withdrawalCalls())
		// Another valid value rides along: it must be kept.
		res, doc := b.get("/dashboard/" + tc.page + "?" + tc.query + "&maxAmount=&pixKey=&externalCode=&minAmount=&startDate=&status=FAILED")
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s?%s: status %d", tc.page, tc.query, res.StatusCode)
		}
		if after := len(e.dash.gateway.depositCalls()) + len(e.dash.gateway.withdrawalCalls()); after != before {
			t.Errorf("%s?%s: the gateway was called with an invalid filter", tc.page, tc.query)
		}
		msg := doc.Find(`[data-testid="filter-error"][data-param="` + tc.param + `"]`)
		if strings.TrimSpace(msg.Text()) != tc.msg {
			t.Errorf("%s?%s: message of %s = %q, want %q", tc.page, tc.query, tc.param, msg.Text(), tc.msg)
			continue
		}
		id, _ := msg.Attr("id")
		field := doc.Find("#f-" + tc.param)
		if !slices.Contains(strings.Fields(field.AttrOr("aria-describedby", "")), id) {
			t.Errorf("%s?%s: the field %s is not described by its message (%q)", tc.page, tc.query, tc.param, field.AttrOr("aria-describedby", ""))
		}
		if goquery.NodeName(field) == "input" && field.AttrOr("aria-invalid", "") != "true" {
			t.Errorf("%s?%s: %s not aria-invalid", tc.page, tc.query, tc.param)
		}
		if doc.Find(`input[name="status"][value="FAILED"]`).AttrOr("checked", "none") == "none" {
			t.Errorf("%s?%s: the other filter (status FAILED) was not kept", tc.page, tc.query)
		}
		if doc.Find(`[data-testid="filter-errors"]`).Length() != 1 {
			t.Errorf("%s?%s: no error summary", tc.page, tc.query)
		}
	}
	// Several errors at once, each at its own field; valid amounts kept as typed.
	_, doc := b.get("/dashboard/deposits?minAmount=abc&maxAmount=1.234,56&status=NOPE")
	if n := doc.Find(`[data-testid="filter-error"]`).Length(); n != 2 {
		t.Errorf("%d messages, want 2", n)
	}
	if v := doc.Find(`#f-maxAmount`).AttrOr("value", ""); v != "1.234,56" {
		t.Errorf("maxAmount shown as %q, want as typed", v)
	}
	if v := doc.Find(`#f-minAmount`).AttrOr("value", ""); v != "abc" {
		t.Errorf("minAmount shown as %q, want as typed", v)
	}
}

// TestFilterShowsGateway422: a 422 of the gateway is shown beside the field it names, like the
// page's own checks.
func TestFilterShowsGateway422(t *testing.T) {
	e, b := signedIn(t)
	e.dash.gateway.failing(&gatewayclient.APIError{StatusCode: 422, Title: "Validations",
		Messages: []string{"minAmount: must not be greater than 500000", "something: odd"}}, 0)
	res, doc := b.get("/dashboard/deposits?minAmount=6000&status=PAID")
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("status %d", res.StatusCode)
	}
	if msg := doc.Find(`[data-testid="filter-error"][data-param="minAmount"]`).Text(); msg != "O gateway recusou este filtro: must not be greater than 500000" {
		t.Errorf("minAmount: %q", msg)
	}
	if sum := doc.Find(`[data-testid="filter-errors"]`).Text(); !strings.Contains(sum, "something: odd") {
		t.Errorf("the unplaced message is not in the summary: %q", sum)
	}
	if doc.Find(`#f-minAmount`).AttrOr("value", "") != "6000" {
		t.Error("the value was not kept")
	}
}

// TestGatewayTroubleBanner: timeouts, 5xx, 429 and refused credentials each get a banner
// saying what happened and what to do, never the cause; the form stays usable.
func TestGatewayTroubleBanner(t *testing.T) {
	e, b := signedIn(t)
	for _, tc := range []struct {
		err    error
		status int
		says   string
	}{
		{&gatewayclient.APIError{StatusCode: 503, Messages: []string{"db on fire at 10.0.0.3"}}, 503, "não respondeu a tempo"},
		{fmt.Errorf("gatewayclient: GET /deposit: %w", context.DeadlineExceeded), 503, "não respondeu a tempo"},
		{&gatewayclient.APIError{StatusCode: 429}, 503, "diminuir o ritmo"},
		{&gatewayclient.APIError{StatusCode: 401}, 502, "CHECKOUT_GATEWAY_CLIENT_SECRET"},
		{errors.New("secret internals"), 500, "informe a referência"},
		// A list never answers 404: the gateway's URL (its path prefix) is wrong.
		{&gatewayclient.APIError{StatusCode: 404}, 502, "prefixo de caminho"},
	} {
		e.dash.gateway.failing(tc.err, 0)
		res, doc := b.get("/dashboard/deposits?status=PAID&minAmount=10")
		banner := doc.Find(`[data-testid="gateway-banner"]`).Text()
		if res.StatusCode != tc.status || !strings.Contains(banner, tc.says) {
			t.Errorf("%v: %d %q; want %d saying %q", tc.err, res.StatusCode, banner, tc.status, tc.says)
		}
		body, _ := doc.Html()
		if strings.Contains(body, "10.0.0.3") || strings.Contains(body, "secret internals") {
			t.Errorf("%v: the cause leaked into the page", tc.err)
		}
		if doc.Find(`[data-testid="filter-form"] input[name="minAmount"]`).AttrOr("value", "") != "10" ||
			doc.Find(`input[name="status"][value="PAID"]`).AttrOr("checked", "none") == "none" {
			t.Errorf("%v: the form lost its values", tc.err)
		}
	}
	e.dash.gateway.failing(nil, 0)
}

// TestDepositListRows: the rows are exactly the gateway's for the same query, in its order,
// with the pagination's totals, and the page links keep the filters.
func TestDepositListRows(t *testing.T) {
	e, b := signedIn(t)
	e.seed(120, 0)
	ctx := context.Background()
	f := gatewayclient.DepositFilter{Status: []gatewayclient.DepositStatus{"PAID", "REFUNDED"}, MinAmount: 1000, MaxAmount: 50000, Page: 2, PerPage: 10}
	want, err := e.client.ListDeposits(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	if want.Total < 12 {
		t.Fatalf("the seed gave only %d matching deposits", want.Total)
	}
	res, doc := b.get("/dashboard/deposits?status=PAID&status=REFUNDED&minAmount=10&maxAmount=500&page=2&perPage=10")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	var ids []string
	doc.Find(`tr[data-testid="deposit-row"]`).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-id", "")) })
	var wantIDs []string
	for _, d := range want.Data {
		wantIDs = append(wantIDs, d.ID)
	}
	if !slices.Equal(ids, wantIDs) {
		t.Errorf("rows %v\nwant %v", ids, wantIDs)
	}
	pg := doc.Find(`[data-testid="pagination"]`)
	if pg.AttrOr("data-total", "") != fmt.Sprint(want.Total) || pg.AttrOr("data-page", "") != "2" ||
		pg.AttrOr("data-total-pages", "") != fmt.Sprint(want.TotalPages) {
		t.Errorf("pagination %v", pg.Nodes[0].Attr)
	}
	next, _ := doc.Find(`[data-testid="page-next"]`).Attr("href")
	u, _ := url.Parse(next)
	if q := u.Query(); q.Get("page") != "3" || !slices.Equal(q["status"], []string{"PAID", "REFUNDED"}) || q.Get("minAmount") != "10" || q.Get("perPage") != "10" {
		t.Errorf("next page link %q", next)
	}
	prev, _ := doc.Find(`[data-testid="page-prev"]`).Attr("href")
	if u, _ := url.Parse(prev); u.Query().Get("page") != "1" {
		t.Errorf("previous page link %q", prev)
	}
	csv, _ := doc.Find(`[data-testid="export-csv"]`).Attr("href")
	if u, _ := url.Parse(csv); u.Path != "/dashboard/deposits.csv" || u.Query().Get("page") != "" || u.Query().Get("minAmount") != "10" {
		t.Errorf("CSV link %q", csv)
	}
	// Each row shows the amount in reais and the state's name.
	first := doc.Find(`tr[data-testid="deposit-row"]`).First()
	if !strings.Contains(first.Text(), "R$") || first.Find(".state").Text() == "" {
		t.Errorf("row %q", first.Text())
	}
	// Past the last page: an empty page with the right total, never another page.
	_, doc = b.get(fmt.Sprintf("/dashboard/deposits?status=PAID&status=REFUNDED&minAmount=10&maxAmount=500&perPage=10&page=%d", want.TotalPages+5))
	if n := doc.Find(`tr[data-testid="deposit-row"]`).Length(); n != 0 {
		t.Errorf("%d rows past the end", n)
	}
	if doc.Find(`[data-testid="empty"]`).Length() != 1 {
		t.Error("no empty state past the end")
	}
}

// TestDepositDetail: every field, the timeline with the time spent in each state, the order it
// pays; 404 for an unknown id, the API's 422 for a malformed one.
func TestDepositDetail(t *testing.T) {
	e, b := signedIn(t)
	pay := e.placeOrder()
	o := e.waitStatus(orderID(pay), "awaiting_payment")
	depID := o.CurrentAttempt().TransactionID
	if err := (payer{e.client}).Pay(context.Background(), depID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.RefreshFromGateway(context.Background(), o.ID); err != nil {
		t.Fatal(err)
	}
	e.waitStatus(o.ID, "paid")
	dep, err := e.client.GetDeposit(context.Background(), depID)
	if err != nil {
		t.Fatal(err)
	}
	res, doc := b.get("/dashboard/deposits/" + depID)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	rec := doc.Find(`[data-testid="record"]`).Text()
	for _, want := range []string{dep.ID, "R$ 29,90", dep.EndToEnd, dep.ExternalCode} {
		if want != "" && !strings.Contains(rec, want) && !strings.Contains(doc.Text(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	entries := doc.Find(`[data-testid="timeline-entry"]`)
	if entries.Length() != len(dep.StatusHistory) || entries.Length() < 2 {
		t.Fatalf("%d timeline entries for %d states", entries.Length(), len(dep.StatusHistory))
	}
	if entries.First().AttrOr("data-status", "") != "PIX_QRCODE_GENERATED" || entries.Last().AttrOr("data-status", "") != "PAID" ||
		entries.Last().AttrOr("aria-current", "") != "step" {
		t.Errorf("timeline %q", entries.Text())
	}
	if d := entries.First().Find(`[data-testid="timeline-duration"]`).Text(); !strings.Contains(d, "ficou") {
		t.Errorf("time in the first state: %q", d)
	}
	if doc.Find(`[data-testid="payer"]`).Length() != 1 {
		t.Error("no payer")
	}
	// The payer's bank is named beside its ISPB (the sandbox's payers hold accounts at the
	// large banks the table names).
	if ispb := dep.Payer.BankAccount.ISPB; !strings.Contains(doc.Find(`[data-testid="payer"]`).Text(), views.BankText(ispb)) ||
		views.BankText(ispb) == ispb {
		t.Errorf("the payer's bank %s is not named: %q", ispb, doc.Find(`[data-testid="payer"]`).Text())
	}
	link := doc.Find(`[data-testid="linked-order"] a`)
	if !strings.Contains(link.Text(), o.Number) || link.AttrOr("href", "") != "/dashboard/orders/"+o.ID {
		t.Errorf("linked order %q %q", link.Text(), link.AttrOr("href", ""))
	}

	res, doc = b.get("/dashboard/deposits/3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d")
	if res.StatusCode != http.StatusNotFound || doc.Find(`[data-testid="dash-error"]`).Length() != 1 {
		t.Errorf("unknown id: %d", res.StatusCode)
	}
	res, doc = b.get("/dashboard/deposits/not-a-uuid")
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid="api-message"]`).Text() != "id: must be a UUID" {
		t.Errorf("malformed id: %d %q", res.StatusCode, doc.Find(`[data-testid="api-message"]`).Text())
	}
}

// TestWithdrawalListAndDetail: rows of a pixKey filter and of an externalCode filter are the
// gateway's; a withdrawal's page has its timeline; unknown and malformed ids.
func TestWithdrawalListAndDetail(t *testing.T) {
	e, b := signedIn(t)
	ctx := context.Background()
	var made struct {
		ID string `json:"id"`
	}
	err := e.client.Do(ctx, http.MethodPost, "/sandbox/withdrawals",
		map[string]any{"amount": 12345, "pixKey": "ana@loja.example", "externalCode": "=HYPERLINK(1)"}, &made)
	if err != nil {
		t.Fatal(err)
	}
	e.seed(0, 40)
	for _, q := range []string{"pixKey=ana%40loja.example", "externalCode=%3DHYPERLINK%281%29"} {
		_, doc := b.get("/dashboard/withdrawals?" + q)
		rows := doc.Find(`tr[data-testid="withdrawal-row"]`)
		if rows.Length() != 1 || rows.AttrOr("data-id", "") != made.ID {
			t.Errorf("%s: %d rows", q, rows.Length())
		}
	}
	res, doc := b.get("/dashboard/withdrawals/" + made.ID)
	if res.StatusCode != http.StatusOK || !strings.Contains(doc.Find(`[data-testid="record"]`).Text(), "R$ 123,45") ||
		doc.Find(`[data-testid="timeline-entry"]`).Length() < 1 {
		t.Errorf("withdrawal page %d %q", res.StatusCode, doc.Find(`[data-testid="record"]`).Text())
	}
	if res, _ := b.get("/dashboard/withdrawals/3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown withdrawal: %d", res.StatusCode)
	}
	res, doc = b.get("/dashboard/withdrawals/123")
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid="api-message"]`).Text() != "id: must be a UUID v4" {
		t.Errorf("malformed withdrawal id: %d %q", res.StatusCode, doc.Find(`[data-testid="api-message"]`).Text())
	}
	_ = time.Second
}
