// Package alerts makes the merchant's alerts: e-mails to the dashboard's users about the shop
// (a paid order, a refund due, the gateway failing for more than five minutes and back, a
// background export ready, the daily summary at 08:00 Brasília), each to the users who chose
// it in their account and whose role may open the dashboard's page behind it, in each user's
// language. It renders views/email's components, so it sits with the presentation packages.
//
// Every alert goes through the outbox with a Message-ID derived from its cause (the order's
// history entry, the export, the outage's start, the São Paulo day of the summary): an alert
// of a change is written in the change's transaction (Announce, ExportReady), and one of the
// scheduler (Tick) is composed again harmlessly after a restart or on a second instance,
// since composing the same cause again stores nothing.
package alerts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/health"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

// The types of the alerts' e-mails.
const (
	TypePaid      = "alert.paid"
	TypeRefundDue = "alert.refund_due"
	TypeGateway   = "alert.gateway_failing"
	TypeGatewayUp = "alert.gateway_recovered"
	TypeExport    = "alert.export_ready"
	TypeSummary   = "alert.summary"
	summaryOrders = 20 // the paid orders a summary lists (the link lists them all)
	summaryHour   = 8  // the summary's hour, São Paulo time
)

// OutageAlertAfter is how long the gateway fails before its users are alerted: shorter
// outages (a deploy of the gateway, a blip) end before anyone could act.
const OutageAlertAfter = 5 * time.Minute

// Reports reads the shop's figures (checkout.Service does): a day's money as the overview
// counts it, and the orders behind it.
type Reports interface {
	DayMoney(ctx context.Context, day time.Time) (checkout.MoneyTotals, error)
	MerchantOrders(ctx context.Context, f checkout.OrderFilter) (*checkout.OrderPage, error)
}

// Divergences counts the divergences of a São Paulo day between the gateway's deposits and
// the shop's orders, as the reconciliation page shows them (dashboard.Dashboard.Divergences).
type Divergences func(ctx context.Context, day time.Time) (int, error)

// Outbox stores the messages of no other change (the scheduler's) and wakes the sending
// (mail.Log does).
type Outbox interface {
	Enqueue(ctx context.Context, msgs ...checkout.OutboxMessage) error
	Wake()
}

// Options are an Alerts' dependencies.
type Options struct {
	Prefs    *team.Alerts
	Composer *mail.Composer
	Outbox   Outbox
	Reports  Reports
	// Divergences, when set, gives the daily summary the day's reconciliation with the gateway:
	// its count of divergences and a link to its page, for the recipients who may open it.
	Divergences Divergences
	// StoreName and SupportEmail frame every e-mail (its name, its Reply-To) when Store is nil.
	StoreName, SupportEmail string
	// Store, when set, gives the store's name and support e-mail as the merchant last saved
	// them (the dashboard's "Loja" settings), read at each alert so that a renamed store's
	// team hears of it in its new name. Only StoreName and SupportEmail of its answer are used.
	Store func(ctx context.Context) (email.Frame, error)
	// Gateway tells the gateway's state as this instance knows it (health.Monitor.State).
	Gateway func() health.State
	// Clock is the shop's time (the injected clock): the summary's day and hour, an outage's
	// length.
	Clock func() time.Time
	Log   *slog.Logger
}

// Alerts makes the merchant's alerts. It is the checkout.Announcer of paid orders and refunds
// due, makes an export's alert, and its Tick is the scheduler of the gateway's and the
// summary's.
type Alerts struct {
	o Options

	// The scheduler's state, touched only by Tick (one goroutine). failingSince is when this
	// instance first saw the gateway failing (zero: working); alerted, that the outage's alert
	// is stored; outageOpen, that an outage may be open in the store (at start: one may be
	// left by a stopped instance); summarized, the São Paulo day whose summary is stored.
	failingSince time.Time
	alerted      bool
	outageOpen   bool
	summarized   string
}

// New returns the alerts of o.
func New(o Options) *Alerts {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return &Alerts{o: o, outageOpen: true}
}

var _ checkout.Announcer = (*Alerts)(nil)

// frame is the frame of an e-mail in lang, for its links: the store's name is store's.
func (a *Alerts) frame(lang string) email.Frame {
	return email.Frame{Lang: views.Lang(lang), StoreName: a.o.StoreName, PublicURL: a.o.Composer.PublicURL, SupportEmail: a.o.SupportEmail}
}

// store is the frame of the alerts composed now: the store's name, support e-mail and logo in force.
func (a *Alerts) store(ctx context.Context) (email.Frame, error) {
	f := a.frame("")
	if a.o.Store == nil {
		return f, nil
	}
	saved, err := a.o.Store(ctx)
	if err != nil {
		// An alert in a name the merchant replaced is worse than a retried update or pass.
		return email.Frame{}, fmt.Errorf("alerts: reading the store's name: %w", err)
	}
	f.StoreName, f.SupportEmail, f.Logo = saved.StoreName, saved.SupportEmail, saved.Logo
	return f, nil
}

// alert is one alert to compose for each of its recipients.
type alert struct {
	kind    team.AlertKind
	typ     string
	cause   string
	orderID string // the order it is about: its e-mails are stored with the order's change
	at      time.Time
	subject func(email.Frame) string
	html    func(email.Frame) templ.Component
	text    func(email.Frame) string
}

// compose makes al's e-mail for each recipient, in their language.
func (a *Alerts) compose(ctx context.Context, al alert, to []team.UserAlerts) ([]checkout.OutboxMessage, error) {
	if len(to) == 0 {
		return nil, nil
	}
	store, err := a.store(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]checkout.OutboxMessage, 0, len(to))
	for _, r := range to {
		f := store
		f.Lang = views.Lang(r.Prefs.Lang)
		f.Subject = al.subject(f)
		draft := mail.Draft{Type: al.typ, Cause: al.cause, To: mail.Address{Email: r.User.Email},
			Lang: string(f.Lang), Subject: f.Subject, HTML: al.html(f), Text: al.text(f), OrderID: al.orderID, At: al.at}
		if al.orderID == "" {
			draft.UserID = r.User.ID
		}
		m, err := a.o.Composer.Compose(ctx, draft)
		if err != nil {
			return nil, fmt.Errorf("alerts: %w", err)
		}
		out = append(out, m)
	}
	return out, nil
}

// Announce returns the alerts of an order's changes: its first payment (to the users who
// want each paid order) and each payment to return (a second payment, one after a cancel,
// one beyond a payment link's maximum: to those who want refunds due). The recipients are
// read only when a change calls for an alert.
func (a *Alerts) Announce(ctx context.Context, o *checkout.Order, changes []checkout.StatusChange) ([]checkout.OutboxMessage, error) {
	var out []checkout.OutboxMessage
	first := len(o.History) - len(changes)
	for i, c := range changes {
		cause := o.ID + "." + strconv.Itoa(first+i)
		var al alert
		switch {
		case c.To == checkout.StatusPaid && c.From != checkout.StatusPaid && !paidBefore(o, first+i):
			m := email.PaidAlert{Number: o.Number, Amount: o.Amount, PaidAt: o.PaidAt, Link: a.frame("").URL("/dashboard/orders/" + o.ID)}
			al = alert{kind: team.AlertPaid, typ: TypePaid, cause: cause, orderID: o.ID, at: c.At,
				subject: func(f email.Frame) string { return email.PaidSubject(f, m) },
				html:    func(f email.Frame) templ.Component { return email.Paid(f, m) },
				text:    func(f email.Frame) string { return email.PaidText(f, m) }}
		case c.Reason.Code == checkout.ReasonPaidTwice || c.Reason.Code == checkout.ReasonPaidAfterCancel ||
			c.Reason.Code == checkout.ReasonLinkBeyondCap:
			m := email.RefundDueAlert{Number: o.Number, Amount: c.Reason.Paid, Reason: string(c.Reason.Code), At: c.At,
				Link: a.frame("").URL("/dashboard/refunds")}
			al = alert{kind: team.AlertRefundDue, typ: TypeRefundDue, cause: cause, orderID: o.ID, at: c.At,
				subject: func(f email.Frame) string { return email.RefundDueSubject(f, m) },
				html:    func(f email.Frame) templ.Component { return email.RefundDue(f, m) },
				text:    func(f email.Frame) string { return email.RefundDueText(f, m) }}
		default:
			continue
		}
		to, err := a.o.Prefs.Recipients(ctx, al.kind)
		if err != nil {
			// Without its recipients the alert would be lost: the update is retried later.
			return nil, fmt.Errorf("alerts: %w", err)
		}
		msgs, err := a.compose(ctx, al, to)
		if err != nil {
			return nil, err
		}
		out = append(out, msgs...)
	}
	return out, nil
}

// paidBefore reports whether an entry of o's history before i made it paid: paid again after
// a dispute is not a new sale.
func paidBefore(o *checkout.Order, i int) bool {
	for _, h := range o.History[:max(min(i, len(o.History)), 0)] {
		if h.To == checkout.StatusPaid && h.From != checkout.StatusPaid {
			return true
		}
	}
	return false
}

// Announced wakes the sending.
func (a *Alerts) Announced() { a.o.Outbox.Wake() }

// ExportReady returns the alert of a background export ready, to the user who asked for it
// if they want it and may still export; give it to exports.Manager.Finish, which writes it
// with the job's end.
func (a *Alerts) ExportReady(ctx context.Context, j *exports.Job, rows int) ([]checkout.OutboxMessage, error) {
	all, err := a.o.Prefs.Recipients(ctx, team.AlertExport)
	if err != nil {
		return nil, fmt.Errorf("alerts: %w", err)
	}
	var to []team.UserAlerts
	for _, r := range all {
		if r.User.ID == j.UserID {
			to = append(to, r)
		}
	}
	now := a.o.Clock()
	m := email.ExportAlert{Kind: j.Kind, Rows: rows, ExpiresAt: now.Add(exports.Retention), Link: a.frame("").URL("/dashboard/exports/" + j.ID)}
	return a.compose(ctx, alert{typ: TypeExport, cause: j.ID, at: now,
		subject: func(f email.Frame) string { return email.ExportSubject(f, m) },
		html:    func(f email.Frame) templ.Component { return email.Export(f, m) },
		text:    func(f email.Frame) string { return email.ExportText(f, m) }}, to)
}

// Run calls Tick every interval until ctx ends.
func (a *Alerts) Run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if err := a.Tick(ctx); err != nil && ctx.Err() == nil {
			a.o.Log.Warn("alerts: a pass failed; the next one tries again", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Tick is one pass of the scheduler: the gateway's outage or its end, and the daily summary
// once it is due. Not safe to call from two goroutines at once.
func (a *Alerts) Tick(ctx context.Context) error {
	return errors.Join(a.gatewayPass(ctx), a.summaryPass(ctx))
}

// enqueue stores the scheduler's messages (a copy already stored is not stored again).
func (a *Alerts) enqueue(ctx context.Context, msgs []checkout.OutboxMessage) error {
	if len(msgs) == 0 {
		return nil
	}
	if err := a.o.Outbox.Enqueue(ctx, msgs...); err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	return nil
}

// gatewayPass alerts of the gateway failing for more than OutageAlertAfter on the shop's
// clock, once per outage (the store's outage, shared by the instances, is its cause), and of
// its end once it works again, to the users who want the gateway's alerts.
func (a *Alerts) gatewayPass(ctx context.Context) error {
	if a.o.Gateway == nil {
		return nil
	}
	st, now := a.o.Gateway(), a.o.Clock()
	if !st.OK {
		if a.failingSince.IsZero() {
			a.failingSince = now
		}
		if a.alerted || now.Sub(a.failingSince) <= OutageAlertAfter {
			return nil
		}
		start, err := a.o.Prefs.OpenOutage(ctx, a.failingSince)
		if err != nil {
			return fmt.Errorf("alerts: %w", err)
		}
		a.outageOpen = true
		if err := a.gatewayAlert(ctx, email.GatewayAlert{Cause: string(st.Cause), Since: start}); err != nil {
			return err
		}
		a.alerted = true
		return nil
	}
	a.failingSince, a.alerted = time.Time{}, false
	if !a.outageOpen || st.Seen.IsZero() {
		return nil // no outage to end, or nothing known of the gateway yet
	}
	start, ok, err := a.o.Prefs.CloseOutage(ctx, now)
	if err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	a.outageOpen = false
	if !ok {
		return nil
	}
	return a.gatewayAlert(ctx, email.GatewayAlert{Since: start, Recovered: now})
}

// gatewayAlert stores m's e-mails; the outage's start is their cause.
func (a *Alerts) gatewayAlert(ctx context.Context, m email.GatewayAlert) error {
	typ := TypeGateway
	if !m.Recovered.IsZero() {
		typ = TypeGatewayUp
	}
	to, err := a.o.Prefs.Recipients(ctx, team.AlertGateway)
	if err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	m.Link = a.frame("").URL("/dashboard/deposits")
	msgs, err := a.compose(ctx, alert{typ: typ, cause: strconv.FormatInt(m.Since.UnixMilli(), 10), at: a.o.Clock(),
		subject: func(f email.Frame) string { return email.GatewaySubject(f, m) },
		html:    func(f email.Frame) templ.Component { return email.Gateway(f, m) },
		text:    func(f email.Frame) string { return email.GatewayText(f, m) }}, to)
	if err != nil {
		return err
	}
	return a.enqueue(ctx, msgs)
}

// saoPaulo is the zone of the summary's day and hour (a fixed UTC-3 where the zone database
// is missing: Brazil has had no daylight saving time since 2019).
var saoPaulo = func() *time.Location {
	if loc, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		return loc
	}
	return time.FixedZone("-03", -3*60*60)
}()

// summaryPass stores, from 08:00 São Paulo time, the summary of the São Paulo day before (when
// it had any money: received, refunded, held or fees, or a divergence with the gateway) to
// the users who want it: once per day in this process, and, since the day is its cause, once
// in all (a restart or another instance composes it again and stores nothing).
func (a *Alerts) summaryPass(ctx context.Context) error {
	now := a.o.Clock().In(saoPaulo)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, saoPaulo)
	if now.Before(today.Add(summaryHour*time.Hour)) || a.summarized == today.Format(time.DateOnly) {
		return nil
	}
	to, err := a.o.Prefs.Recipients(ctx, team.AlertSummary)
	if err != nil {
		return fmt.Errorf("alerts: %w", err)
	}
	day := today.AddDate(0, 0, -1)
	if len(to) > 0 {
		m, err := a.summary(ctx, day)
		if err != nil {
			return err
		}
		if m.Money == (checkout.MoneyTotals{}) && m.Divergences <= 0 {
			// A day without any money, paid or returned, and nothing to reconcile says nothing:
			// no e-mail.
			a.summarized = today.Format(time.DateOnly)
			return nil
		}
		// The reconciliation is told to those who may open it (gateway.read beside the
		// summary's orders.read).
		var recon, plain []team.UserAlerts
		for _, r := range to {
			if r.User.Role.Can(team.PermGatewayRead) {
				recon = append(recon, r)
			} else {
				plain = append(plain, r)
			}
		}
		without := m
		without.Reconciliation, without.Divergences = "", 0
		for _, g := range []struct {
			m  email.SummaryAlert
			to []team.UserAlerts
		}{{m, recon}, {without, plain}} {
			msgs, err := a.compose(ctx, alert{typ: TypeSummary, cause: day.Format(time.DateOnly), at: now,
				subject: func(f email.Frame) string { return email.SummarySubject(f, g.m) },
				html:    func(f email.Frame) templ.Component { return email.Summary(f, g.m) },
				text:    func(f email.Frame) string { return email.SummaryText(f, g.m) }}, g.to)
			if err != nil {
				return err
			}
			if err := a.enqueue(ctx, msgs); err != nil {
				return err
			}
		}
	}
	a.summarized = today.Format(time.DateOnly)
	return nil
}

// summary reads the day's money (the overview's daily totals), its first paid orders, and its
// divergences with the gateway.
func (a *Alerts) summary(ctx context.Context, day time.Time) (email.SummaryAlert, error) {
	money, err := a.o.Reports.DayMoney(ctx, day)
	if err != nil {
		return email.SummaryAlert{}, fmt.Errorf("alerts: %w", err)
	}
	page, err := a.o.Reports.MerchantOrders(ctx, checkout.OrderFilter{Money: checkout.MoneyReceived, MoneyFrom: day,
		MoneyBefore: day.AddDate(0, 0, 1), Limit: summaryOrders, Sort: checkout.SortCreatedAsc})
	if err != nil {
		return email.SummaryAlert{}, fmt.Errorf("alerts: the day's paid orders: %w", err)
	}
	f := a.frame("")
	date := day.Format(time.DateOnly)
	m := email.SummaryAlert{Day: day, Money: money, Overview: f.URL("/dashboard/"),
		OrdersAt: f.URL("/dashboard/orders?from=" + date + "&money=received&to=" + date)}
	for _, o := range page.Orders {
		m.Orders = append(m.Orders, email.PaidAlert{Number: o.Number, Amount: o.Amount, PaidAt: o.PaidAt, Link: f.URL("/dashboard/orders/" + o.ID)})
	}
	if a.o.Divergences != nil {
		m.Reconciliation = f.URL("/dashboard/reconciliation?from=" + date + "&to=" + date)
		if m.Divergences, err = a.o.Divergences(ctx, day); err != nil {
			if ctx.Err() != nil {
				// Stopping: the summary is composed at the next start, not said unchecked now.
				return email.SummaryAlert{}, fmt.Errorf("alerts: %w", ctx.Err())
			}
			// The gateway not answering at 08:00 does not hold back the day's money: the
			// summary says the reconciliation was not checked, and links to it.
			a.o.Log.Warn("alerts: the summary's reconciliation could not be read", "day", date, "err", err)
			m.Divergences = -1
		}
	}
	return m, nil
}
