package dashboard

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The day's closing ("fechamento de caixa", /dashboard/pos/closing, team.PermPOS): what each
// terminal and cashier sold in one São Paulo day, its totals summed by the store
// (pos.Manager.Closing). Owners and operators see every terminal and cashier, a cashier its
// own sales only. Printable on an 80 mm roll or A4 (?paper=), exportable as the lists are.

const closingPath = posPath + "/closing"

// Parameters of the closing: the São Paulo day (YYYY-MM-DD; absent: today, by the clock),
// a terminal's id and a cashier's (absent: every one), and the printed page's size
// (views.Papers).
const (
	paramDay      = "day"
	paramTerminal = "terminal"
	paramCashier  = "cashier"
	paramPaper    = "paper"
)

// closingAsk is a closing's query, read: what the store is asked, and the violations.
type closingAsk struct {
	q                 url.Values
	day               time.Time // the day's first instant, São Paulo
	terminal, cashier string
	paper             string
	errs              []string
}

// closingQuery reads the closing's query for the signed-in user: a cashier's is always its
// own sales. Unknown values are violations, and the closing is then today's of everyone the
// user may see.
func (d *Dashboard) closingQuery(r *http.Request, terminals []pos.Terminal, users []team.User) closingAsk {
	lang := respond.Lang(r)
	a := closingAsk{q: r.URL.Query(), day: d.pos.Today(), paper: views.Papers()[0]}
	if s := a.q.Get(paramDay); s != "" {
		if t, err := time.ParseInLocation(time.DateOnly, s, views.SaoPaulo()); err == nil {
			a.day = t
		} else {
			a.errs = append(a.errs, views.T(lang, "closing.err.day"))
		}
	}
	if s := a.q.Get(paramTerminal); s != "" {
		if slices.ContainsFunc(terminals, func(t pos.Terminal) bool { return t.ID == s }) {
			a.terminal = s
		} else {
			a.errs = append(a.errs, views.T(lang, "closing.err.terminal"))
		}
	}
	if s := a.q.Get(paramCashier); s != "" {
		if slices.ContainsFunc(users, func(u team.User) bool { return u.ID == s }) {
			a.cashier = s
		} else {
			a.errs = append(a.errs, views.T(lang, "closing.err.cashier"))
		}
	}
	if s := a.q.Get(paramPaper); s != "" {
		if slices.Contains(views.Papers(), s) {
			a.paper = s
		} else {
			a.errs = append(a.errs, views.T(lang, "closing.err.paper"))
		}
	}
	if u := userOf(r); u.Role == team.RoleCashier {
		a.cashier = u.ID
	}
	return a
}

// closingData reads what a closing page and its export need: the terminals, the users, the
// query and the closing it asks.
func (d *Dashboard) closingData(r *http.Request) (closingAsk, []pos.Terminal, []team.User, *pos.Closing, error) {
	ctx := r.Context()
	ts, err := d.pos.Terminals(ctx)
	if err != nil {
		return closingAsk{}, nil, nil, nil, err
	}
	users, err := d.accounts.Users(ctx)
	if err != nil {
		return closingAsk{}, nil, nil, nil, err
	}
	a := d.closingQuery(r, ts, users)
	c, err := d.pos.Closing(ctx, a.day, a.terminal, a.cashier)
	if err != nil {
		return a, ts, users, nil, err
	}
	// By the names people read, not by the ids the store groups by.
	slices.SortStableFunc(c.Groups, func(x, y pos.ClosingGroup) int {
		return cmp.Or(cmp.Compare(terminalName(ts, x.TerminalID), terminalName(ts, y.TerminalID)),
			cmp.Compare(userEmail(users, x.CashierID), userEmail(users, y.CashierID)))
	})
	return a, ts, users, c, nil
}

// closingPage is GET /dashboard/pos/closing.
func (d *Dashboard) closingPage(w http.ResponseWriter, r *http.Request) {
	a, ts, users, c, err := d.closingData(r)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	lang := respond.Lang(r)
	u := userOf(r)
	v := views.ClosingView{DashPage: d.page(r, "pos"), Action: respond.Link(r, closingPath),
		Day: a.day.In(views.SaoPaulo()).Format(time.DateOnly), Paper: a.paper, Errors: a.errs,
		Own: u.Role == team.RoleCashier, PrintedAt: d.svc.Now(), Total: closingTotals(c.ClosingTotals)}
	every := views.Option{Label: views.T(lang, "closing.every")}
	v.Terminals = append(v.Terminals, every)
	for _, t := range ts {
		v.Terminals = append(v.Terminals, views.Option{Value: t.ID, Label: t.Name, Checked: t.ID == a.terminal})
	}
	if !v.Own {
		v.Cashiers = append(v.Cashiers, every)
		for _, x := range users {
			if x.Role.Can(team.PermPOS) {
				v.Cashiers = append(v.Cashiers, views.Option{Value: x.ID, Label: x.Email, Checked: x.ID == a.cashier})
			}
		}
	}
	for _, p := range views.Papers() {
		pq := cloneValues(a.q)
		pq.Set(paramPaper, p)
		v.PaperLinks = append(v.PaperLinks, views.PresetLink{Key: p, URL: respond.Link(r, withQuery(closingPath, pq)), Current: p == a.paper})
	}
	for _, g := range c.Groups {
		v.Groups = append(v.Groups, d.closingGroup(r, g, ts, users))
	}
	if can(r, team.PermExport) {
		eq := cloneValues(a.q)
		eq.Del(paramPaper)
		v.CSVURL = exportURL(closingPath+".csv", eq)
		v.Exports = d.myExports(r)
	}
	status := http.StatusOK
	if len(a.errs) > 0 {
		status = http.StatusUnprocessableEntity
	}
	d.site.Render(w, r, status, views.ClosingPage(v))
}

// closingTotals are a closing's figures as its page shows them.
func closingTotals(t pos.ClosingTotals) views.ClosingTotals {
	return views.ClosingTotals{Count: t.Count, Paid: t.Paid, Canceled: t.Canceled, Expired: t.Expired, First: t.First, Last: t.Last}
}

// closingGroup is a terminal and cashier's closing as the page shows it, named; each sale
// links to its order (or, for a user who may not read orders, to its sale's page).
func (d *Dashboard) closingGroup(r *http.Request, g pos.ClosingGroup, ts []pos.Terminal, users []team.User) views.ClosingGroup {
	lang := respond.Lang(r)
	out := views.ClosingGroup{Terminal: terminalName(ts, g.TerminalID), Cashier: userEmail(users, g.CashierID),
		ClosingTotals: closingTotals(g.ClosingTotals)}
	orders := can(r, team.PermOrdersRead)
	for _, o := range g.Sales {
		link := salePath(o.ID)
		if orders {
			link = Path + "/orders/" + url.PathEscape(o.ID)
		}
		out.Sales = append(out.Sales, views.OrderRow{ID: o.ID, Number: o.Number, URL: respond.Link(r, link),
			CreatedAt: o.CreatedAt, PaidAt: o.PaidAt, Amount: o.Amount, Status: string(o.Status),
			StatusText: views.StatusText(lang, o.Status), LatePayment: o.LatePayment, RefundDue: o.RefundDue})
	}
	return out
}

// terminalName is the name of terminal id (its id when it is not one of ts).
func terminalName(ts []pos.Terminal, id string) string {
	for _, t := range ts {
		if t.ID == id {
			return t.Name
		}
	}
	return id
}

// userEmail is the e-mail of user id (its id once the user was removed).
func userEmail(users []team.User, id string) string {
	for _, u := range users {
		if u.ID == id {
			return u.Email
		}
	}
	return id
}

// closingCols are the columns of the closing's export: a row per sale.
var closingCols = []sheetCol{
	{key: "terminal", kind: colText, width: 18}, {key: "cashier", kind: colText, width: 28},
	{key: "number", kind: colCode, width: 14}, {key: "id", kind: colCode}, {key: "createdAt", kind: colTime},
	{key: "paidAt", kind: colTime}, {key: "status", kind: colEnum, enum: "status."},
	{key: "amountCents", kind: colCents}, {key: "amountBRL", kind: colReais},
}

// closingExport is GET /dashboard/pos/closing.csv and .xlsx: the closing's sales, a row each,
// through the exporter of every list.
func (d *Dashboard) closingExport(w http.ResponseWriter, r *http.Request) {
	a, ts, users, c, err := d.closingData(r)
	switch {
	case err != nil:
		d.site.Fail(w, r, err)
		return
	case len(a.errs) > 0:
		d.closingPage(w, r) // the page with its errors
		return
	}
	format, err := d.exportFormatOf(r, a.q)
	if err != nil {
		d.badExport(w, r, "closing", err)
		return
	}
	src := &closingRows{groups: c.Groups, ts: ts, users: users}
	d.deliverExport(w, r, exportAsked{name: "closing", format: format, query: r.URL.RawQuery}, src, c.Count)
}

// closingRows are the rows of a closing's export.
type closingRows struct {
	groups []pos.ClosingGroup
	ts     []pos.Terminal
	users  []team.User
}

func (c *closingRows) writeRows(_ context.Context, out sheetWriter, page func(rows int) error) (int, error) {
	if err := out.header(closingCols); err != nil {
		return 0, err
	}
	rows := 0
	for _, g := range c.groups {
		terminal, cashier := terminalName(c.ts, g.TerminalID), userEmail(c.users, g.CashierID)
		for _, s := range g.Sales {
			if err := out.row(closingCols, sheetRow{terminal, cashier, s.Number, s.ID, s.CreatedAt, s.PaidAt,
				string(s.Status), s.Amount, s.Amount}); err != nil {
				return rows, err
			}
			rows++
		}
	}
	if err := out.flush(); err != nil {
		return rows, err
	}
	return rows, page(rows)
}
