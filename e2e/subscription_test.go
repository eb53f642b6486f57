package e2e

import (
	"context"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
)

// TestSubscriptionFromTheDashboard: the merchant makes a monthly subscription on day 31 from
// the dashboard's form, sees it listed with its next due date (a shorter month's last day when
// it has no 31st), pauses and resumes it; on its issuing day (the lead days before the due
// date, on the app's clock) the issuer's sweep makes its charge, listed on the subscription's
// page with a link to the charge and its customer's page; canceled, the subscription issues
// nothing more. Every state of the pages passes the accessibility checks.
func TestSubscriptionFromTheDashboard(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	a.addMerchant(t)
	today := a.noonTomorrow()
	start := charges.AddDays(today, 3*subscriptions.DefaultLeadDays) // nothing is due within the lead days yet
	sched := subscriptions.Schedule{DayOfMonth: 31, Start: start}
	due := sched.Due(0)

	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)
	s.open(a.url + "/dashboard/subscriptions")
	s.check(s.expect.Locator(d.testID("empty")).ToBeVisible(), "no subscription yet")
	s.a11y(s.page, "subscriptions, empty")
	form := d.testID("subscription-form")
	for name, value := range map[string]string{"customer.name": "Maria da Silva", "customer.document": "529.982.247-25",
		"customer.email": "maria@example.com", "description": "Mensalidade da academia", "amount": "189,90",
		"dayOfMonth": "31", "startDate": start.String(), "fine": "2", "interest": "1"} {
		s.check(form.Locator(`[name="`+name+`"]`).Fill(value), "fill "+name)
	}
	s.check(d.testID("subscription-submit").Click(), "make the subscription")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/subscriptions/[A-Za-z0-9_-]+\?done=created$`)), "the subscription's page")
	page := regexp.MustCompile(`\?.*$`).ReplaceAllString(s.page.URL(), "")
	status := d.testID("subscription-status")
	s.check(s.expect.Locator(status).ToHaveAttribute("data-status", "active"), "active")
	s.check(s.expect.Locator(d.testID("subscription-next").Locator("time")).ToHaveAttribute("datetime", due.String()), "its next due date")
	s.check(s.expect.Locator(d.testID("no-charges")).ToBeVisible(), "nothing issued yet")
	s.a11y(s.page, "subscription, created")

	s.open(a.url + "/dashboard/subscriptions")
	row := d.testID("subscription-row")
	s.check(s.expect.Locator(row).ToHaveCount(1), "the subscription listed")
	s.check(s.expect.Locator(row).ToHaveAttribute("data-amount", "18990"), "its amount")
	s.check(s.expect.Locator(row.Locator("time")).ToHaveAttribute("datetime", due.String()), "its next due date in the list")
	s.a11y(s.page, "subscriptions, one")
	s.check(row.GetByTestId("row-link").Click(), "open the subscription")
	s.check(s.expect.Page(s.page).ToHaveURL(page), "the subscription's page from the list")

	s.check(d.testID("pause").Click(), "pause")
	s.check(s.expect.Locator(status).ToHaveAttribute("data-status", "paused"), "paused")
	s.check(s.expect.Locator(d.testID("resume")).ToBeVisible(), "resume offered")
	s.a11y(s.page, "subscription, paused")
	s.check(d.testID("resume").Click(), "resume")
	s.check(s.expect.Locator(status).ToHaveAttribute("data-status", "active"), "active again")
	s.check(s.expect.Locator(d.testID("subscription-next").Locator("time")).ToHaveAttribute("datetime", due.String()),
		"the same next due date: no period passed while paused")

	// The issuing day: the retention sweep (every 10 minutes) issues what is due within the
	// lead days; the test runs the sweep's step rather than wait for it.
	ctx := context.Background()
	a.advanceTo(t, charges.AddDays(due, -subscriptions.DefaultLeadDays))
	if n, err := a.app.Subscriptions().Issue(ctx); n != 1 || err != nil {
		t.Fatalf("issued %d charges on the issuing day, %v; want 1", n, err)
	}
	s.open(page)
	charge := d.testID("charge-row")
	s.check(s.expect.Locator(charge).ToHaveCount(1), "its charge")
	s.check(s.expect.Locator(charge).ToHaveAttribute("data-due", due.String()), "due on the period's day")
	s.check(s.expect.Locator(charge).ToHaveAttribute("data-amount", "18990"), "of the subscription's amount")
	s.check(s.expect.Locator(d.testID("subscription-next").Locator("time")).ToHaveAttribute("datetime", sched.Due(1).String()),
		"the next period")
	s.a11y(s.page, "subscription, with its charge")
	s.check(charge.GetByTestId("row-link").Click(), "open the charge")
	s.check(s.expect.Page(s.page).ToHaveURL(regexp.MustCompile(`/dashboard/charges/[A-Za-z0-9_-]+$`)), "the charge's page")
	s.check(s.expect.Locator(d.testID("charge-url")).ToHaveValue(regexp.MustCompile("^"+regexp.QuoteMeta(a.url)+"/c/[A-Za-z0-9_-]+$")),
		"the customer's link")
	s.a11y(s.page, "subscription's charge")

	s.open(page)
	s.check(d.testID("cancel-confirm").Check(), "confirm the cancellation")
	s.check(d.testID("cancel").Click(), "cancel")
	s.check(s.expect.Locator(status).ToHaveAttribute("data-status", "canceled"), "canceled")
	s.check(s.expect.Locator(d.testID("subscription-next")).ToHaveCount(0), "no next due date")
	s.check(s.expect.Locator(d.testID("pause")).ToHaveCount(0), "no pause once canceled")
	s.a11y(s.page, "subscription, canceled")

	a.advanceTo(t, charges.AddDays(sched.Due(1), -subscriptions.DefaultLeadDays))
	if n, err := a.app.Subscriptions().Issue(ctx); n != 0 || err != nil {
		t.Fatalf("a canceled subscription issued %d charges, %v", n, err)
	}
	s.open(page)
	s.check(s.expect.Locator(d.testID("charge-row")).ToHaveCount(1), "still its one charge")
	s.open(a.url + "/dashboard/subscriptions?status=canceled")
	s.check(s.expect.Locator(row).ToHaveAttribute("data-status", "canceled"), "listed as canceled")
	s.check(s.expect.Locator(row.Locator("time")).ToHaveCount(0), "without a next due date")
	s.a11y(s.page, "subscriptions, canceled")
	s.shot("subscription-canceled")
}
