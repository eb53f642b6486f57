package sqlstore

import (
	"context"
	"math"
	"slices"
	"strings"
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
	o.customer_email, o.customer_document, o.physical, o.late_payment, o.refund_due, o.created_at, o.paid_at, o.link_id, o.shipped_at, o.delivered_at`

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
			var o checkout.OrderSummary
			var status string
			var amount, refund, created, paid, shipped, delivered int64
			if err := r.Scan(&o.ID, &o.Number, &o.ExternalCode, &o.MerchantReference, &status, &amount, &o.CustomerName,
				&o.CustomerEmail, &o.CustomerDocument, &o.Physical, &o.LatePayment, &refund, &created, &paid,
				&o.LinkID, &shipped, &delivered); err != nil {
				return err
			}
			o.ShippedAt, o.DeliveredAt = fromMS(shipped), fromMS(delivered)
			o.Status = checkout.OrderStatus(status)
			o.Amount, o.RefundDue = gatewayclient.Cents(amount), gatewayclient.Cents(refund)
			o.CreatedAt, o.PaidAt = fromMS(created), fromMS(paid)
			out = append(out, o)
			return nil
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

// OrderStats reads the overview's figures in statements sent together, each over the rows one
// index finds and holds (no OR of conditions on different columns, which no index serves): the
// amounts and counts of the orders paid in the periods (orders_paid: paid_at, amount,
// created_at), the orders placed in the last period (orders_created_id), those awaiting payment
// (orders_status_created), and the paid amounts by local day. An order is paid after it is
// placed, so the placed orders that were paid are among those paid since the period began.
func (s *Store) OrderStats(ctx context.Context, q checkout.StatsQuery) (*checkout.OrderStats, error) {
	var p Params
	var cols []string
	oldest := q.PlacedSince
	for _, since := range q.PaidSince {
		ph := p.Add(ms(since))
		cols = append(cols, "CAST(COALESCE(SUM(CASE WHEN o.paid_at >= "+ph+" THEN o.amount END), 0) AS BIGINT)",
			"COUNT(CASE WHEN o.paid_at >= "+ph+" THEN 1 END)")
		if oldest.IsZero() || since.Before(oldest) {
			oldest = since
		}
	}
	cols = append(cols, "COUNT(CASE WHEN o.created_at >= "+p.Add(ms(q.PlacedSince))+" THEN 1 END)")
	paid := `SELECT ` + strings.Join(cols, ", ") + ` FROM orders o WHERE o.paid_at >= ` + p.Add(ms(oldest))
	var pp Params
	placed := `SELECT COUNT(*) FROM orders o WHERE o.created_at >= ` + pp.Add(ms(q.PlacedSince))
	var ap Params
	awaiting := `SELECT COUNT(*) FROM orders o WHERE ` + s.d.OneOf("o.status",
		ap.Add(s.d.List([]string{string(checkout.StatusPending), string(checkout.StatusAwaitingPayment)})))

	st := &checkout.OrderStats{Paid: make([]checkout.PaidTotal, len(q.PaidSince)), Days: map[int64]checkout.PaidTotal{}}
	dest := make([]any, 0, 2*len(q.PaidSince)+3)
	amounts := make([]int64, len(q.PaidSince))
	for i := range q.PaidSince {
		dest = append(dest, &amounts[i], &st.Paid[i].Orders)
	}
	dest = append(dest, &st.PlacedPaid)

	var dp Params
	off := dp.Add(q.ZoneOffset.Milliseconds())
	// The day of a time is floor((ms + offset) / 86400000); paid_at is positive, so integer
	// division is the floor in both databases.
	days := `SELECT (o.paid_at + ` + off + `) / 86400000, CAST(SUM(o.amount) AS BIGINT), COUNT(*) FROM orders o
		WHERE o.paid_at >= ` + dp.Add(ms(q.DaysFrom)) + ` GROUP BY 1`
	stmts := []Stmt{}
	if q.TopLimit > 0 {
		// The paid orders of the period (orders_paid) and their lines (the lines' primary
		// key); a line without a product is counted under its title.
		var tp Params
		top := `SELECT l.product_id, CASE WHEN l.product_id = '' THEN l.title ELSE '' END, MAX(l.title),
			CAST(SUM(l.quantity) AS BIGINT), CAST(SUM(l.unit_price * l.quantity) AS BIGINT)
			FROM orders o JOIN order_lines l ON l.order_id = o.id
			WHERE o.paid_at >= ` + tp.Add(ms(q.TopSince)) + `
			GROUP BY 1, 2 ORDER BY 5 DESC, 4 DESC, 1, 2 LIMIT ` + tp.Add(q.TopLimit)
		stmts = append(stmts, Stmt{SQL: top, Args: tp, Rows: each(func(r Rows) error {
			var pt checkout.ProductTotal
			var key string
			var units, revenue int64
			if err := r.Scan(&pt.ProductID, &key, &pt.Title, &units, &revenue); err != nil {
				return err
			}
			pt.Units, pt.Revenue = int(units), gatewayclient.Cents(revenue)
			st.Top = append(st.Top, pt)
			return nil
		})})
	}
	err := s.report(ctx, func() error {
		return s.readBatch(ctx, append([]Stmt{
			Stmt{SQL: paid, Args: p, Rows: each(func(r Rows) error { return r.Scan(dest...) })},
			Stmt{SQL: placed, Args: pp, Rows: each(func(r Rows) error { return r.Scan(&st.Placed) })},
			Stmt{SQL: awaiting, Args: ap, Rows: each(func(r Rows) error { return r.Scan(&st.Awaiting) })},
			Stmt{SQL: days, Args: dp, Rows: each(func(r Rows) error {
				var day, amount int64
				var n int
				if err := r.Scan(&day, &amount, &n); err != nil {
					return err
				}
				st.Days[day] = checkout.PaidTotal{Orders: n, Amount: gatewayclient.Cents(amount)}
				return nil
			})}}, stmts...)...)
	})
	if err != nil {
		return nil, s.errorf("reading order figures: %w", err)
	}
	for i := range amounts {
		st.Paid[i].Amount = gatewayclient.Cents(amounts[i])
	}
	return st, nil
}
