package dashboard_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/settings"
)

// TestDashboardShopperMail: the e-mails to the shopper are on by default but "order placed";
// the settings page turns each off or on, and the change is kept.
func TestDashboardShopperMail(t *testing.T) {
	_, b := signedIn(t)
	_, doc := b.get("/dashboard/settings")
	for _, k := range settings.ShopperMessages() {
		box := doc.Find(`[data-testid="shopper-mail-` + k + `"]`)
		if _, on := box.Attr("checked"); box.Length() != 1 || on != (k != settings.ShopperOrderPlaced) {
			t.Errorf("%s: %d checkboxes, checked %v", k, box.Length(), on)
		}
		if box.Closest("label").Text() == "" {
			t.Errorf("%s: no label", k)
		}
	}
	res := b.do(http.MethodPost, "/dashboard/settings/shopper-mail", url.Values{"csrf_token": {b.csrf()},
		"message": {settings.ShopperOrderPlaced, settings.ShopperPaid}})
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving: %d", res.StatusCode)
	}
	_, doc = b.get("/dashboard/settings?done=shopper_mail")
	if doc.Find(`[data-testid="notice"]`).Text() != "E-mails ao comprador salvos." {
		t.Errorf("notice %q", doc.Find(`[data-testid="notice"]`).Text())
	}
	for _, k := range settings.ShopperMessages() {
		_, on := doc.Find(`[data-testid="shopper-mail-` + k + `"]`).Attr("checked")
		if want := k == settings.ShopperOrderPlaced || k == settings.ShopperPaid; on != want {
			t.Errorf("after saving, %s checked %v", k, on)
		}
	}
}
