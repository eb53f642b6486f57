package sqlstore

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// The merchant's reading of the orders: the dashboard's filters, its list of order summaries,
// and the overview's figures.

// merchantConds are the conditions of the merchant's filters (amounts, the search box).
func (s *Store) merchantConds(f checkout.OrderFilter, p *Params) []string {
	var conds []string
	if f.MinAmount > 0 {
		conds = append(conds, "o.amount >= "+p.Add(int64(f.MinAmount)))
	}
	if f.MaxAmount > 0 {
		conds = append(conds, "o.amount <= "+p.Add(int64(f.MaxAmount)))
	}
	if term := strings.TrimSpace(f.Search); isEmail(term) {
		// A whole e-mail address is the customer's: found through the index on it, where a
		// text index would read the long lists of its common pieces ("@gmail.com").
		return append(conds, "lower(o.customer_email) = "+p.Add(strings.ToLower(term)))
	}
	if term := strings.TrimSpace(f.Search); checkout.IsOrderNumber(term) {
		// A whole order number is the order's: its unique index finds it, where a text index
		// would read the long list of "PX-", a piece of every number.
		return append(conds, "o.number = "+p.Add(strings.ToUpper(term)))
	}
	if term := strings.TrimSpace(f.Search); term != "" && s.d.Search != nil {
		if cond := s.d.Search(term, documentChars(term), p); cond != "" {
			return append(conds, cond)
		}
	}
	if term := strings.TrimSpace(f.Search); term != "" {
		like := p.Add("%" + escapeLike(strings.ToLower(term)) + "%")
		var or []string
		for _, col := range []string{"o.number", "o.external_code", "o.merchant_reference", "o.customer_email", "o.customer_name"} {
			or = append(or, "lower("+col+") LIKE "+like+` ESCAPE '\'`)
		}
		// Documents are stored as their digits (and a CNPJ's letters): "529.982.247-25" finds
		// 52998224725.
		if doc := documentChars(term); doc != "" {
			or = append(or, "upper(o.customer_document) LIKE "+p.Add("%"+doc+"%"))
		}
		conds = append(conds, "("+strings.Join(or, " OR ")+")")
	}
	return conds
}

// moneyConds are the conditions of f.Money: the orders behind one of the overview's figures,
// as money_days counts them (the migration's triggers), dated in [f.MoneyFrom, f.MoneyBefore).
func moneyConds(f checkout.OrderFilter, p *Params) []string {
	col := "o.paid_at"
	var conds []string
	switch f.Money {
	case "":
		return nil
	case checkout.MoneyReceived:
		conds = []string{"o.paid_at > 0"}
	case checkout.MoneyFees:
		conds = []string{"o.paid_at > 0", "o.fee >= 0"}
	case checkout.MoneyFeeUnknown:
		conds = []string{"o.paid_at > 0", "o.fee < 0"}
	case checkout.MoneyRefunded:
		col = "o.refunded_at"
		conds = []string{"o.paid_at > 0", "o.refunded_at > 0", "o.status IN ('refunding', 'refunded')"}
	case checkout.MoneyHeld:
		col = "o.held_at"
		conds = []string{"o.held_at > 0", "o.status = 'under_review'"}
	}
	if !f.MoneyFrom.IsZero() {
		conds = append(conds, col+" >= "+p.Add(ms(f.MoneyFrom)))
	}
	if !f.MoneyBefore.IsZero() {
		conds = append(conds, col+" < "+p.Add(ms(f.MoneyBefore)))
	}
	return conds
}

// isEmail reports whether s is a whole e-mail address (one @, a local part, a domain with a
// dot, no spaces), rather than a piece of one.
func isEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	return ok && local != "" && !strings.Contains(domain, "@") && strings.Contains(strings.Trim(domain, "."), ".") &&
		!strings.ContainsAny(s, " \t")
}

// escapeLike escapes LIKE's wildcards (and its escape character) in s.
func escapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// documentChars keeps the letters and digits of s, upper-case; "" when there is no digit (a
// name is no document).
func documentChars(s string) string {
	var b strings.Builder
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
			b.WriteRune(r)
		case r < unicode.MaxASCII && unicode.IsLetter(r):
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	if !digit {
		return ""
	}
	return b.String()
}

const summaryColumns = `o.id, o.number, o.external_code, o.merchant_reference, o.status, o.amount, o.customer_name,
	o.customer_email, o.customer_document, o.physical, o.late_payment, o.refund_due, o.created_at, o.paid_at, o.link_id, o.shipped_at, o.delivered_at,
	o.channel, o.charge_id, o.terminal_id, o.cashier_id`

// scanSummary reads a row of summaryColumns.
func scanSummary(r Rows) (checkout.OrderSummary, error) {
	var o checkout.OrderSummary
	var status, channel string
	var amount, refund, created, paid, shipped, delivered int64
	if err := r.Scan(&o.ID, &o.Number, &o.ExternalCode, &o.MerchantReference, &status, &amount, &o.CustomerName,
		&o.CustomerEmail, &o.CustomerDocument, &o.Physical, &o.LatePayment, &refund, &created, &paid,
		&o.LinkID, &shipped, &delivered, &channel, &o.ChargeID, &o.TerminalID, &o.CashierID); err != nil {
		return o, err
	}
	o.Channel = checkout.Channel(channel)
	o.ShippedAt, o.DeliveredAt = fromMS(shipped), fromMS(delivered)
	o.Status = checkout.OrderStatus(status)
	o.Amount, o.RefundDue = gatewayclient.Cents(amount), gatewayclient.Cents(refund)
	o.CreatedAt, o.PaidAt = fromMS(created), fromMS(paid)
	return o, nil
}

// OrderSummaries lists a page of the orders of f without their lines, history or attempts,
// and counts the matches up to checkout.MaxCounted+1: two statements in one read transaction
// (one round trip on PostgreSQL). The page is found through the indexes that carry the list's
// order (created_at, id; status, created_at, id), so its cost does not grow with the store nor,
// paged by key, with its depth; the count stops at the cap instead of reading (and, for a
// window function, sorting) every match.
func (s *Store) OrderSummaries(ctx context.Context, f checkout.OrderFilter) ([]checkout.OrderSummary, int, error) {
	var p Params
	if f.Limit <= 0 {
		f.Limit = math.MaxInt64
	}
	q := s.listQuery(summaryColumns, f, &p)
	// The count is of the filter's matches, not of the page's side of a key.
	cf := f
	cf.Page = checkout.Cursor{}
	var cp Params
	count := `SELECT COUNT(*) FROM (SELECT 1 FROM orders o ` + s.ordersWhere(cf, &cp) + ` LIMIT ` +
		cp.Add(checkout.MaxCounted+1) + `) AS matches`
	var out []checkout.OrderSummary
	total := 0
	err := s.report(ctx, func() error {
		return s.readBatch(ctx, Stmt{SQL: q, Args: p, Rows: each(func(r Rows) error {
			o, err := scanSummary(r)
			out = append(out, o)
			return err
		})}, Stmt{SQL: count, Args: cp, Rows: each(func(r Rows) error { return r.Scan(&total) })})
	})
	if err != nil {
		return nil, 0, s.errorf("listing order summaries: %w", err)
	}
	if backward(f) {
		slices.Reverse(out)
	}
	return out, total, nil
}

// OrderTotal counts the orders of f and sums their amounts, capped at checkout.MaxCounted+1
// orders as the lists' count, so that its cost does not grow with the store.
func (s *Store) OrderTotal(ctx context.Context, f checkout.OrderFilter) (int, checkout.Cents, error) {
	f.Page, f.Limit, f.Offset = checkout.Cursor{}, 0, 0
	var p Params
	q := `SELECT COUNT(*), CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM (SELECT o.amount AS amount FROM orders o ` +
		s.ordersWhere(f, &p) + ` LIMIT ` + p.Add(checkout.MaxCounted+1) + `) AS matches`
	var n, sum int64
	err := s.report(ctx, func() error {
		return s.db.Read(ctx, Stmt{SQL: q, Args: p, Rows: each(func(r Rows) error { return r.Scan(&n, &sum) })})
	})
	if err != nil {
		return 0, 0, s.errorf("summing orders: %w", err)
	}
	return int(n), checkout.Cents(sum), nil
}

// OrderStats reads the overview's figures in statements sent together: the money and the
// conversion from money_days (the daily totals the migrations' triggers keep as orders are
// written: at most a few hundred rows whatever the number of orders), the orders awaiting
// payment (orders_status_created), the top products of the orders paid in the last period
// (from product_days, kept as money_days is) and what awaits the merchant: one round trip on
// PostgreSQL for the whole page's figures.
func (s *Store) OrderStats(ctx context.Context, q checkout.StatsQuery) (*checkout.OrderStats, error) {
	if q.ZoneOffset != checkout.MoneyDayOffset {
		return nil, s.errorf("reading order figures: days in a zone of offset %v, not São Paulo's", q.ZoneOffset)
	}
	day := func(t time.Time) int64 { return checkout.DayNumber(t, checkout.MoneyDayOffset) }
	from := day(q.DaysFrom)
	for _, since := range append([]time.Time{q.PlacedSince}, q.PaidSince...) {
		from = min(from, day(since))
	}
	// The rows of every channel of a day and kind (at most five) are read, and those of the
	// channels asked kept, so that the totals by channel come from the same read.
	var dp Params
	var days string
	if q.TerminalID != "" {
		days = terminalDays(q.TerminalID, from, &dp)
	} else {
		days = `SELECT day, kind, channel, CAST(amount AS BIGINT), CAST(n AS BIGINT) FROM money_days WHERE day >= ` + dp.Add(from)
	}
	var ap Params
	awaitingFilter := checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusPending, checkout.StatusAwaitingPayment},
		Channels: q.Channels, TerminalID: q.TerminalID}
	awaiting := `SELECT COUNT(*) FROM orders o ` + s.ordersWhere(awaitingFilter, &ap)

	st := &checkout.OrderStats{Money: make([]checkout.MoneyTotals, len(q.PaidSince)), Days: map[int64]checkout.MoneyTotals{},
		ByChannel: map[checkout.Channel][]checkout.MoneyTotals{}}
	acc := &dayTotals{st: st, q: q, placedFrom: day(q.PlacedSince), byDay: map[checkout.Channel]map[int64]checkout.MoneyTotals{}}
	stmts := []Stmt{
		{SQL: days, Args: dp, Rows: each(acc.add)},
		{SQL: awaiting, Args: ap, Rows: each(func(r Rows) error { return r.Scan(&st.Awaiting) })},
	}
	if q.TopLimit > 0 {
		stmts = append(stmts, s.topProducts(q, &st.Top))
	}
	if q.Attention {
		stmts = append(stmts, s.attention(st)...)
	}
	if err := s.report(ctx, func() error { return s.readBatch(ctx, stmts...) }); err != nil {
		return nil, s.errorf("reading order figures: %w", err)
	}
	sumPeriods(st.Money, st.Days, q.PaidSince)
	for ch, days := range acc.byDay {
		st.ByChannel[ch] = make([]checkout.MoneyTotals, len(q.PaidSince))
		sumPeriods(st.ByChannel[ch], days, q.PaidSince)
	}
	return st, nil
}

// moneyParts are the kinds of money_days, each with the column that dates it, the amount it
// sums and the orders it counts: the migrations' triggers' terms (0104_money_days).
var moneyParts = []struct{ kind, date, amount, cond string }{
	{"placed", "o.created_at", "o.amount", ""},
	{"placed_paid", "o.created_at", "o.amount", " AND o.paid_at > 0"},
	{"received", "o.paid_at", "o.amount", " AND o.paid_at > 0"},
	{"fee", "o.paid_at", "o.fee", " AND o.paid_at > 0 AND o.fee >= 0"},
	{"fee_unknown", "o.paid_at", "o.amount", " AND o.paid_at > 0 AND o.fee < 0"},
	{"refunded", "o.refunded_at", "o.amount", " AND o.paid_at > 0 AND o.refunded_at > 0 AND o.status IN ('refunding', 'refunded')"},
	{"held", "o.held_at", "o.amount", " AND o.held_at > 0 AND o.status = 'under_review'"},
}

// terminalDays is the statement reading, in money_days' shape (day, kind, channel, amount, n),
// the daily totals of the sales of one terminal since the São Paulo day numbered from: summed
// from its orders (through orders_terminal), as money_days' triggers sum every order.
func terminalDays(terminal string, from int64, p *Params) string {
	dayMS := int64(86400000)
	offset := -checkout.MoneyDayOffset.Milliseconds()
	since := from*dayMS + offset
	parts := make([]string, len(moneyParts))
	for i, mp := range moneyParts {
		parts[i] = `SELECT (` + mp.date + ` - ` + strconv.FormatInt(offset, 10) + `) / ` + strconv.FormatInt(dayMS, 10) +
			` AS day, '` + mp.kind + `' AS kind, o.channel AS channel, ` + mp.amount + ` AS amount FROM orders o
			WHERE o.terminal_id = ` + p.Add(terminal) + ` AND o.terminal_id <> '' AND ` + mp.date + ` >= ` + p.Add(since) + mp.cond
	}
	return `SELECT day, kind, channel, CAST(SUM(amount) AS BIGINT), CAST(COUNT(*) AS BIGINT) FROM (` +
		strings.Join(parts, " UNION ALL ") + `) AS parts GROUP BY day, kind, channel`
}

// dayTotals gathers the rows of money_days into the figures of st: those of the channels q
// asks (or every one) into its days and conversion, those of every channel by channel.
type dayTotals struct {
	st         *checkout.OrderStats
	q          checkout.StatsQuery
	placedFrom int64
	byDay      map[checkout.Channel]map[int64]checkout.MoneyTotals
}

// add reads a row of money_days (day, kind, channel, amount, n).
func (a *dayTotals) add(r Rows) error {
	var d, amount, n int64
	var kind, channel string
	if err := r.Scan(&d, &kind, &channel, &amount, &n); err != nil {
		return err
	}
	ch := checkout.Channel(channel)
	if n == 0 {
		return nil // a day whose orders all moved on
	}
	placed := kind == "placed" || kind == "placed_paid"
	if !placed {
		if a.byDay[ch] == nil {
			a.byDay[ch] = map[int64]checkout.MoneyTotals{}
		}
		cm := a.byDay[ch][d]
		addMoney(&cm, kind, gatewayclient.Cents(amount), int(n))
		a.byDay[ch][d] = cm
	}
	switch {
	case len(a.q.Channels) > 0 && !slices.Contains(a.q.Channels, ch):
		// a channel not asked
	case kind == "placed" && d >= a.placedFrom:
		a.st.Placed += int(n)
	case kind == "placed_paid" && d >= a.placedFrom:
		a.st.PlacedPaid += int(n)
	case !placed:
		m := a.st.Days[d]
		addMoney(&m, kind, gatewayclient.Cents(amount), int(n))
		a.st.Days[d] = m
	}
	return nil
}

// sumPeriods adds the money of each day of days to the totals of the periods starting at
// since that hold it.
func sumPeriods(totals []checkout.MoneyTotals, days map[int64]checkout.MoneyTotals, since []time.Time) {
	for d, m := range days {
		for i, from := range since {
			if d >= checkout.DayNumber(from, checkout.MoneyDayOffset) {
				totals[i].Add(m)
			}
		}
	}
}

// attention are the statements counting what awaits the merchant into st, each through its
// partial index and capped as the lists' counts: the orders with a refund due and what they
// are owed, the orders awaiting shipment.
func (s *Store) attention(st *checkout.OrderStats) []Stmt {
	var rp, sp Params
	refunds := `SELECT COUNT(*), CAST(COALESCE(SUM(due), 0) AS BIGINT) FROM (SELECT o.refund_due AS due FROM orders o ` +
		s.ordersWhere(checkout.OrderFilter{RefundDue: true}, &rp) + ` LIMIT ` + rp.Add(checkout.MaxCounted+1) + `) AS due`
	shipping := `SELECT COUNT(*) FROM (SELECT 1 FROM orders o ` +
		s.ordersWhere(checkout.OrderFilter{Fulfilment: checkout.FulfilmentAwaitingShipment}, &sp) + ` LIMIT ` +
		sp.Add(checkout.MaxCounted+1) + `) AS matches`
	return []Stmt{
		{SQL: refunds, Args: rp, Rows: each(func(r Rows) error {
			var due int64
			if err := r.Scan(&st.RefundsDue, &due); err != nil {
				return err
			}
			st.RefundDue = gatewayclient.Cents(due)
			return nil
		})},
		{SQL: shipping, Args: sp, Rows: each(func(r Rows) error { return r.Scan(&st.AwaitingShipment) })},
	}
}

// addMoney adds a row of money_days of that kind to m.
func addMoney(m *checkout.MoneyTotals, kind string, amount gatewayclient.Cents, n int) {
	t := checkout.PaidTotal{Orders: n, Amount: amount}
	switch kind {
	case "received":
		m.Add(checkout.MoneyTotals{Received: t})
	case "refunded":
		m.Add(checkout.MoneyTotals{Refunded: t})
	case "held":
		m.Add(checkout.MoneyTotals{Held: t})
	case "fee":
		m.Add(checkout.MoneyTotals{Fees: t})
	case "fee_unknown":
		m.FeeUnknown += n
	}
}

// topProducts is the statement reading the products of the most revenue in the orders paid
// since the day of q.TopSince from product_days (the daily totals the migrations' triggers keep
// as lines are written and orders paid: a row per product and day, whatever the number of
// orders); a line without a product is counted under its title.
func (s *Store) topProducts(q checkout.StatsQuery, out *[]checkout.ProductTotal) Stmt {
	var tp Params
	top := `SELECT product_id, name, MAX(title), CAST(SUM(units) AS BIGINT), CAST(SUM(revenue) AS BIGINT)
		FROM product_days WHERE day >= ` + tp.Add(checkout.DayNumber(q.TopSince, checkout.MoneyDayOffset)) + `
		GROUP BY 1, 2 HAVING SUM(units) > 0 ORDER BY 5 DESC, 4 DESC, 1, 2 LIMIT ` + tp.Add(q.TopLimit)
	return Stmt{SQL: top, Args: tp, Rows: each(func(r Rows) error {
		var pt checkout.ProductTotal
		var key string
		var units, revenue int64
		if err := r.Scan(&pt.ProductID, &key, &pt.Title, &units, &revenue); err != nil {
			return err
		}
		pt.Units, pt.Revenue = int(units), gatewayclient.Cents(revenue)
		*out = append(*out, pt)
		return nil
	})}
}
