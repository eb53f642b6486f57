package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

func TestSeedDeterministicRealisticConsistent(t *testing.T) {
	t.Parallel()
	a := newEnv(t, nil)
	b := newEnv(t, nil)
	ctx := context.Background()
	// Enough records for every state, the rarest (PENDING, 0.5%) included, with seed 42.
	const deposits, withdrawals = 1000, 300
	req := SeedRequest{Deposits: deposits, Withdrawals: withdrawals, Seed: 42}
	for _, e := range []*env{a, b} {
		var res SeedResult
		e.doJSON("POST", "/sandbox/seed", e.token(), req, 201, &res)
		if res.Deposits != deposits || res.Withdrawals != withdrawals {
			t.Fatalf("seed result %+v", res)
		}
	}
	// Same seed, same time: the same records (the merchant, made per data dir, aside).
	docs := func(e *env, table string) []string {
		return queryStrings(t, e.sb.w, `SELECT id || status || amount || created_at FROM `+table+` ORDER BY id`)
	}
	for _, table := range []string{"deposits", "withdrawals"} {
		if da, db := docs(a, table), docs(b, table); !slices.Equal(da, db) || len(da) == 0 {
			t.Fatalf("%s differ between two runs of seed 42 (%d vs %d rows)", table, len(da), len(db))
		}
	}
	// Seeding again adds nothing; another seed adds new records.
	var page gc.Page[gc.Deposit]
	tok := a.token()
	a.doJSON("POST", "/sandbox/seed", tok, req, 201, nil)
	a.doJSON("GET", "/deposit", tok, nil, 200, &page)
	if page.Total != deposits {
		t.Fatalf("after seeding twice: %d deposits", page.Total)
	}
	a.doJSON("POST", "/sandbox/seed", tok, SeedRequest{Deposits: 10, Seed: 43}, 201, nil)
	a.doJSON("GET", "/deposit", tok, nil, 200, &page)
	if page.Total != deposits+10 {
		t.Fatalf("after another seed: %d deposits", page.Total)
	}

	// Every state and both origins; histories follow the state machine; fields fit the state.
	states := map[gc.DepositStatus]int{}
	origins := map[gc.DepositOrigin]int{}
	now := a.sb.Now()
	rows, err := a.sb.w.QueryContext(ctx, `SELECT doc FROM deposits`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var doc []byte
		if err := rows.Scan(&doc); err != nil {
			t.Fatal(err)
		}
		var d gc.Deposit
		if err := json.Unmarshal(doc, &d); err != nil {
			t.Fatal(err)
		}
		states[d.Status]++
		origins[d.DepositOrigin]++
		checkSeededDeposit(t, &d, now)
	}
	rows.Close()
	for _, st := range gc.DepositStatuses() {
		if states[st] == 0 && st != gc.DepositPixQRCodeGenerated {
			t.Errorf("no seeded deposit in state %s (%v)", st, states)
		}
	}
	if origins[gc.OriginQRCode] == 0 || origins[gc.OriginPixKey] == 0 {
		t.Errorf("origins %v", origins)
	}
	wstates := map[gc.WithdrawalStatus]int{}
	var wp gc.Page[gc.Withdrawal]
	for p := 1; ; p++ {
		a.doJSON("GET", "/withdrawal?perPage=100&page="+strconv.Itoa(p), tok, nil, 200, &wp)
		for _, w := range wp.Data {
			wstates[w.Status]++
			for i := 1; i < len(w.StatusHistory); i++ {
				if !canMoveWithdrawal(gc.WithdrawalStatus(w.StatusHistory[i-1].Status), gc.WithdrawalStatus(w.StatusHistory[i].Status)) {
					t.Fatalf("withdrawal history %+v breaks the state machine", w.StatusHistory)
				}
			}
		}
		if p >= wp.TotalPages {
			break
		}
	}
	for _, st := range gc.WithdrawalStatuses() {
		if wstates[st] == 0 {
			t.Errorf("no seeded withdrawal in state %s (%v)", st, wstates)
		}
	}
	// Pages of seeded deposits come back through the API with masked payers and valid codes.
	a.doJSON("GET", "/deposit?status=PAID&perPage=5", tok, nil, 200, &page)
	for _, d := range page.Data {
		if d.Payer == nil || !strings.Contains(d.Payer.Document, "***") || d.Receiver == nil {
			t.Fatalf("seeded PAID deposit %+v", d)
		}
	}
	var one gc.Deposit
	a.doJSON("GET", "/deposit/"+page.Data[0].ID, tok, nil, 200, &one)
	checkPix(t, one.PixResponse, one.Amount) // the image is made on read
}

// checkSeededDeposit checks a seeded deposit against the state machine and its state's fields.
func checkSeededDeposit(t *testing.T, d *gc.Deposit, now interface{ UnixMilli() int64 }) {
	t.Helper()
	h := d.StatusHistory
	if len(h) == 0 || h[len(h)-1].Status != string(d.Status) {
		t.Fatalf("history %+v does not end in %s", h, d.Status)
	}
	for i := 1; i < len(h); i++ {
		prev := &gc.Deposit{Status: gc.DepositStatus(h[i-1].Status), ErrorMessage: d.ErrorMessage}
		if !canMoveDeposit(prev, gc.DepositStatus(h[i].Status)) || h[i].Date.Before(h[i-1].Date) {
			t.Fatalf("history %+v breaks the state machine at %d", h, i)
		}
	}
	if h[len(h)-1].Date.UnixMilli() > now.UnixMilli() || d.CreatedAt.UnixMilli() > now.UnixMilli() {
		t.Fatalf("deposit %s dated in the future", d.ID)
	}
	if d.Amount < gc.MinAmount || d.Amount > gc.MaxAmount {
		t.Fatalf("amount %d", d.Amount)
	}
	// A PIX key deposit starts as DEPOSIT_PIXKEY_GENERATED and a QR code one as
	// PIX_QRCODE_GENERATED (either may start PENDING); neither ever shows the other's.
	first, other := gc.DepositPixQRCodeGenerated, gc.DepositPixKeyGenerated
	if d.DepositOrigin == gc.OriginPixKey {
		first, other = other, first
	}
	if h[0].Status != string(first) && h[0].Status != string(gc.DepositPending) {
		t.Fatalf("%s deposit starts %s", d.DepositOrigin, h[0].Status)
	}
	for _, x := range h {
		if x.Status == string(other) {
			t.Fatalf("%s deposit went through %s", d.DepositOrigin, other)
		}
	}
	switch d.Status {
	case gc.DepositPaid, gc.DepositRefunded, gc.DepositInfraction, gc.DepositProcessingRefund, gc.DepositBlocked:
		if d.AmountPaid == nil || d.Payer == nil || !validE2E(d.EndToEnd, 'E') {
			t.Fatalf("%s deposit without payment fields: %+v", d.Status, d)
		}
	}
	if (d.Status == gc.DepositRefunded || d.Status == gc.DepositInfraction) && !validE2E(d.EndToEndRefund, 'D') {
		t.Fatalf("%s without endToEndRefund", d.Status)
	}
}

// TestSeededDepositsStoreNoQR checks that seeded deposits store no QR image, while those still
// awaiting payment (a few among the newest 200 of a million) show a valid one in a list.
func TestSeededDepositsStoreNoQR(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ctx := context.Background()
	g := &seeder{s: e.sb, seed: 1, now: e.sb.Now()}
	const n, newest = 1_000_000, 200
	err := e.sb.write(ctx, func(tx *sql.Tx) error {
		return insertSeeded(ctx, tx, "deposits", depositColumns, newest, func(i int) ([]any, error) {
			return g.deposit(testClientID, n-newest+i, n)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	var stored int
	if err := e.sb.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM deposits
		WHERE COALESCE(json_extract(doc, '$.pixResponse.qrCodeBase64'), '') != ''`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if stored != 0 {
		t.Fatalf("%d seeded deposits store a QR image", stored)
	}
	page, err := e.sb.ListDeposits(ctx, testClientID, gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositPixQRCodeGenerated}, PerPage: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Data) == 0 {
		t.Fatalf("no seeded deposit awaiting payment among the newest %d of a million", newest)
	}
	for _, d := range page.Data {
		checkPix(t, d.PixResponse, d.Amount)
	}
}
