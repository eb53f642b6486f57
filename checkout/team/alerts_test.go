package team_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// TestAlertsFollowPermissions: an alert goes to a user who wants it and whose role may open
// its page now; a role without that permission (an unknown one has none) receives nothing,
// whatever it chose. Owners want every alert by default, the others their exports only.
func TestAlertsFollowPermissions(t *testing.T) {
	all := team.AlertPrefs{Paid: team.PaidEach, RefundDue: true, Gateway: true, Export: true}
	kinds := []team.AlertKind{team.AlertPaid, team.AlertRefundDue, team.AlertGateway, team.AlertExport}
	for _, r := range team.Roles {
		for _, k := range kinds {
			if got, want := all.Receives(r, k), r.Can(team.AlertPermission(k)); got != want {
				t.Errorf("%s receives %s: %v, want %v", r, k, got, want)
			}
		}
	}
	for _, k := range append(kinds, team.AlertSummary) {
		if all.Receives("former", k) {
			t.Errorf("a role without permissions receives %s", k)
		}
	}
	if all.Wants(team.AlertSummary) {
		t.Error("each paid order and the summary at once")
	}
	owner := team.DefaultAlertPrefs(&team.User{Role: team.RoleOwner})
	viewer := team.DefaultAlertPrefs(&team.User{Role: team.RoleViewer})
	for _, c := range []struct {
		p    team.AlertPrefs
		k    team.AlertKind
		want bool
	}{{owner, team.AlertSummary, true}, {owner, team.AlertPaid, false}, {owner, team.AlertRefundDue, true},
		{owner, team.AlertGateway, true}, {owner, team.AlertExport, true}, {viewer, team.AlertSummary, false},
		{viewer, team.AlertRefundDue, false}, {viewer, team.AlertGateway, false}, {viewer, team.AlertExport, true}} {
		if got := c.p.Wants(c.k); got != c.want {
			t.Errorf("%+v wants %s: %v", c.p, c.k, got)
		}
	}
}
