package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/gatewayclient/decode"
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

// listDocs returns the docs of one page of table under w, newest first, when the list holds
// total rows. A page past the end is empty (page is compared with the number of pages, so no
// offset is computed that could overflow).
func (s *Sandbox) listDocs(ctx context.Context, table string, w *where, total, page, perPage int) ([][]byte, error) {
	if page > totalPages(total, perPage) {
		return nil, nil
	}
	// The page's ids come from an index alone; only those rows are then read in full.
	args := append(append([]any(nil), w.args...), perPage, (page-1)*perPage)
	rows, err := s.r.QueryContext(ctx, `SELECT doc FROM `+table+` WHERE id IN (SELECT id FROM `+table+` WHERE `+w.sql()+
		` ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) ORDER BY created_at DESC, id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("sandbox: list %s: %w", table, err)
	}
	defer rows.Close()
	var docs [][]byte
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			return nil, fmt.Errorf("sandbox: list %s: %w", table, err)
		}
		docs = append(docs, doc)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sandbox: list %s: %w", table, err)
	}
	return docs, nil
}

// countDeposits returns how many deposits of clientID match f: a COUNT(*) that reads index
// entries only, since each of the list indexes (0002_deposit_lists.sql) holds every filter
// column. With no date, status or amount in f, SQLite's planner (its statistics after a seed
// say that every deposit has the same client) would read the whole table, records and all,
// instead, ten times slower on a seeded sandbox: the date index is named then.
func (s *Sandbox) countDeposits(ctx context.Context, clientID string, f gc.DepositFilter) (int, error) {
	w := depositWhere(clientID, f)
	from := "deposits"
	if f.StartDate.IsZero() && f.EndDate.IsZero() && len(f.Status) == 0 && f.MinAmount == 0 && f.MaxAmount == 0 {
		from += " INDEXED BY deposits_by_date"
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+from+` WHERE `+w.sql(), w.args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("sandbox: count deposits: %w", err)
	}
	return n, nil
}

// totalPages is ceil(total / perPage).
func totalPages(total, perPage int) int {
	return (total + perPage - 1) / perPage
}

// handleListDeposits is GET /deposit.
func (s *Sandbox) handleListDeposits(w http.ResponseWriter, r *http.Request, p principal) {
	// decode.DepositFilter also refuses minAmount=0 and maxAmount=0 sent explicitly.
	f, err := decode.DepositQuery(r.URL.RawQuery, "page", "perPage")
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
	total, err := s.countDeposits(ctx, clientID, f)
	if err != nil {
		return gc.Page[gc.Deposit]{}, err
	}
	docs, err := s.listDocs(ctx, "deposits", depositWhere(clientID, f), total, page, perPage)
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
		// A record awaiting payment shows its QR image (made here for a seeded one, a few per
		// million: those of the last half hour); other seeded records list it empty.
		var qr string
		if d.Status == gc.DepositPixQRCodeGenerated {
			if qr, err = missingQR(&d); err != nil {
				return gc.Page[gc.Deposit]{}, err
			}
		}
		out.Data = append(out.Data, s.wireDeposit(&d, now, qr))
	}
	return out, nil
}

// handleListWithdrawals is GET /withdrawal.
func (s *Sandbox) handleListWithdrawals(w http.ResponseWriter, r *http.Request, p principal) {
	f, err := decode.WithdrawalQuery(r.URL.RawQuery, "page", "perPage")
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
	w := withdrawalWhere(clientID, f)
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM withdrawals WHERE `+w.sql(), w.args...).Scan(&total); err != nil {
		return gc.Page[gc.Withdrawal]{}, fmt.Errorf("sandbox: count withdrawals: %w", err)
	}
	docs, err := s.listDocs(ctx, "withdrawals", w, total, page, perPage)
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
