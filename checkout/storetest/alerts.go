package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// testAlerts: the alert preferences on the store. A user who never chose gets the defaults of
// their role (owners every alert, the summary for paid orders; the others their exports only);
// a choice is kept per user and replaced by the next; the recipients of an alert are those who
// want it and whose role may open its page (merchant's tests hold a role without it); a removed
// user's choice goes with them.
func testAlerts(t *testing.T, s AccountStores) {
	ctx := context.Background()
	now := base
	al := team.NewAlerts(s, func() time.Time { return now })
	ana, bia := user("u1", "ana@loja.example"), user("u2", "bia@loja.example")
	bia.Role = team.RoleViewer
	for _, u := range []team.User{ana, bia} {
		must(t, s.CreateUser(ctx, u))
	}
	_, err := s.AlertPrefs(ctx, ana.ID)
	sameErr(t, "preferences never chosen", err, checkout.ErrNotFound)
	p, err := al.Prefs(ctx, &ana)
	must(t, err)
	same(t, "an owner's defaults", p, team.AlertPrefs{UserID: "u1", Paid: team.PaidDaily, RefundDue: true, Gateway: true, Export: true, Lang: "pt-BR"})
	p, err = al.Prefs(ctx, &bia)
	must(t, err)
	same(t, "a viewer's defaults", p, team.AlertPrefs{UserID: "u2", Paid: team.PaidOff, Export: true, Lang: "pt-BR"})

	recipients := func(k team.AlertKind) []string {
		t.Helper()
		list, err := al.Recipients(ctx, k)
		must(t, err)
		var out []string
		for _, r := range list {
			out = append(out, r.User.Email+":"+r.Prefs.Lang)
		}
		return out
	}
	same(t, "the summary's recipients by default", recipients(team.AlertSummary), []string{"ana@loja.example:pt-BR"})
	same(t, "each paid order's by default", recipients(team.AlertPaid), nil)

	must(t, al.SavePrefs(ctx, &bia, team.AlertPrefs{Paid: team.PaidEach, Gateway: true, Lang: "en"}))
	now = now.Add(time.Hour)
	must(t, al.SavePrefs(ctx, &ana, team.AlertPrefs{Paid: team.PaidEach, RefundDue: true, Lang: "xx"}))
	got, err := s.AlertPrefs(ctx, bia.ID)
	must(t, err)
	same(t, "bia's choice", *got, team.AlertPrefs{UserID: "u2", Paid: team.PaidEach, Gateway: true, Lang: "en", UpdatedAt: base})
	got, err = s.AlertPrefs(ctx, ana.ID)
	must(t, err)
	same(t, "ana's choice (an unknown language is pt-BR)", *got, team.AlertPrefs{UserID: "u1", Paid: team.PaidEach, RefundDue: true,
		Lang: "pt-BR", UpdatedAt: base.Add(time.Hour)})
	same(t, "each paid order's recipients", recipients(team.AlertPaid), []string{"ana@loja.example:pt-BR", "bia@loja.example:en"})
	same(t, "the gateway's", recipients(team.AlertGateway), []string{"bia@loja.example:en"})
	same(t, "the exports' (ana turned hers off)", recipients(team.AlertExport), nil)
	sameCode(t, "a paid mode of no kind", al.SavePrefs(ctx, &ana, team.AlertPrefs{Paid: "sometimes"}), checkout.CodeInvalid)
	sameErr(t, "a user that does not exist", s.SaveAlertPrefs(ctx, team.AlertPrefs{UserID: "nope", Paid: team.PaidOff, Lang: "en"}),
		checkout.ErrNotFound)

	must(t, s.DeleteUser(ctx, bia.ID))
	same(t, "each paid order's recipients, bia removed", recipients(team.AlertPaid), []string{"ana@loja.example:pt-BR"})
	_, err = s.AlertPrefs(ctx, bia.ID)
	sameErr(t, "a removed user's choice", err, checkout.ErrNotFound)
}

// testGatewayOutages: one outage is open at a time, shared by every instance: opening it
// again (another instance, or after a restart) returns the first start, also when several
// open it at once; closing returns that start once; the next outage is a new one.
func testGatewayOutages(t *testing.T, s AccountStores) {
	ctx := context.Background()
	al := team.NewAlerts(s, nil)
	_, ok, err := al.CloseOutage(ctx, base)
	must(t, err)
	same(t, "closing with none open", ok, false)
	starts := make([]time.Time, 8)
	var wg sync.WaitGroup
	for i := range starts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			starts[i], err = al.OpenOutage(ctx, base.Add(time.Duration(i)*time.Second))
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, st := range starts[1:] {
		same(t, "the outage every instance sees", st, starts[0])
	}
	again, err := al.OpenOutage(ctx, base.Add(time.Hour))
	must(t, err)
	same(t, "the outage after a restart", again, starts[0])
	start, ok, err := al.CloseOutage(ctx, base.Add(2*time.Hour))
	must(t, err)
	same(t, "the closed outage", start, starts[0])
	same(t, "closed", ok, true)
	_, ok, err = al.CloseOutage(ctx, base.Add(2*time.Hour))
	must(t, err)
	same(t, "closing it twice", ok, false)
	next, err := al.OpenOutage(ctx, base.Add(3*time.Hour))
	must(t, err)
	same(t, "the next outage", next, base.Add(3*time.Hour))
}
