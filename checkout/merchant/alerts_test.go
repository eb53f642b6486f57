package merchant_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

// TestAlertsFollowPermissions: an alert goes to a user who wants it and whose role may open
// its page now; a role without that permission (an unknown one has none) receives nothing,
// whatever it chose. Owners want every alert by default, the others their exports only.
func TestAlertsFollowPermissions(t *testing.T) {
	all := merchant.AlertPrefs{Paid: merchant.PaidEach, RefundDue: true, Gateway: true, Export: true}
	kinds := []merchant.AlertKind{merchant.AlertPaid, merchant.AlertRefundDue, merchant.AlertGateway, merchant.AlertExport}
	for _, r := range merchant.Roles {
		for _, k := range kinds {
			if got, want := all.Receives(r, k), r.Can(merchant.AlertPermission(k)); got != want {
				t.Errorf("%s receives %s: %v, want %v", r, k, got, want)
			}
		}
	}
	for _, k := range append(kinds, merchant.AlertSummary) {
		if all.Receives("former", k) {
			t.Errorf("a role without permissions receives %s", k)
		}
	}
	if all.Wants(merchant.AlertSummary) {
		t.Error("each paid order and the summary at once")
	}
	owner := merchant.DefaultAlertPrefs(&merchant.User{Role: merchant.RoleOwner})
	viewer := merchant.DefaultAlertPrefs(&merchant.User{Role: merchant.RoleViewer})
	for _, c := range []struct {
		p    merchant.AlertPrefs
		k    merchant.AlertKind
		want bool
	}{{owner, merchant.AlertSummary, true}, {owner, merchant.AlertPaid, false}, {owner, merchant.AlertRefundDue, true},
		{owner, merchant.AlertGateway, true}, {owner, merchant.AlertExport, true}, {viewer, merchant.AlertSummary, false},
		{viewer, merchant.AlertRefundDue, false}, {viewer, merchant.AlertGateway, false}, {viewer, merchant.AlertExport, true}} {
		if got := c.p.Wants(c.k); got != c.want {
			t.Errorf("%+v wants %s: %v", c.p, c.k, got)
		}
	}
}
