package app

import (
	"cmp"
	"context"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/web/alerts"
)

// setupAlerts builds the merchant's alerts on the e-mail side (setupMail made it): the users'
// preferences in the store, and the alerts' maker, which the service announces orders'
// changes to and whose scheduler runAlerts starts.
func (a *App) setupAlerts() {
	a.alertPrefs = team.NewAlerts(a.store, a.clock)
	a.alerts = alerts.New(alerts.Options{Prefs: a.alertPrefs, Composer: a.mail.composer, Outbox: a.mail.log,
		Reports: appReports{a}, Store: a.storeFrame, Divergences: a.divergences,
		Gateway: a.health.State, Clock: a.clock, Log: a.log.With("component", "alerts")})
}

// appReports reads the shop's figures through the service, made after the alerts (it
// announces to them).
type appReports struct{ a *App }

func (r appReports) DayMoney(ctx context.Context, day time.Time) (checkout.MoneyTotals, error) {
	return r.a.svc.DayMoney(ctx, day)
}

func (r appReports) MerchantOrders(ctx context.Context, f checkout.OrderFilter) (*checkout.OrderPage, error) {
	return r.a.svc.MerchantOrders(ctx, f)
}

// divergences counts a day's divergences with the gateway as the dashboard's reconciliation
// page does (made after the alerts, which the dashboard's exports tell).
func (a *App) divergences(ctx context.Context, day time.Time) (int, error) {
	return a.dash.Divergences(ctx, day)
}

// runAlerts starts the alerts' scheduler (the gateway's outages, the daily summary) in group
// until ctx ends; a negative AlertInterval leaves its passes to the caller.
func (a *App) runAlerts(ctx context.Context, group *sync.WaitGroup) {
	if a.cfg.AlertInterval < 0 {
		return
	}
	group.Go(func() { a.alerts.Run(ctx, cmp.Or(a.cfg.AlertInterval, DefaultAlertInterval)) })
}

// Alerts returns the merchant's alerts (their scheduler's Tick, for tests that run it).
func (a *App) Alerts() *alerts.Alerts { return a.alerts }
