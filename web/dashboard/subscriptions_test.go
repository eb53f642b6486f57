package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// newSubscription makes a monthly subscription of R$ 150,00 from today (paused when asked) and
// returns its id.
func (e *env) newSubscription(paused bool) string {
	e.t.Helper()
	ctx := context.Background()
	today := e.charges.Today()
	s, err := e.subscriptions.Create(ctx, "ana@loja.example", "", subscriptions.Input{
		Customer:    charges.Customer{Name: "Maria", Document: "529.982.247-25", Email: "maria@example.com", Phone: "(11) 98765-4321"},
		Description: "Mensalidade", Terms: charges.Terms{Amount: 15000},
		Schedule: subscriptions.Schedule{DayOfMonth: 28, Start: today}})
	if err != nil {
		e.t.Fatal(err)
	}
	if paused {
		if _, err := e.subscriptions.Pause(ctx, "ana@loja.example", "", s.ID); err != nil {
			e.t.Fatal(err)
		}
	}
	return s.ID
}

// subscriptionRows are the ids of the list's rows, in order.
func subscriptionRows(doc *goquery.Document) []string {
	var ids []string
	doc.Find(testid("subscription-row")).Each(func(_ int, s *goquery.Selection) { ids = append(ids, s.AttrOr("data-id", "")) })
	return ids
}

// TestSubscriptionsDashboard: an operator's bad form names each field; a good one makes a
// subscription whose page shows its schedule and, once issued, its charges; a new amount applies
// to the charges not issued yet; pause, resume and cancel (with its box); the list filters by
// status and search, and a viewer reads it without any form or action.
func TestSubscriptionsDashboard(t *testing.T) {
	clock := sandbox.NewManualClock(latestUTC("02:30")) // 23:30 in São Paulo
	e := newEnv(t, withClock(clock))
	b, csrf := e.signedIn(team.RoleOperator)
	today := e.charges.Today()
	form := url.Values{"csrf_token": {csrf}, "customer.name": {"Maria da Silva"}, "customer.document": {"111.111.111-11"},
		"customer.email": {"maria@example.com"}, "amount": {"150,00"}, "description": {"Mensalidade"},
		"dayOfMonth": {strconv.Itoa(charges.AddDays(today, 5).Day)}, "everyWeeks": {"2"}, "startDate": {today.String()}, "count": {"0"}}
	res, doc := b.post("/dashboard/subscriptions", form)
	var fields []string
	doc.Find(`[data-testid="subscription-form"] [data-testid="field-error"]`).Each(func(_ int, s *goquery.Selection) {
		fields = append(fields, s.AttrOr("data-field", ""))
	})
	if res.StatusCode != http.StatusUnprocessableEntity || !slices.Equal(fields, []string{"count"}) {
		t.Fatalf("bad form: %d, errors of %v", res.StatusCode, fields)
	}
	form.Set("count", "12")
	res, doc = b.post("/dashboard/subscriptions", form)
	fields = nil
	doc.Find(`[data-testid="subscription-form"] [data-testid="field-error"]`).Each(func(_ int, s *goquery.Selection) {
		fields = append(fields, s.AttrOr("data-field", ""))
	})
	if res.StatusCode != http.StatusUnprocessableEntity || !slices.Equal(fields, []string{"customer.document", "dayOfMonth", "everyWeeks"}) {
		t.Fatalf("bad form: %d, errors of %v", res.StatusCode, fields)
	}
	form.Set("customer.document", "529.982.247-25")
	form.Del("everyWeeks")
	res, _ = b.post("/dashboard/subscriptions", form)
	loc := e.location(res)
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/dashboard/subscriptions/") {
		t.Fatalf("created: %d → %q", res.StatusCode, loc)
	}
	page := strings.TrimSuffix(loc, "?done=created")
	id := strings.TrimPrefix(page, "/dashboard/subscriptions/")
	_, doc = b.get(loc)
	due := doc.Find(testid("subscription-next")+" time").AttrOr("datetime", "")
	if doc.Find(testid("notice")).Length() != 1 || due == "" || doc.Find(testid("no-charges")).Length() != 1 ||
		doc.Find(testid("subscription-document")).Text() != "***.982.247-**" {
		t.Fatalf("the new subscription's page: %q %s", due, doc.Find("main").Text())
	}

	// Due within ten days: issued at once, then a new amount for the next ones.
	if n, err := e.subscriptions.Issue(context.Background()); n != 1 || err != nil {
		t.Fatalf("issued %d, %v", n, err)
	}
	if res, doc := b.post(page+"/amount", url.Values{"csrf_token": {csrf}, "amount": {"0"}}); res.StatusCode != http.StatusUnprocessableEntity ||
		doc.Find("#sub-amount").AttrOr("aria-invalid", "") != "true" {
		t.Fatalf("a zero amount: %d", res.StatusCode)
	}
	if res, _ := b.post(page+"/amount", url.Values{"csrf_token": {csrf}, "amount": {"200,00"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("a new amount: %d", res.StatusCode)
	}
	_, doc = b.get(page)
	if doc.Find(testid("charge-row")).Length() != 1 || doc.Find(testid("charge-row")).AttrOr("data-amount", "") != "15000" ||
		doc.Find(testid("subscription-amount")).AttrOr("data-cents", "") != "20000" {
		t.Fatalf("after the new amount: %s", doc.Find("main").Text())
	}

	for _, step := range []struct {
		path   string
		form   url.Values
		status int
		state  string
	}{
		{"/resume", url.Values{}, http.StatusConflict, "active"},
		{"/pause", url.Values{}, http.StatusSeeOther, "paused"},
		{"/resume", url.Values{}, http.StatusSeeOther, "active"},
		{"/cancel", url.Values{}, http.StatusUnprocessableEntity, "active"},
		{"/cancel", url.Values{"confirm": {"yes"}}, http.StatusSeeOther, "canceled"},
	} {
		step.form.Set("csrf_token", csrf)
		res, _ := b.post(page+step.path, step.form)
		s, err := e.subscriptions.Subscription(context.Background(), id)
		if res.StatusCode != step.status || err != nil || string(s.Status) != step.state {
			t.Fatalf("%s: %d, %s %v", step.path, res.StatusCode, s.Status, err)
		}
	}
	clock.Advance(time.Second) // the list is newest first
	other := e.newSubscription(true)

	viewer, _ := e.signedIn(team.RoleViewer)
	_, doc = viewer.get("/dashboard/subscriptions")
	if got := subscriptionRows(doc); !slices.Equal(got, []string{other, id}) || doc.Find(testid("subscription-form")).Length() != 0 ||
		doc.Find(`a[href="/dashboard/subscriptions"]`).Length() == 0 {
		t.Fatalf("the viewer's list %v, or a form, or no navigation entry", got)
	}
	for query, want := range map[string][]string{"?status=paused": {other}, "?status=canceled": {id}, "?q=silva": {id}} {
		if _, doc := viewer.get("/dashboard/subscriptions" + query); !slices.Equal(subscriptionRows(doc), want) {
			t.Errorf("%s: %v, want %v", query, subscriptionRows(doc), want)
		}
	}
	if _, doc := viewer.get("/dashboard/subscriptions/" + other); doc.Find(testid("pause-form")+","+testid("resume-form")+","+testid("cancel-form")).Length() != 0 {
		t.Fatal("a viewer is offered an action")
	}
}

// TestSubscriptionLeadSetting: the settings show ten days until the owner sets another number
// of days before the due date to issue a subscription's charge; a number outside 1 to 60 is
// named beside its field and stores nothing.
func TestSubscriptionLeadSetting(t *testing.T) {
	e := newEnv(t)
	b, csrf := e.signedIn(team.RoleOwner)
	_, doc := b.get("/dashboard/settings")
	if got := doc.Find("#s-subscription_lead_days").AttrOr("value", ""); got != "10" {
		t.Fatalf("the default lead %q", got)
	}
	res, doc := b.post("/dashboard/settings/subscriptions", url.Values{"csrf_token": {csrf}, "subscription_lead_days": {"61"}})
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find("#s-subscription_lead_days").AttrOr("aria-invalid", "") != "true" {
		t.Fatalf("61 days: %d", res.StatusCode)
	}
	if res, _ := b.post("/dashboard/settings/subscriptions", url.Values{"csrf_token": {csrf}, "subscription_lead_days": {"3"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("3 days: %d", res.StatusCode)
	}
	if _, doc := b.get("/dashboard/settings"); doc.Find("#s-subscription_lead_days").AttrOr("value", "") != "3" {
		t.Fatal("3 days not kept")
	}
}
