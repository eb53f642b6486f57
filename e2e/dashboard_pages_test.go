package e2e

import (
	"context"
	"net/http"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// The dashboard's user in these tests.
const (
	merchantEmail    = "dona@loja.example"
	merchantPassword = "senha-do-painel-e2e"
)

// addMerchant makes the dashboard user of the tests.
func (a *testApp) addMerchant(t *testing.T) {
	t.Helper()
	if _, err := a.app.Accounts().AddUser(context.Background(), merchantEmail, merchantPassword, team.RoleOwner); err != nil {
		t.Fatalf("adding the dashboard user: %v", err)
	}
}

// seedGateway adds deterministic deposits and withdrawals to the embedded sandbox.
func (a *testApp) seedGateway(t *testing.T, deposits, withdrawals int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), actionTimeout)
	defer cancel()
	body := map[string]int{"deposits": deposits, "withdrawals": withdrawals, "seed": 11}
	if err := a.gateway(t).Do(ctx, http.MethodPost, "/sandbox/seed", body, nil); err != nil {
		t.Fatalf("seeding the sandbox: %v", err)
	}
}

// dashboard is the dashboard seen by one session.
type dashboard struct {
	s   *session
	url string // the app's URL
}

func dashboardOf(s *session, a *testApp) dashboard { return dashboard{s: s, url: a.url} }

func (d dashboard) testID(id string) playwright.Locator { return d.s.page.GetByTestId(id) }

// login signs in through the form and waits for the dashboard.
func (d dashboard) login(email, password string) {
	d.s.t.Helper()
	d.s.open(d.url + "/dashboard/login")
	d.submitLogin(email, password)
	d.s.check(d.s.expect.Page(d.s.page).ToHaveURL(regexp.MustCompile(`/dashboard(/[a-z]+)?$`)), "the dashboard after signing in")
}

// submitLogin fills and posts the sign-in form.
func (d dashboard) submitLogin(email, password string) {
	d.s.t.Helper()
	form := d.testID("login-form")
	d.s.check(form.Locator(`input[name="email"]`).Fill(email), "fill email")
	d.s.check(form.Locator(`input[name="password"]`).Fill(password), "fill password")
	d.s.check(d.testID("login-submit").Click(), "submit the sign-in")
}

// rowIDs returns the data-id of every row with the given test id, in order.
func (d dashboard) rowIDs(testid string) []string {
	d.s.t.Helper()
	v := d.s.eval(d.s.page, `(id) => [...document.querySelectorAll('[data-testid="' + id + '"]')].map(r => r.dataset.id)`, testid)
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// filterForm is the filter form of a list.
func (d dashboard) filterForm() playwright.Locator { return d.testID("filter-form") }

// check ticks the checkbox of a repeated parameter's value.
func (d dashboard) tick(param, value string) {
	d.s.t.Helper()
	d.reveal(param)
	d.s.check(d.filterForm().Locator(`input[name="`+param+`"][value="`+value+`"]`).Check(), "tick "+param+"="+value)
}

// fill types a value into a filter input.
func (d dashboard) fill(param, value string) {
	d.s.t.Helper()
	d.reveal(param)
	d.s.check(d.filterForm().Locator(`[name="`+param+`"]`).Fill(value), "fill "+param)
}

// reveal opens the disclosures of the filter form that hold the inputs of param (the phone's
// "Filtros", "Mais filtros"), clicking their summaries as a merchant would.
func (d dashboard) reveal(param string) {
	d.s.t.Helper()
	for range 2 {
		// A wide screen shows the bar's disclosure open without its summary: only a summary
		// in view is one to click.
		closed := d.filterForm().Locator(`details:not([open]):has([name="` + param + `"]) > summary:visible`)
		n, err := closed.Count()
		d.s.check(err, "the disclosures over "+param)
		if n == 0 {
			return
		}
		d.s.check(closed.First().Click(), "open the filters holding "+param)
	}
}

// submitFilter submits the filter form and waits for the new page.
func (d dashboard) submitFilter() {
	d.s.t.Helper()
	// The navigation the click starts, loaded: waiting for the load state after the click
	// could look at the old page, or miss the new one (a 30 s timeout under a loaded run).
	_, err := d.s.page.ExpectNavigation(func() error { return d.testID("filter-submit").Click() })
	d.s.check(err, "submit the filters")
}

// idsOf lists the ids of records.
func depositIDs(ds []gatewayclient.Deposit) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, d.ID)
	}
	return out
}

// placeOrder places an order of the e-book through the domain, paid at the sandbox when pay.
func (a *testApp) placeOrder(t *testing.T, pay bool) *checkout.Order {
	t.Helper()
	o := a.placeOrderOf(t, 1)
	if !pay {
		return o
	}
	if o = a.payAtSandbox(t, o); o.Status != checkout.StatusPaid {
		t.Fatalf("paying the order: status %s", o.Status)
	}
	return o
}

// withPIXCode returns the order with its PIX code. PlaceOrder answers without waiting for a
// slow gateway (the shopper's timeout) on a loaded machine; the attempt's answer is then stored
// by the same call made again with its key.
func (a *testApp) withPIXCode(t *testing.T, ctx context.Context, o *checkout.Order) *checkout.Order {
	t.Helper()
	if o.CurrentAttempt().TransactionID != "" {
		return o
	}
	got, err := a.app.Service().EnsurePayment(ctx, o.ID)
	if err != nil || got.CurrentAttempt().TransactionID == "" {
		t.Fatalf("the order's PIX code: %v, %v", got, err)
	}
	return got
}
