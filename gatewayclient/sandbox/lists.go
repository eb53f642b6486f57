package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Pagination of GET /deposit and GET /withdrawal: page from 1, perPage 10 by default and at
// most 100 (a larger perPage is lowered to 100, and the envelope says so).
const (
	DefaultPerPage = 10
	MaxPerPage     = 100
)

// paging applies the pagination defaults.
func paging(page, perPage int) (int, int) {
	if page < 1 {
		page = 1
	}
	if perPage < 1 {
		perPage = DefaultPerPage
	}
	if perPage > MaxPerPage {
		perPage = MaxPerPage
	}
	return page, perPage
}

// where accumulates SQL conditions and their arguments.
type where struct {
	conds []string
	args  []any
}

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

// in adds "col IN (?, ?, …)" for vals.
func in[T ~string](w *where, col string, vals []T) {
	if len(vals) == 0 {
		return
	}
	ph := make([]string, len(vals))
	args := make([]any, len(vals))
	for i, v := range vals {
		ph[i] = "?"
		args[i] = string(v)
	}
	w.add(col+" IN ("+strings.Join(ph, ", ")+")", args...)
}

func (w *where) sql() string { return strings.Join(w.conds, " AND ") }

// depositWhere turns a deposit filter into SQL conditions for clientID.
func depositWhere(clientID string, f gc.DepositFilter) *where {
	w := &where{}
	w.add("client_id = ?", clientID)
	if !f.StartDate.IsZero() {
		w.add("created_at >= ?", f.StartDate.UnixMilli())
	}
	if !f.EndDate.IsZero() {
		w.add("created_at <= ?", f.EndDate.UnixMilli())
	}
	in(w, "status", f.Status)
	in(w, "origin", f.DepositOrigin)
	if f.MinAmount > 0 {
		w.add("amount >= ?", int64(f.MinAmount))
	}
	if f.MaxAmount > 0 {
		w.add("amount <= ?", int64(f.MaxAmount))
	}
	return w
}

// withdrawalWhere turns a withdrawal filter into SQL conditions for clientID.
func withdrawalWhere(clientID string, f gc.WithdrawalFilter) *where {
	w := &where{}
	w.add("client_id = ?", clientID)
	if !f.StartDate.IsZero() {
		w.add("created_at >= ?", f.StartDate.UnixMilli())
	}
	if !f.EndDate.IsZero() {
		w.add("created_at <= ?", f.EndDate.UnixMilli())
	}
	in(w, "status", f.Status)
	if f.ID != "" {
		w.add("id = ?", strings.ToLower(f.ID))
	}
	if f.PixKey != "" {
		key, _, ok := brdoc.NormalizePixKey(f.PixKey)
		if !ok {
			key = f.PixKey
		}
		w.add("pix_key = ?", key)
	}
	if f.EndToEnd != "" {
		w.add("end_to_end = ?", f.EndToEnd)
	}
	if f.EndToEndRefund != "" {
		w.add("end_to_end_refund = ?", f.EndToEndRefund)
	}
	if f.ExternalCode != "" {
		w.add("external_code = ?", f.ExternalCode)
	}
	if f.MinAmount > 0 {
		w.add("amount >= ?", int64(f.MinAmount))
	}
	if f.MaxAmount > 0 {
		w.add("amount <= ?", int64(f.MaxAmount))
	}
	return w
}

// listDocs returns one page of docs of table under w, newest first, and the total: total
// when it is not negative (known already), else a COUNT(*). index, when not empty, names the
// index that must serve the page's ids.
func (s *Sandbox) listDocs(ctx context.Context, table string, w *where, total, page, perPage int, index string) (int, [][]byte, error) {
	if total < 0 {
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table+` WHERE `+w.sql(), w.args...).Scan(&total); err != nil {
			return 0, nil, fmt.Errorf("sandbox: count %s: %w", table, err)
		}
	}
	offset := (page - 1) * perPage
	if total == 0 || offset >= total {
		return total, nil, nil
	}
	// The page's ids come from an index alone; only those rows are then read in full.
	args := append(append([]any(nil), w.args...), perPage, offset)
	from := table
	if index != "" {
		from += " INDEXED BY " + index
	}
	rows, err := s.db.QueryContext(ctx, `SELECT doc FROM `+table+` WHERE id IN (SELECT id FROM `+from+` WHERE `+w.sql()+
		` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) ORDER BY created_at DESC, id DESC`, args...)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: list %s: %w", table, err)
	}
	defer rows.Close()
	var docs [][]byte
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return 0, nil, fmt.Errorf("sandbox: list %s: %w", table, err)
		}
		docs = append(docs, doc)
	}
	if err := rows.Err(); err != nil {
		return 0, nil, fmt.Errorf("sandbox: list %s: %w", table, err)
	}
	return total, docs, nil
}

// depositTotal returns the number of deposits of clientID matching f, or -1 when the caller
// should count in the index (a date range shorter than a day). Whole UTC days and whole
// amount buckets inside the filter are summed from the counts tables; the partial days and
// buckets at the edges are counted in the indexes.
func (s *Sandbox) depositTotal(ctx context.Context, clientID string, f gc.DepositFilter) (int, error) {
	const far = int64(1) << 50 // beyond any date, in days and in ms
	lo, hi := -far, far        // the date range in ms, inclusive
	if !f.StartDate.IsZero() {
		lo = f.StartDate.UnixMilli()
	}
	if !f.EndDate.IsZero() {
		hi = f.EndDate.UnixMilli()
	}
	firstDay, lastDay := -far, far // whole days inside [lo, hi]
	if lo != -far {
		firstDay = -floorDiv(-lo, dayMs) // ceil
	}
	if hi != far {
		lastDay = floorDiv(hi+1, dayMs) - 1
	}
	if firstDay > lastDay {
		return -1, nil // less than a day: the index count is cheap
	}
	amountFilter := f.MinAmount != 0 || f.MaxAmount != 0
	amin, amax := int64(f.MinAmount), int64(f.MaxAmount)
	if amin == 0 {
		amin = 1
	}
	if amax == 0 {
		// The top of the highest bucket, so that no partial bucket is counted for nothing.
		_, amax = bucketRange(amountBucket(int64(gc.MaxAmount)))
	}
	if amin > amax {
		return 0, nil
	}
	base := &where{}
	base.add("client_id = ?", clientID)
	in(base, "status", f.Status)
	in(base, "origin", f.DepositOrigin)
	// The whole days in ms (without a bound, ±far: multiplying it by dayMs would overflow).
	dayLo, dayHi := lo, hi
	if firstDay != -far {
		dayLo = max(firstDay*dayMs, lo)
	}
	if lastDay != far {
		dayHi = min((lastDay+1)*dayMs-1, hi)
	}
	// count counts the deposits of base with amounts in [a1, a2] created in [t1, t2] in
	// index. The planner cannot be left to choose: it takes any range of created_at as
	// narrow, and would read a status's every entry for a count of a few amounts.
	count := func(index string, a1, a2, t1, t2 int64) (int, error) {
		var n int
		a := append(append([]any(nil), base.args...), a1, a2, t1, t2)
		err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM deposits INDEXED BY `+index+` WHERE `+base.sql()+
			` AND amount BETWEEN ? AND ? AND created_at BETWEEN ? AND ?`, a...).Scan(&n)
		if err != nil {
			return 0, fmt.Errorf("sandbox: count deposits: %w", err)
		}
		return n, nil
	}
	// The date-ordered index of the filter: the status index reads only the listed states.
	dateIndex := idxDepositsCreated
	if len(f.Status) > 0 {
		dateIndex = idxDepositsStatus
	}
	scalar := func(q string, a ...any) (int, error) {
		var n int
		if err := s.db.QueryRowContext(ctx, q, a...).Scan(&n); err != nil {
			return 0, fmt.Errorf("sandbox: deposit counts: %w", err)
		}
		return n, nil
	}
	// dateCost is how many entries dateIndex holds over the whole days (-1: not known yet).
	dateCost := -1
	// amountIndexFor picks the index that reads fewer entries to count the amounts [a1, a2]
	// of bucket b over the whole days: the amount index reads that slice of the bucket over
	// all days, dateIndex reads every entry of the filter's states in those days.
	amountIndexFor := func(b, a1, a2 int64) (string, error) {
		if dateCost < 0 {
			st := &where{}
			st.add("client_id = ?", clientID)
			in(st, "status", f.Status)
			n, err := scalar(`SELECT COALESCE(SUM(n), 0) FROM deposit_day_counts_v3 WHERE `+st.sql()+` AND day BETWEEN ? AND ?`,
				append(st.args, firstDay, lastDay)...)
			if err != nil {
				return "", err
			}
			dateCost = n
		}
		inBucket, err := scalar(`SELECT COALESCE(SUM(n), 0) FROM deposit_bucket_counts_v3 WHERE client_id = ? AND bucket = ?`, clientID, b)
		if err != nil {
			return "", err
		}
		l, h := bucketRange(b)
		if int64(inBucket)*(a2-a1+1)/(h-l+1) < int64(dateCost) {
			return idxDepositsAmount, nil
		}
		return dateIndex, nil
	}
	// countAmounts counts the amounts [a1, a2] of bucket b over the whole days.
	countAmounts := func(b, a1, a2 int64) (int, error) {
		index, err := amountIndexFor(b, a1, a2)
		if err != nil {
			return 0, err
		}
		return count(index, a1, a2, dayLo, dayHi)
	}
	// sum sums the counts tables over the whole days and the buckets [b1, b2]: the per-day
	// table without an amount filter, the per-bucket table without a date bound (a few
	// thousand rows at most), the per-day-and-bucket table otherwise.
	sum := func(b1, b2 int64) (int, error) {
		q := `SELECT COALESCE(SUM(n), 0) FROM deposit_counts_v3 WHERE ` + base.sql() + ` AND day BETWEEN ? AND ? AND bucket BETWEEN ? AND ?`
		a := append(append([]any(nil), base.args...), firstDay, lastDay, b1, b2)
		switch {
		case !amountFilter:
			q = `SELECT COALESCE(SUM(n), 0) FROM deposit_day_counts_v3 WHERE ` + base.sql() + ` AND day BETWEEN ? AND ?`
			a = a[:len(a)-2]
		case firstDay == -far && lastDay == far:
			q = `SELECT COALESCE(SUM(n), 0) FROM deposit_bucket_counts_v3 WHERE ` + base.sql() + ` AND bucket BETWEEN ? AND ?`
			a = append(append([]any(nil), base.args...), b1, b2)
		}
		var n int
		if err := s.db.QueryRowContext(ctx, q, a...).Scan(&n); err != nil {
			return 0, fmt.Errorf("sandbox: deposit counts: %w", err)
		}
		return n, nil
	}
	total := 0
	add := func(n int, err error) error {
		total += n
		return err
	}
	// Whole days × whole buckets.
	bA, bB := amountBucket(amin), amountBucket(amax)
	fullFrom, fullTo := bA, bB
	if l, _ := bucketRange(bA); l < amin {
		fullFrom = bA + 1
	}
	if _, h := bucketRange(bB); h > amax {
		fullTo = bB - 1
	}
	if fullFrom <= fullTo {
		if err := add(sum(fullFrom, fullTo)); err != nil {
			return 0, err
		}
	}
	// Whole days × the partial buckets at the amount edges. The part of such a bucket inside
	// the filter is counted in the amount index, or, when the part outside is narrower, the
	// bucket's sum less the part outside: a narrow range that cuts one or two large buckets
	// then reads a fraction of a bucket instead of every match.
	var partial []int64
	if fullFrom != bA {
		partial = append(partial, bA)
	}
	if fullTo != bB && bB != bA {
		partial = append(partial, bB)
	}
	for _, b := range partial {
		l, h := bucketRange(b)
		in1, in2 := max(l, amin), min(h, amax)
		if inside := in2 - in1 + 1; inside <= (h-l+1)-inside {
			if err := add(countAmounts(b, in1, in2)); err != nil {
				return 0, err
			}
			continue
		}
		if err := add(sum(b, b)); err != nil {
			return 0, err
		}
		for _, out := range [][2]int64{{l, in1 - 1}, {in2 + 1, h}} {
			if out[0] > out[1] {
				continue
			}
			n, err := countAmounts(b, out[0], out[1])
			if err != nil {
				return 0, err
			}
			total -= n
		}
	}
	// The partial days at the date edges, every amount of the filter.
	if lo != -far && lo < firstDay*dayMs {
		if err := add(count(dateIndex, amin, amax, lo, firstDay*dayMs-1)); err != nil {
			return 0, err
		}
	}
	if hi != far && (lastDay+1)*dayMs <= hi {
		if err := add(count(dateIndex, amin, amax, (lastDay+1)*dayMs, hi)); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// totalPages is ceil(total / perPage).
func totalPages(total, perPage int) int {
	return (total + perPage - 1) / perPage
}

// handleListDeposits is GET /deposit.
func (s *Sandbox) handleListDeposits(w http.ResponseWriter, r *http.Request, p principal) {
	// ParseDepositFilter also refuses minAmount=0 and maxAmount=0 sent explicitly.
	f, err := gc.ParseDepositFilter(r.URL.Query(), "page", "perPage")
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	out, err := s.ListDeposits(r.Context(), p.clientID, f)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// ListDeposits returns one page of the deposits of clientID matching f, newest first, as
// GET /deposit does. The QR code image is included for records that carry one and made on
// the fly for records still awaiting payment; other seeded records list it empty (see the
// package doc).
func (s *Sandbox) ListDeposits(ctx context.Context, clientID string, f gc.DepositFilter) (gc.Page[gc.Deposit], error) {
	if err := s.expireDue(ctx); err != nil {
		return gc.Page[gc.Deposit]{}, err
	}
	page, perPage := paging(f.Page, f.PerPage)
	w := depositWhere(clientID, f)
	total, err := s.depositTotal(ctx, clientID, f)
	if err != nil {
		return gc.Page[gc.Deposit]{}, err
	}
	if total < 0 {
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM deposits WHERE `+w.sql(), w.args...).Scan(&total); err != nil {
			return gc.Page[gc.Deposit]{}, fmt.Errorf("sandbox: count deposits: %w", err)
		}
	}
	index, err := s.depositPageIndex(ctx, clientID, f, total, page*perPage)
	if err != nil {
		return gc.Page[gc.Deposit]{}, err
	}
	total, docs, err := s.listDocs(ctx, "deposits", w, total, page, perPage, index)
	if err != nil {
		return gc.Page[gc.Deposit]{}, err
	}
	now := s.clock.Now()
	out := gc.Page[gc.Deposit]{Total: total, TotalPages: totalPages(total, perPage), CurrentPage: page, PerPage: perPage,
		Data: make([]gc.Deposit, 0, len(docs))}
	for _, doc := range docs {
		var d gc.Deposit
		if err := json.Unmarshal(doc, &d); err != nil {
			return gc.Page[gc.Deposit]{}, fmt.Errorf("sandbox: decode deposit: %w", err)
		}
		wd, err := s.wireDeposit(&d, now, d.Status == gc.DepositPixQRCodeGenerated)
		if err != nil {
			return gc.Page[gc.Deposit]{}, err
		}
		out.Data = append(out.Data, wd)
	}
	return out, nil
}

// handleListWithdrawals is GET /withdrawal.
func (s *Sandbox) handleListWithdrawals(w http.ResponseWriter, r *http.Request, p principal) {
	f, err := gc.ParseWithdrawalFilter(r.URL.Query(), "page", "perPage")
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	out, err := s.ListWithdrawals(r.Context(), p.clientID, f)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// ListWithdrawals returns one page of the withdrawals of clientID matching f, newest first,
// as GET /withdrawal does.
func (s *Sandbox) ListWithdrawals(ctx context.Context, clientID string, f gc.WithdrawalFilter) (gc.Page[gc.Withdrawal], error) {
	page, perPage := paging(f.Page, f.PerPage)
	total, docs, err := s.listDocs(ctx, "withdrawals", withdrawalWhere(clientID, f), -1, page, perPage, "")
	if err != nil {
		return gc.Page[gc.Withdrawal]{}, err
	}
	now := s.clock.Now()
	out := gc.Page[gc.Withdrawal]{Total: total, TotalPages: totalPages(total, perPage), CurrentPage: page, PerPage: perPage,
		Data: make([]gc.Withdrawal, 0, len(docs))}
	for _, doc := range docs {
		var wd gc.Withdrawal
		if err := json.Unmarshal(doc, &wd); err != nil {
			return gc.Page[gc.Withdrawal]{}, fmt.Errorf("sandbox: decode withdrawal: %w", err)
		}
		out.Data = append(out.Data, s.wireWithdrawal(&wd, now))
	}
	return out, nil
}

// The indexes of the deposits table that queries name.
const (
	idxDepositsCreated = "deposits_client_created"
	idxDepositsStatus  = "deposits_client_status_created"
	idxDepositsAmount  = "deposits_client_amount_v3"
)

// maxPageScan bounds the index entries a newest-first scan may be expected to read.
const maxPageScan = 20000

// depositPageIndex picks the index for a page of an amount-filtered list. SQLite's planner
// prefers the amount index for an amount range, which then sorts every match by date: slow
// when the range holds many deposits. Walking the date index newest first and skipping
// non-matches reads about need × all/total entries, all being every deposit of the date
// range; when that is small, that walk is used. With one status, the same holds for that
// status's index (also newest first). Otherwise (few matches) the planner's choice stands.
func (s *Sandbox) depositPageIndex(ctx context.Context, clientID string, f gc.DepositFilter, total, need int) (string, error) {
	if f.MinAmount == 0 && f.MaxAmount == 0 || total == 0 {
		return "", nil
	}
	cheap := func(within gc.DepositFilter) (bool, error) {
		all, err := s.depositTotal(ctx, clientID, within)
		if err != nil || all < 0 {
			return false, err
		}
		return int64(need)*int64(all)/int64(total) <= maxPageScan, nil
	}
	dates := gc.DepositFilter{StartDate: f.StartDate, EndDate: f.EndDate}
	if ok, err := cheap(dates); ok || err != nil {
		return idxDepositsCreated, err
	}
	if len(f.Status) == 1 {
		dates.Status = f.Status
		if ok, err := cheap(dates); ok || err != nil {
			return idxDepositsStatus, err
		}
	}
	return "", nil
}
