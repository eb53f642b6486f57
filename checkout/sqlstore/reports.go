package sqlstore

import (
	"context"
	"math"
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
	o.customer_email, o.customer_document, o.physical, o.late_payment, o.refund_due, o.created_at, o.paid_at`

// OrderSummaries lists a page of the orders of f without their lines, history or attempts: one
// statement, whose window function counts every match on the way.
func (s *Store) OrderSummaries(ctx context.Context, f checkout.OrderFilter) ([]checkout.OrderSummary, int, error) {
	var p Params
	where := s.ordersWhere(f, &p)
	countArgs := append(Params(nil), p...)
	q := `SELECT ` + summaryColumns + `, COUNT(*) OVER () FROM orders o ` + where + ` ORDER BY o.created_at DESC, o.id DESC`
	limit := f.Limit
	if limit <= 0 {
		limit = math.MaxInt64
	}
	q += " LIMIT " + p.Add(limit) + " OFFSET " + p.Add(max(f.Offset, 0))
	var out []checkout.OrderSummary
	total := 0
	err := s.db.Read(ctx, Stmt{SQL: q, Args: p, Rows: each(func(r Rows) error {
		var o checkout.OrderSummary
		var status string
		var amount, refund, created, paid int64
		if err := r.Scan(&o.ID, &o.Number, &o.ExternalCode, &o.MerchantReference, &status, &amount, &o.CustomerName,
			&o.CustomerEmail, &o.CustomerDocument, &o.Physical, &o.LatePayment, &refund, &created, &paid, &total); err != nil {
			return err
		}
		o.Status = checkout.OrderStatus(status)
		o.Amount, o.RefundDue = gatewayclient.Cents(amount), gatewayclient.Cents(refund)
		o.CreatedAt, o.PaidAt = fromMS(created), fromMS(paid)
		out = append(out, o)
		return nil
	})})
	if err != nil {
		return nil, 0, s.errorf("listing order summaries: %w", err)
	}
	if len(out) == 0 && f.Offset > 0 {
		// Past the last page the window counted nothing: count on its own.
		err = s.db.Read(ctx, Stmt{SQL: `SELECT COUNT(*) FROM orders o ` + where, Args: countArgs,
			Rows: each(func(r Rows) error { return r.Scan(&total) })})
		if err != nil {
			return nil, 0, s.errorf("counting orders: %w", err)
		}
	}
	return out, total, nil
}

// OrderStats reads the overview's figures in two statements sent together: the totals by
// conditional aggregation over the orders of the periods (found through the indexes on
// created_at, paid_at and status), and the paid amounts by local day.
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
	awaiting := p.Add(s.d.List([]string{string(checkout.StatusPending), string(checkout.StatusAwaitingPayment)}))
	placed := p.Add(ms(q.PlacedSince))
	cols = append(cols, "COUNT(CASE WHEN "+s.d.OneOf("o.status", awaiting)+" THEN 1 END)",
		"COUNT(CASE WHEN o.created_at >= "+placed+" THEN 1 END)",
		"COUNT(CASE WHEN o.created_at >= "+placed+" AND o.paid_at > 0 THEN 1 END)")
	from := p.Add(ms(oldest))
	totals := `SELECT ` + strings.Join(cols, ", ") + ` FROM orders o WHERE o.paid_at >= ` + from +
		` OR o.created_at >= ` + from + ` OR ` + s.d.OneOf("o.status", awaiting)

	st := &checkout.OrderStats{Paid: make([]checkout.PaidTotal, len(q.PaidSince)), Days: map[int64]checkout.PaidTotal{}}
	dest := make([]any, 0, 2*len(q.PaidSince)+3)
	amounts := make([]int64, len(q.PaidSince))
	for i := range q.PaidSince {
		dest = append(dest, &amounts[i], &st.Paid[i].Orders)
	}
	dest = append(dest, &st.Awaiting, &st.Placed, &st.PlacedPaid)

	var dp Params
	off := dp.Add(q.ZoneOffset.Milliseconds())
	// The day of a time is floor((ms + offset) / 86400000); paid_at is positive, so integer
	// division is the floor in both databases.
	days := `SELECT (o.paid_at + ` + off + `) / 86400000, CAST(SUM(o.amount) AS BIGINT), COUNT(*) FROM orders o
		WHERE o.paid_at >= ` + dp.Add(ms(q.DaysFrom)) + ` GROUP BY 1`
	err := s.db.ReadTx(ctx, func(tx Runner) error {
		return tx.Run(ctx,
			Stmt{SQL: totals, Args: p, Rows: each(func(r Rows) error { return r.Scan(dest...) })},
			Stmt{SQL: days, Args: dp, Rows: each(func(r Rows) error {
				var day, amount int64
				var n int
				if err := r.Scan(&day, &amount, &n); err != nil {
					return err
				}
				st.Days[day] = checkout.PaidTotal{Orders: n, Amount: gatewayclient.Cents(amount)}
				return nil
			})})
	})
	if err != nil {
		return nil, s.errorf("reading order figures: %w", err)
	}
	for i := range amounts {
		st.Paid[i].Amount = gatewayclient.Cents(amounts[i])
	}
	return st, nil
}
