package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// alertsChosen reads the account page's choice of alerts: the paid orders' mode, the
// checkboxes ticked, and the language.
func alertsChosen(t *testing.T, b *browser) (paid string, on map[string]bool, lang string) {
	t.Helper()
	_, doc := b.get("/dashboard/account")
	if doc.Find(testid("alerts-form")).Length() != 1 {
		t.Fatal("no alerts form on the account page")
	}
	for _, m := range []string{"off", "each", "daily"} {
		if _, ok := doc.Find(testid("alerts-paid-" + m)).Attr("checked"); ok {
			paid = m
		}
	}
	on = map[string]bool{}
	for _, k := range []string{"refund_due", "gateway", "export"} {
		box := doc.Find(testid("alerts-" + k))
		if box.Closest("label").Text() == "" {
			t.Errorf("alert %s has no label", k)
		}
		_, on[k] = box.Attr("checked")
	}
	lang, _ = doc.Find(testid("alerts-lang") + " option[selected]").Attr("value")
	return paid, on, lang
}

// TestAccountAlerts: "Minha conta" shows each user's alerts, an owner's defaults on (paid
// orders as the daily summary) and a viewer's off but their exports; each user's choice is
// saved for them alone, language included; a paid mode of no kind is refused, nothing saved.
func TestAccountAlerts(t *testing.T) {
	e, owner := signedIn(t)
	if _, err := e.dash.accounts.AddUser(context.Background(), "leitora@loja.example", dashPassword, team.RoleViewer); err != nil {
		t.Fatal(err)
	}
	viewer := e.browser()
	viewer.loginAs("leitora@loja.example", dashPassword)

	paid, on, lang := alertsChosen(t, owner)
	if paid != "daily" || !on["refund_due"] || !on["gateway"] || !on["export"] || lang != "pt-BR" {
		t.Errorf("an owner's defaults: paid %q, %v, %q", paid, on, lang)
	}
	paid, on, _ = alertsChosen(t, viewer)
	if paid != "off" || on["refund_due"] || on["gateway"] || !on["export"] {
		t.Errorf("a viewer's defaults: paid %q, %v", paid, on)
	}

	res := viewer.do(http.MethodPost, "/dashboard/account/alerts", url.Values{"csrf_token": {viewer.csrf()},
		"paid": {"each"}, "alert": {"gateway"}, "lang": {"en"}})
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving: %d", res.StatusCode)
	}
	_, doc := viewer.get("/dashboard/account?done=alerts")
	if got := doc.Find(testid("notice")).Text(); got != "Alertas salvos." {
		t.Errorf("notice %q", got)
	}
	paid, on, lang = alertsChosen(t, viewer)
	if paid != "each" || on["refund_due"] || !on["gateway"] || on["export"] || lang != "en" {
		t.Errorf("the viewer's choice: paid %q, %v, %q", paid, on, lang)
	}
	if paid, on, lang = alertsChosen(t, owner); paid != "daily" || !on["export"] || lang != "pt-BR" {
		t.Errorf("the owner's alerts changed with the viewer's: paid %q, %v, %q", paid, on, lang)
	}

	res = owner.do(http.MethodPost, "/dashboard/account/alerts", url.Values{"csrf_token": {owner.csrf()}, "paid": {"sometimes"}})
	res.Body.Close()
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("a paid mode of no kind: %d", res.StatusCode)
	}
	if paid, _, _ = alertsChosen(t, owner); paid != "daily" {
		t.Errorf("after a refused choice, paid %q", paid)
	}
}
