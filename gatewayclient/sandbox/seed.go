package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// SeedRequest is the body of POST sandbox/seed.
type SeedRequest struct {
	Deposits    int    `json:"deposits"`    // 0..2000000
	Withdrawals int    `json:"withdrawals"` // 0..1000000
	Seed        uint64 `json:"seed"`        // same seed and same sandbox time → same records
}

// SeedResult is the answer of POST sandbox/seed.
type SeedResult struct {
	Deposits    int    `json:"deposits"`
	Withdrawals int    `json:"withdrawals"`
	Seed        uint64 `json:"seed"`
	ElapsedMs   int64  `json:"elapsedMs"`
}

// Seed limits.
const (
	maxSeedDeposits    = 2_000_000
	maxSeedWithdrawals = 1_000_000
	seedSpan           = 90 * 24 * time.Hour // records spread over the last 90 days
	seedChunk          = 256                 // rows per multi-row INSERT
)

// handleSeed is POST sandbox/seed.
func (s *Sandbox) handleSeed(w http.ResponseWriter, r *http.Request, p principal) {
	var req SeedRequest
	if err := decodeControlBody(r, &req); err != nil {
		s.respondError(w, r, err)
		return
	}
	res, err := s.Seed(r.Context(), p.clientID, req)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, res)
}

// Seed adds realistic deposits and withdrawals of clientID, spread over the 90 days before
// the sandbox clock's current time, in every state and both origins, with status histories
// that follow the state machine. The records depend only on the seed and that time: seeding
// the same seed again adds nothing (the ids repeat and are skipped). Seeded records store no
// QR code image; reads make it when needed (see the package doc). Everything is written in
// one transaction.
func (s *Sandbox) Seed(ctx context.Context, clientID string, req SeedRequest) (SeedResult, error) {
	ve := &gc.ValidationError{Kind: gc.KindValidation}
	if req.Deposits < 0 || req.Deposits > maxSeedDeposits {
		ve.Violations = append(ve.Violations, gc.Violation{Field: "deposits", Code: gc.CodeMax,
			Message: fmt.Sprintf("must be between 0 and %d", maxSeedDeposits)})
	}
	if req.Withdrawals < 0 || req.Withdrawals > maxSeedWithdrawals {
		ve.Violations = append(ve.Violations, gc.Violation{Field: "withdrawals", Code: gc.CodeMax,
			Message: fmt.Sprintf("must be between 0 and %d", maxSeedWithdrawals)})
	}
	if len(ve.Violations) > 0 {
		return SeedResult{}, ve
	}
	start := time.Now()
	now := msTime(s.clock.Now())
	// The writer's one connection, held for the whole seed: other writes wait for it.
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return SeedResult{}, fmt.Errorf("sandbox: seed: %w", err)
	}
	defer conn.Close()
	// A large page cache keeps the index B-trees in memory while a million rows go in.
	if _, err := conn.ExecContext(ctx, `PRAGMA cache_size = -262144`); err != nil {
		return SeedResult{}, fmt.Errorf("sandbox: seed: %w", err)
	}
	defer conn.ExecContext(context.Background(), `PRAGMA cache_size = -2000`) //nolint:errcheck // back to the default
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return SeedResult{}, fmt.Errorf("sandbox: seed: %w", err)
	}
	defer tx.Rollback()
	gen := &seeder{s: s, seed: req.Seed, now: now}
	if err := insertSeeded(ctx, tx, "deposits", depositColumns, req.Deposits, func(i int) ([]any, error) {
		return gen.deposit(clientID, i, req.Deposits)
	}); err != nil {
		return SeedResult{}, err
	}
	if err := insertSeeded(ctx, tx, "withdrawals", withdrawalColumns, req.Withdrawals, func(i int) ([]any, error) {
		return gen.withdrawal(clientID, i, req.Withdrawals)
	}); err != nil {
		return SeedResult{}, err
	}
	if err := tx.Commit(); err != nil {
		return SeedResult{}, fmt.Errorf("sandbox: seed: commit: %w", err)
	}
	// Fresh statistics let the query planner pick the right index for each filter mix.
	if _, err := conn.ExecContext(ctx, `ANALYZE`); err != nil {
		return SeedResult{}, fmt.Errorf("sandbox: seed: analyze: %w", err)
	}
	return SeedResult{Deposits: req.Deposits, Withdrawals: req.Withdrawals, Seed: req.Seed,
		ElapsedMs: time.Since(start).Milliseconds()}, nil
}

// Column lists of the seeded tables, in the order the generators return values.
var (
	depositColumns    = []string{"id", "client_id", "status", "amount", "origin", "created_at", "expires_at", "external_code", "doc"}
	withdrawalColumns = []string{"id", "client_id", "status", "amount", "created_at", "external_code", "end_to_end", "end_to_end_refund", "pix_key", "doc"}
)

// insertSeeded writes n generated rows into table, seedChunk rows per INSERT.
func insertSeeded(ctx context.Context, tx *sql.Tx, table string, cols []string, n int, row func(i int) ([]any, error)) error {
	stmts := map[int]*sql.Stmt{} // one prepared statement per chunk size: the full one and the last
	defer func() {
		for _, st := range stmts {
			st.Close()
		}
	}()
	for lo := 0; lo < n; lo += seedChunk {
		rows := min(seedChunk, n-lo)
		args := make([]any, 0, rows*len(cols))
		for i := lo; i < lo+rows; i++ {
			vals, err := row(i)
			if err != nil {
				return err
			}
			args = append(args, vals...)
		}
		st, ok := stmts[rows]
		if !ok {
			var err error
			if st, err = tx.PrepareContext(ctx, insertSQL(table, cols, rows)); err != nil {
				return fmt.Errorf("sandbox: seed %s: %w", table, err)
			}
			stmts[rows] = st
		}
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("sandbox: seed %s: %w", table, err)
		}
	}
	return nil
}

// insertSQL is "INSERT OR IGNORE INTO table (cols) VALUES (?,…),…" for rows rows.
func insertSQL(table string, cols []string, rows int) string {
	var b strings.Builder
	b.WriteString("INSERT OR IGNORE INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES ")
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(one)
	}
	return b.String()
}

// seeder generates seeded records. Record i of a run draws from its own PCG generator seeded
// with (seed, kind, i), so records are reproducible one by one.
type seeder struct {
	s    *Sandbox
	seed uint64
	now  time.Time
}

// rng returns the generator of record i of a kind.
func (g *seeder) rng(kind uint64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(g.seed, kind<<56^uint64(i)))
}

// createdAt spreads n records evenly (with jitter) over the span, oldest first.
func (g *seeder) createdAt(r *rand.Rand, i, n int) time.Time {
	step := seedSpan / time.Duration(n)
	t := g.now.Add(-seedSpan).Add(time.Duration(i)*step + time.Duration(r.Int64N(int64(max(step, 1)))))
	return msTime(t)
}

// amount draws a realistic amount: mostly small sales, some large ones.
func seedAmount(r *rand.Rand, lo gc.Cents) gc.Cents {
	var a gc.Cents
	switch x := r.IntN(100); {
	case x < 60:
		a = gc.Cents(500 + r.IntN(20_000)) // R$ 5 to R$ 205
	case x < 90:
		a = gc.Cents(20_000 + r.IntN(200_000)) // up to R$ 2.200
	default:
		a = gc.Cents(200_000 + r.IntN(9_800_000)) // up to R$ 100.000
	}
	return max(a, lo)
}

// deposit generates the columns of seeded deposit i of n.
func (g *seeder) deposit(clientID string, i, n int) ([]any, error) {
	r := g.rng(1, i)
	created := g.createdAt(r, i, n)
	id := uuidFrom(r)
	amount := seedAmount(r, gc.MinAmount)
	d := &gc.Deposit{
		ID:            id,
		AcquirerCode:  txID(id),
		Acquirer:      acquirerName,
		Amount:        amount,
		PaymentMethod: gc.PaymentMethodPIX,
		CreatedAt:     created,
		DepositOrigin: gc.OriginQRCode,
	}
	if r.IntN(4) == 0 {
		d.ExternalCode = fmt.Sprintf("seed-%d-%08d", g.seed, i)
	}
	first := gc.DepositPixQRCodeGenerated
	if r.IntN(100) < 15 {
		d.DepositOrigin = gc.OriginPixKey
		first = gc.DepositPixKeyGenerated
	}
	uri, err := g.s.brCode(id, int64(amount))
	if err != nil {
		return nil, err
	}
	expiry := created.Add(gc.DefaultExpirationSeconds * time.Second)
	d.PixResponse = &gc.PixResponse{URI: uri, ExpirationDate: expiry}

	// The path of states the record went through, chosen by its draw.
	p := &depositPath{d: d, r: r, now: g.now, t: created, hist: []gc.StatusHistory{}}
	x := r.IntN(1000)
	if x < 5 { // created, never processed
		p.move(gc.DepositPending, 0)
	} else {
		p.move(first, 0)
	}
	p.settle(x, expiry)
	d.StatusHistory = p.hist
	d.UpdatedAt = p.hist[len(p.hist)-1].Date
	if d.UpdatedAt.Before(p.t) {
		d.UpdatedAt = p.t
	}
	doc, err := encodeDeposit(d)
	if err != nil {
		return nil, err
	}
	return []any{d.ID, clientID, string(d.Status), int64(d.Amount), string(d.DepositOrigin), d.CreatedAt.UnixMilli(),
		expiresAt(d), nullString(d.ExternalCode), doc}, nil
}

// depositPath is a seeded deposit on its way through its states, the last at t (never after now).
type depositPath struct {
	d      *gc.Deposit
	r      *rand.Rand
	now, t time.Time
	hist   []gc.StatusHistory
}

// move moves the deposit to st after the given time.
func (p *depositPath) move(st gc.DepositStatus, after time.Duration) {
	p.t = p.t.Add(after)
	if p.t.After(p.now) {
		p.t = p.now
	}
	p.hist = append(p.hist, gc.StatusHistory{Status: string(st), Date: p.t})
	p.d.Status = st
}

// pay pays the deposit in full a few minutes on.
func (p *depositPath) pay() {
	d, r := p.d, p.r
	p.move(gc.DepositPaid, time.Duration(5+r.IntN(600))*time.Second)
	paid := d.Amount
	d.AmountPaid = &paid
	d.PaymentDate = p.t
	d.Payer = randomHolder(r)
	d.EndToEnd = endToEndID(r, "E", d.Payer.BankAccount.ISPB, p.t)
	f := fee(paid)
	d.FeeAmount = &f
	d.PaymentReceipt = receipt("payment", d.EndToEnd, p.t)
}

// settle takes the deposit from its first state, as the draw x (of 1000) says: most are paid,
// some expire unpaid (a few paid late), fail or wait for compliance.
func (p *depositPath) settle(x int, expiry time.Time) {
	d := p.d
	unpaidExpired := d.Status == gc.DepositPixQRCodeGenerated && !expiry.After(p.now)
	switch {
	case d.Status == gc.DepositPending:
	case x < 180 && d.Status == gc.DepositPixQRCodeGenerated: // QR code never paid
		if unpaidExpired {
			p.hist = append(p.hist, gc.StatusHistory{Status: string(gc.DepositFailed), Date: expiry})
			d.Status, d.ErrorMessage, p.t = gc.DepositFailed, expiredReason, expiry
			if x < 10 { // paid late
				p.pay()
			}
		}
	case x < 180: // a PIX key deposit still waiting
	case x < 210:
		p.move(gc.DepositFailed, time.Duration(1+p.r.IntN(300))*time.Second)
		d.ErrorMessage = "payment failed"
	case x < 220:
		p.move(gc.DepositPendingCompliance, time.Duration(1+p.r.IntN(300))*time.Second)
	default:
		p.pay()
		p.afterPaid(p.r.IntN(1000))
	}
}

// afterPaid takes a paid deposit on, as the draw y (of 1000) says: a few are refunded, blocked
// (most of those ending in an infraction) or held for compliance.
func (p *depositPath) afterPaid(y int) {
	d, r := p.d, p.r
	switch {
	case y < 60:
		p.move(gc.DepositProcessingRefund, time.Duration(1+r.IntN(72))*time.Hour)
		ra := paidAmount(d)
		d.RefundAmount = &ra
		if y < 50 {
			p.move(gc.DepositRefunded, time.Duration(1+r.IntN(120))*time.Minute)
			refundDone(d, p.t, r)
		}
	case y < 90:
		p.move(gc.DepositBlocked, time.Duration(1+r.IntN(240))*time.Hour)
		if y < 80 {
			p.move(gc.DepositProcessingInfraction, time.Duration(1+r.IntN(72))*time.Hour)
		}
		if y < 70 {
			p.move(gc.DepositInfraction, time.Duration(1+r.IntN(72))*time.Hour)
			refundDone(d, p.t, r)
		}
	case y < 100:
		p.move(gc.DepositPendingCompliance, time.Duration(1+r.IntN(24))*time.Hour)
	}
}

// withdrawal generates the columns of seeded withdrawal i of n.
func (g *seeder) withdrawal(clientID string, i, n int) ([]any, error) {
	r := g.rng(2, i)
	created := g.createdAt(r, i, n)
	wd := &gc.Withdrawal{
		ID:            uuidFrom(r),
		Acquirer:      acquirerName,
		Amount:        seedAmount(r, gc.MinWithdrawalFilterAmount),
		Method:        gc.PaymentMethodPIX,
		CreatedAt:     created,
		Status:        gc.WithdrawalPending,
		StatusHistory: []gc.StatusHistory{{Status: string(gc.WithdrawalPending), Date: created}},
		UpdatedAt:     created,
		Receiver:      randomHolder(r),
	}
	wd.AcquirerCode = txID(wd.ID)
	pk := wd.Receiver.Pix
	wd.PixKey = &pk
	if r.IntN(2) == 0 {
		wd.ExternalCode = fmt.Sprintf("seed-w-%d-%08d", g.seed, i)
	}
	var path []gc.WithdrawalStatus
	switch x := r.IntN(100); {
	case x < 3:
	case x < 5:
		path = []gc.WithdrawalStatus{gc.WithdrawalPendingCompliance}
	case x < 8:
		path = []gc.WithdrawalStatus{gc.WithdrawalCanceled}
	case x < 11:
		path = []gc.WithdrawalStatus{gc.WithdrawalRejected}
	case x < 13:
		path = []gc.WithdrawalStatus{gc.WithdrawalProcessing}
	case x < 17:
		path = []gc.WithdrawalStatus{gc.WithdrawalProcessing, gc.WithdrawalFailed}
	case x < 20:
		path = []gc.WithdrawalStatus{gc.WithdrawalProcessing, gc.WithdrawalProcessed, gc.WithdrawalRefunded}
	default:
		path = []gc.WithdrawalStatus{gc.WithdrawalProcessing, gc.WithdrawalProcessed}
	}
	t := created
	for _, st := range path {
		t = t.Add(time.Duration(1+r.IntN(600)) * time.Second)
		if t.After(g.now) {
			t = g.now
		}
		applyWithdrawal(wd, st, t, r, "")
	}
	doc, err := json.Marshal(wd)
	if err != nil {
		return nil, fmt.Errorf("sandbox: seed: encode withdrawal: %w", err)
	}
	return []any{wd.ID, clientID, string(wd.Status), int64(wd.Amount), wd.CreatedAt.UnixMilli(), nullString(wd.ExternalCode),
		nullString(wd.EndToEnd), nullString(wd.EndToEndRefund), nullString(pixKeyOf(wd)), doc}, nil
}
