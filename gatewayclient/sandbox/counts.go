package sandbox

import (
	"context"
	"fmt"
	"math/bits"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// The total of a deposit list over a million deposits cannot come from COUNT(*): that reads
// every matching index entry. Instead every deposit is counted in a cell — its client, UTC
// day of creation, status, origin and amount bucket — in tables kept in step with every
// write (bumpCount). A filter's total is then
//
//	the cells wholly inside the filter, summed from the tables (sumCells)
//	+ the cells the amount range cuts, over the whole days (countPartialBucket)
//	+ the days the date range cuts, every amount of the filter (countIndex)
//
// where only the last two read index entries, and few: at most two buckets and two days.

// dayMs is one UTC day in Unix milliseconds.
const dayMs = 24 * 60 * 60 * 1000

// noDate bounds created_at when a filter gives no date: beyond any real date, and far from
// overflowing when days are turned back into milliseconds.
const noDate = int64(1) << 50

// span is an inclusive range of integers: Unix milliseconds, days, cents or buckets.
type span struct{ lo, hi int64 }

func (s span) empty() bool  { return s.lo > s.hi }
func (s span) width() int64 { return s.hi - s.lo + 1 }

// floorDiv is a/b rounded down (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// amountBucket returns the count bucket of an amount (cents ≥ 1): 1, 2 and 3 alone, then
// four buckets per power of two (each about 19% wider than the previous). Bucket numbers grow
// with the amount; 4 to 7 are unused.
func amountBucket(a int64) int64 {
	if a < 4 {
		return max(a, 0)
	}
	l := int64(bits.Len64(uint64(a))) - 1 // a is in [2^l, 2^(l+1))
	return l*4 + (a>>(l-2))&3
}

// bucketRange returns the amounts [lo, hi] of bucket b.
func bucketRange(b int64) (int64, int64) {
	if b < 8 {
		return b, b
	}
	l, sub := b/4, b%4
	return (4 + sub) << (l - 2), (5+sub)<<(l-2) - 1
}

// bumpCount adds delta to the cell of a deposit of clientID created at createdMs with status,
// origin and amount, in the three count tables.
func bumpCount(ctx context.Context, q querier, clientID string, createdMs int64, status, origin string, amount int64, delta int) error {
	day, bucket := floorDiv(createdMs, dayMs), amountBucket(amount)
	for _, up := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO deposit_counts (client_id, day, bucket, status, origin, n) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (client_id, day, status, origin, bucket) DO UPDATE SET n = n + excluded.n`,
			[]any{clientID, day, bucket, status, origin, delta}},
		{`INSERT INTO deposit_counts_by_day (client_id, day, status, origin, n) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (client_id, day, status, origin) DO UPDATE SET n = n + excluded.n`,
			[]any{clientID, day, status, origin, delta}},
		{`INSERT INTO deposit_counts_by_bucket (client_id, bucket, status, origin, n) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (client_id, bucket, status, origin) DO UPDATE SET n = n + excluded.n`,
			[]any{clientID, bucket, status, origin, delta}},
	} {
		if _, err := q.ExecContext(ctx, up.sql, up.args...); err != nil {
			return fmt.Errorf("sandbox: deposit counts: %w", err)
		}
	}
	return nil
}

// rebuildCounts recomputes the deposit counts of clientID ("" for every client) from the
// deposits table.
func rebuildCounts(ctx context.Context, q querier, clientID string) error {
	where, args := "", []any{}
	if clientID != "" {
		where, args = ` WHERE client_id = ?`, append(args, clientID)
	}
	fail := func(err error) error { return fmt.Errorf("sandbox: rebuild deposit counts: %w", err) }
	for _, table := range []string{"deposit_counts", "deposit_counts_by_day", "deposit_counts_by_bucket"} {
		if _, err := q.ExecContext(ctx, `DELETE FROM `+table+where, args...); err != nil {
			return fail(err)
		}
	}
	rows, err := q.QueryContext(ctx, `SELECT client_id, created_at, status, origin, amount FROM deposits`+where, args...)
	if err != nil {
		return fail(err)
	}
	type cell struct {
		client, status, origin string
		day, bucket            int64
	}
	counts := map[cell]int64{}
	for rows.Next() {
		var (
			c               cell
			created, amount int64
		)
		if err := rows.Scan(&c.client, &created, &c.status, &c.origin, &amount); err != nil {
			rows.Close()
			return fail(err)
		}
		c.day, c.bucket = floorDiv(created, dayMs), amountBucket(amount)
		counts[c]++
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	for c, n := range counts {
		if _, err := q.ExecContext(ctx, `INSERT INTO deposit_counts (client_id, day, bucket, status, origin, n) VALUES (?, ?, ?, ?, ?, ?)`,
			c.client, c.day, c.bucket, c.status, c.origin, n); err != nil {
			return fail(err)
		}
	}
	for _, sum := range []string{
		`INSERT INTO deposit_counts_by_day (client_id, day, status, origin, n)
			SELECT client_id, day, status, origin, SUM(n) FROM deposit_counts` + where + ` GROUP BY 1, 2, 3, 4`,
		`INSERT INTO deposit_counts_by_bucket (client_id, bucket, status, origin, n)
			SELECT client_id, bucket, status, origin, SUM(n) FROM deposit_counts` + where + ` GROUP BY 1, 2, 3, 4`,
	} {
		if _, err := q.ExecContext(ctx, sum, args...); err != nil {
			return fail(err)
		}
	}
	return nil
}

// depositCount is the count of the deposits of one client that match one filter, cut into
// cells as the comment at the top of this file says.
type depositCount struct {
	q        querier
	clientID string
	statuses []gc.DepositStatus
	cells    *where // client, statuses and origins: what a cell is selected by
	times    span   // created_at, Unix ms
	from, to bool   // the filter gives a start date, an end date
	days     span   // the whole UTC days inside times
	amounts  span   // cents
	ranged   bool   // the filter bounds the amounts
	dateCost int64  // entries of dateIndex over the whole days; -1 until needed
}

// newDepositCount plans the count of the deposits of clientID matching f.
func newDepositCount(q querier, clientID string, f gc.DepositFilter) *depositCount {
	c := &depositCount{q: q, clientID: clientID, statuses: f.Status, cells: &where{}, dateCost: -1,
		times: span{-noDate, noDate}, amounts: span{1, int64(gc.MaxAmount)}}
	c.cells.add("client_id = ?", clientID)
	in(c.cells, "status", f.Status)
	in(c.cells, "origin", f.DepositOrigin)
	if !f.StartDate.IsZero() {
		c.times.lo, c.from = max(f.StartDate.UnixMilli(), -noDate), true
	}
	if !f.EndDate.IsZero() {
		c.times.hi, c.to = min(f.EndDate.UnixMilli(), noDate), true
	}
	c.days = span{-floorDiv(-c.times.lo, dayMs), floorDiv(c.times.hi+1, dayMs) - 1}
	if f.MinAmount > 0 {
		c.amounts.lo, c.ranged = int64(f.MinAmount), true
	}
	if f.MaxAmount > 0 {
		c.amounts.hi, c.ranged = int64(f.MaxAmount), true
	} else {
		// Up to the top of the highest bucket, so that no partial bucket is counted for nothing.
		_, c.amounts.hi = bucketRange(amountBucket(c.amounts.hi))
	}
	return c
}

// total counts the deposits.
func (c *depositCount) total(ctx context.Context) (int, error) {
	if c.times.empty() || c.amounts.empty() {
		return 0, nil
	}
	if c.days.empty() {
		// Less than a day: few index entries to count, and the planner chooses well.
		return c.countIndex(ctx, "", c.amounts, c.times)
	}
	whole, partial := c.buckets()
	var total int
	add := func(n int, err error) error {
		total += n
		return err
	}
	if !whole.empty() {
		if err := add(c.sumCells(ctx, whole)); err != nil {
			return 0, err
		}
	}
	for _, b := range partial {
		if err := add(c.countPartialBucket(ctx, b)); err != nil {
			return 0, err
		}
	}
	for _, edge := range c.partialDays() {
		if err := add(c.countIndex(ctx, c.dateIndex(), c.amounts, edge)); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// buckets returns the buckets wholly inside the amount range and those it cuts (at most two).
func (c *depositCount) buckets() (whole span, partial []int64) {
	first, last := amountBucket(c.amounts.lo), amountBucket(c.amounts.hi)
	whole = span{first, last}
	if lo, _ := bucketRange(first); lo < c.amounts.lo {
		whole.lo++
		partial = append(partial, first)
	}
	if _, hi := bucketRange(last); hi > c.amounts.hi {
		whole.hi--
		if last != first {
			partial = append(partial, last)
		}
	}
	return whole, partial
}

// wholeDayTimes is the span of created_at covered by the whole days.
func (c *depositCount) wholeDayTimes() span {
	return span{max(c.days.lo*dayMs, c.times.lo), min((c.days.hi+1)*dayMs-1, c.times.hi)}
}

// partialDays returns the parts of days that the date bounds cut (at most two spans of ms).
func (c *depositCount) partialDays() []span {
	var out []span
	whole := c.wholeDayTimes()
	if c.from && c.times.lo < whole.lo {
		out = append(out, span{c.times.lo, whole.lo - 1})
	}
	if c.to && whole.hi < c.times.hi {
		out = append(out, span{whole.hi + 1, c.times.hi})
	}
	return out
}

// sumCells sums the cells of the buckets over the whole days, from the smallest table that
// can answer: without an amount range the per-day table, without a date range the
// per-bucket one (a few thousand rows at most), else the table of every cell.
func (c *depositCount) sumCells(ctx context.Context, buckets span) (int, error) {
	q, args := `SELECT COALESCE(SUM(n), 0) FROM deposit_counts WHERE `+c.cells.sql()+` AND day BETWEEN ? AND ? AND bucket BETWEEN ? AND ?`,
		append(append([]any(nil), c.cells.args...), c.days.lo, c.days.hi, buckets.lo, buckets.hi)
	switch {
	case !c.ranged:
		q, args = `SELECT COALESCE(SUM(n), 0) FROM deposit_counts_by_day WHERE `+c.cells.sql()+` AND day BETWEEN ? AND ?`,
			append(append([]any(nil), c.cells.args...), c.days.lo, c.days.hi)
	case !c.from && !c.to:
		q, args = `SELECT COALESCE(SUM(n), 0) FROM deposit_counts_by_bucket WHERE `+c.cells.sql()+` AND bucket BETWEEN ? AND ?`,
			append(append([]any(nil), c.cells.args...), buckets.lo, buckets.hi)
	}
	return c.scalar(ctx, q, args...)
}

// countPartialBucket counts, over the whole days, the deposits of bucket b inside the amount
// range, which cuts b. When most of the bucket is inside, the bucket's cells less the part
// outside read fewer index entries than the part inside.
func (c *depositCount) countPartialBucket(ctx context.Context, b int64) (int, error) {
	lo, hi := bucketRange(b)
	inside := span{max(lo, c.amounts.lo), min(hi, c.amounts.hi)}
	if inside.width() <= (hi-lo+1)-inside.width() {
		return c.countInWholeDays(ctx, b, inside)
	}
	n, err := c.sumCells(ctx, span{b, b})
	if err != nil {
		return 0, err
	}
	for _, outside := range []span{{lo, inside.lo - 1}, {inside.hi + 1, hi}} {
		if outside.empty() {
			continue
		}
		m, err := c.countInWholeDays(ctx, b, outside)
		if err != nil {
			return 0, err
		}
		n -= m
	}
	return n, nil
}

// countInWholeDays counts the deposits with amounts in the part amounts of bucket b created
// in the whole days, through whichever index reads fewer entries: the amount index reads
// that part of the bucket over all days (estimated from the bucket's cells, as if amounts
// were spread evenly in it); the date index reads every deposit of the filter's statuses in
// those days.
func (c *depositCount) countInWholeDays(ctx context.Context, b int64, amounts span) (int, error) {
	if c.dateCost < 0 {
		st := &where{}
		st.add("client_id = ?", c.clientID)
		in(st, "status", c.statuses)
		n, err := c.scalar(ctx, `SELECT COALESCE(SUM(n), 0) FROM deposit_counts_by_day WHERE `+st.sql()+` AND day BETWEEN ? AND ?`,
			append(st.args, c.days.lo, c.days.hi)...)
		if err != nil {
			return 0, err
		}
		c.dateCost = int64(n)
	}
	inBucket, err := c.scalar(ctx, `SELECT COALESCE(SUM(n), 0) FROM deposit_counts_by_bucket WHERE client_id = ? AND bucket = ?`, c.clientID, b)
	if err != nil {
		return 0, err
	}
	lo, hi := bucketRange(b)
	index := c.dateIndex()
	if int64(inBucket)*amounts.width()/(hi-lo+1) < c.dateCost {
		index = idxDepositsByAmount
	}
	return c.countIndex(ctx, index, amounts, c.wholeDayTimes())
}

// dateIndex is the date-ordered index for the filter: the status index reads only the
// listed states.
func (c *depositCount) dateIndex() string {
	if len(c.statuses) > 0 {
		return idxDepositsByStatus
	}
	return idxDepositsByDate
}

// countIndex counts the deposits of the cells' client, statuses and origins with amounts in
// amounts created in times, in index ("": the planner's choice). The planner cannot be left
// to choose on longer spans: it takes any range of created_at as narrow, and would read a
// status's every entry for a count of a few amounts.
func (c *depositCount) countIndex(ctx context.Context, index string, amounts, times span) (int, error) {
	from := "deposits"
	if index != "" {
		from += " INDEXED BY " + index
	}
	return c.scalar(ctx, `SELECT COUNT(*) FROM `+from+` WHERE `+c.cells.sql()+` AND amount BETWEEN ? AND ? AND created_at BETWEEN ? AND ?`,
		append(append([]any(nil), c.cells.args...), amounts.lo, amounts.hi, times.lo, times.hi)...)
}

// scalar runs a query answering one integer.
func (c *depositCount) scalar(ctx context.Context, q string, args ...any) (int, error) {
	var n int
	if err := c.q.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("sandbox: count deposits: %w", err)
	}
	return n, nil
}
