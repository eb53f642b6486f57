package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Contract tests: the real gatewayclient against the real sandbox over HTTP.

func TestContractCreateGetList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.client(gc.WithClock(clientClock{e.sb}))
	ctx := context.Background()
	tx, err := c.CreateTransaction(ctx, txRequest("contract-1", 999))
	if err != nil {
		t.Fatal(err)
	}
	checkPix(t, tx.PixResponse, 999)
	d, err := c.GetDeposit(ctx, tx.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != tx.ID || d.Amount != 999 || d.ExternalCode != "order-contract-1" {
		t.Fatalf("deposit %+v", d)
	}
	page, err := c.ListDeposits(ctx, gc.DepositFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 1 || page.TotalPages != 1 || page.CurrentPage != 1 || page.PerPage != DefaultPerPage || page.Data[0].ID != tx.ID {
		t.Fatalf("page %+v", page)
	}
	wp, err := c.ListWithdrawals(ctx, gc.WithdrawalFilter{})
	if err != nil || wp.Total != 0 || wp.Data == nil {
		t.Fatalf("withdrawals %+v %v (data must be [] not null)", wp, err)
	}
	// 404 through the client.
	if _, err := c.GetDeposit(ctx, newUUID()); !errors.Is(err, gc.ErrNotFound) {
		t.Fatalf("unknown deposit: %v", err)
	}
}

func TestContractAuthErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) {
		o.Clients = append(o.Clients, ClientConfig{ID: "reader", Secret: "reader-secret", Scopes: []string{ScopeDepositsRead}})
	})
	ctx := context.Background()
	bad, err := gc.New(e.srv.URL, testClientID, "wrong", gc.WithRetryPolicy(gc.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.ListDeposits(ctx, gc.DepositFilter{}); !errors.Is(err, gc.ErrInvalidCredentials) {
		t.Fatalf("wrong secret: %v", err)
	}
	reader, err := gc.New(e.srv.URL, "reader", "reader-secret", gc.WithRetryPolicy(gc.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reader.ListDeposits(ctx, gc.DepositFilter{}); err != nil {
		t.Fatalf("reader may list deposits: %v", err)
	}
	_, err = reader.CreateTransaction(ctx, txRequest("reader-1", 100))
	var ae *gc.APIError
	if !errors.Is(err, gc.ErrForbidden) || !errors.As(err, &ae) || ae.StatusCode != 403 {
		t.Fatalf("reader creating: %v", err)
	}
	if _, err := reader.ListWithdrawals(ctx, gc.WithdrawalFilter{}); !errors.Is(err, gc.ErrForbidden) {
		t.Fatalf("reader listing withdrawals: %v", err)
	}
	// Token endpoint 502 by fault.
	e.sb.faults.add(Fault{Kind: FaultToken502, Count: 1})
	fresh := e.client()
	if _, err := fresh.ListDeposits(ctx, gc.DepositFilter{}); !errors.Is(err, gc.ErrAuthProviderUnavailable) {
		t.Fatalf("token 502: %v", err)
	}
}

func TestContractIdempotency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.client()
	ctx := context.Background()
	req := txRequest("same-key-1", 4242)
	first, err := c.CreateTransaction(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.CreateTransaction(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if *first.PixResponse != *again.PixResponse || first.ID != again.ID {
		t.Fatalf("the same request gave a different answer:\n%+v\n%+v", first, again)
	}
	other := req
	other.Amount = 4243
	_, err = c.CreateTransaction(ctx, other)
	var ae *gc.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 422 || ae.Kind != gc.KindValidation ||
		!slices.Contains(ae.Messages, "idempotencyKey: already used with a different request body") {
		t.Fatalf("same key, other body: %v", err)
	}
	// 50 concurrent identical requests: one deposit, one answer.
	conc := txRequest("concurrent-1", 777)
	var wg sync.WaitGroup
	ids := make([]string, 50)
	errs := make([]error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tx, err := c.CreateTransaction(ctx, conc)
			errs[i] = err
			if err == nil {
				ids[i] = tx.ID
			}
		}()
	}
	wg.Wait()
	for i := range 50 {
		if errs[i] != nil {
			t.Fatalf("request %d: %v", i, errs[i])
		}
		if ids[i] != ids[0] {
			t.Fatalf("request %d got id %s, request 0 got %s", i, ids[i], ids[0])
		}
	}
	page, err := c.ListDeposits(ctx, gc.DepositFilter{MinAmount: 777, MaxAmount: 777})
	if err != nil || page.Total != 1 {
		t.Fatalf("deposits of 777 cents: %+v %v; want exactly one", page, err)
	}
}

func TestContractRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) { o.RateLimit = RateLimit{Requests: 1, Period: 10 * time.Second, Burst: 3} })
	c := e.client(gc.WithClock(clientClock{e.sb}))
	ctx := context.Background()
	for i := range 3 {
		if _, err := c.CreateTransaction(ctx, txRequest(fmt.Sprintf("rate-%04d", i), 100)); err != nil {
			t.Fatalf("request %d within the burst: %v", i, err)
		}
	}
	_, err := c.CreateTransaction(ctx, txRequest("rate-0003", 100))
	var ae *gc.APIError
	if !errors.Is(err, gc.ErrRateLimited) || !errors.As(err, &ae) || ae.RetryAfter != 10*time.Second {
		t.Fatalf("over the limit: %v (RetryAfter %v)", err, ae)
	}
	st, h, b := e.do("POST", "/transaction", e.token(), txRequest("rate-0004", 100))
	if st != 429 || h.Get("Retry-After") != "10" {
		t.Fatalf("raw: %d Retry-After %q", st, h.Get("Retry-After"))
	}
	decodeErr(t, b)
	e.clock.Advance(10 * time.Second)
	if _, err := c.CreateTransaction(ctx, txRequest("rate-0005", 100)); err != nil {
		t.Fatalf("after the refill: %v", err)
	}
}

func TestContractFaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	// Unpaced: a paced client would hold each call after the injected 429 and the dropped
	// connection for their Retry-After and backoff, in real time; this test is about what the
	// sandbox answers, which the client's pacing does not change.
	c := e.client(gc.WithPacing(false))
	ctx := context.Background()
	tok := e.token()
	// 500 after commit: the deposit exists, the answer reveals nothing, a retry with the same
	// key gets the original answer.
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultError500AfterCommit, Path: "/transaction"}, 201, nil)
	st, _, b := e.do("POST", "/transaction", tok, txRequest("fault-0001", 321))
	if st != 500 {
		t.Fatalf("status %d", st)
	}
	eb := decodeErr(t, b)
	if string(eb.Message) != `"internal error"` || strings.Contains(string(b), "fault") || strings.Contains(string(b), "sql") {
		t.Fatalf("500 body reveals too much: %s", b)
	}
	tx, err := c.CreateTransaction(ctx, txRequest("fault-0001", 321))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := c.ListDeposits(ctx, gc.DepositFilter{})
	if page.Total != 1 || page.Data[0].ID != tx.ID {
		t.Fatalf("after the retry: %+v", page)
	}
	// rate_limit fault.
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultRateLimit, Count: 1}, 201, nil)
	if _, err := c.ListDeposits(ctx, gc.DepositFilter{}); !errors.Is(err, gc.ErrRateLimited) {
		t.Fatalf("rate_limit fault: %v", err)
	}
	// drop_connection: a transport failure.
	// (Count 2: net/http retries an idempotent request once when a reused connection closes.)
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultDropConnection, Path: "/deposit", Count: 2}, 201, nil)
	if _, err := c.ListDeposits(ctx, gc.DepositFilter{}); !errors.Is(err, gc.ErrGatewayUnavailable) {
		t.Fatalf("dropped connection: %v", err)
	}
	e.doJSON("DELETE", "/sandbox/faults", tok, nil, 200, nil)
	// latency: applied, then gone (the test only checks it is consumed, not how long it took).
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultLatency, LatencyMs: 5, Count: 2}, 201, nil)
	for range 2 {
		if _, err := c.ListDeposits(ctx, gc.DepositFilter{}); err != nil {
			t.Fatal(err)
		}
	}
	var left struct{ Faults []Fault }
	e.doJSON("GET", "/sandbox/faults", tok, nil, 200, &left)
	if len(left.Faults) != 0 {
		t.Fatalf("faults left: %+v", left.Faults)
	}
	if st, _, _ := e.do("POST", "/sandbox/faults", tok, Fault{Kind: "meteor"}); st != 422 {
		t.Fatalf("unknown fault kind: %d", st)
	}
}

func TestContractDepositFiltersAndPagination(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.client(gc.WithClock(clientClock{e.sb}))
	ctx := context.Background()
	tok := e.token()
	// 25 deposits one minute apart, amounts 100..2500.
	var ids []string
	var times []time.Time
	for i := range 25 {
		tx := e.createTx(tok, fmt.Sprintf("filter-%04d", i), gc.Cents(100*(i+1)))
		ids = append(ids, tx.ID)
		times = append(times, e.sb.Now())
		e.clock.Advance(time.Minute)
	}
	// Statuses: 0-4 paid, 5-6 failed.
	for i := range 5 {
		e.doJSON("POST", "/sandbox/deposits/"+ids[i]+"/pay", tok, nil, 200, nil)
	}
	for i := 5; i < 7; i++ {
		e.doJSON("POST", "/sandbox/deposits/"+ids[i]+"/fail", tok, nil, 200, nil)
	}
	// One PIX_KEY deposit (origin set directly: the API only makes QR code deposits).
	if _, err := e.sb.w.Exec(`UPDATE deposits SET origin = 'PIX_KEY', doc = json_set(doc, '$.depositOrigin', 'PIX_KEY') WHERE id = ?`, ids[24]); err != nil {
		t.Fatal(err)
	}
	got := func(f gc.DepositFilter) []string {
		t.Helper()
		var out []string
		for d, err := range c.AllDeposits(ctx, f) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, d.ID)
		}
		return out
	}
	rev := func(idx ...int) []string {
		var out []string
		for _, i := range idx {
			out = append(out, ids[i])
		}
		slices.Reverse(out)
		return out
	}
	span := func(a, b int) []int {
		var out []int
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
		return out
	}
	for name, tc := range map[string]struct {
		f    gc.DepositFilter
		want []string
	}{
		"all, newest first":  {gc.DepositFilter{}, rev(span(0, 24)...)},
		"status PAID":        {gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositPaid}}, rev(0, 1, 2, 3, 4)},
		"status PAID+FAILED": {gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositFailed, gc.DepositPaid}}, rev(span(0, 6)...)},
		"minAmount":          {gc.DepositFilter{MinAmount: 2300}, rev(22, 23, 24)},
		"maxAmount":          {gc.DepositFilter{MaxAmount: 200}, rev(0, 1)},
		"amount range":       {gc.DepositFilter{MinAmount: 500, MaxAmount: 700}, rev(4, 5, 6)},
		"startDate":          {gc.DepositFilter{StartDate: times[20]}, rev(20, 21, 22, 23, 24)},
		"endDate":            {gc.DepositFilter{EndDate: times[1]}, rev(0, 1)},
		"date range":         {gc.DepositFilter{StartDate: times[3], EndDate: times[5]}, rev(3, 4, 5)},
		"origin PIX_KEY":     {gc.DepositFilter{DepositOrigin: []gc.DepositOrigin{gc.OriginPixKey}}, rev(24)},
		"origin QRCODE":      {gc.DepositFilter{DepositOrigin: []gc.DepositOrigin{gc.OriginQRCode}}, rev(span(0, 23)...)},
		"combined":           {gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositPaid}, MinAmount: 300, EndDate: times[3]}, rev(2, 3)},
		"pages of 4":         {gc.DepositFilter{PerPage: 4}, rev(span(0, 24)...)},
	} {
		t.Run(name, func(t *testing.T) {
			if g := got(tc.f); !slices.Equal(g, tc.want) {
				t.Fatalf("got %d ids %v\nwant %d %v", len(g), g, len(tc.want), tc.want)
			}
		})
	}
	// Every BR Code and QR image in a list page is valid for its deposit's amount.
	all, err := c.ListDeposits(ctx, gc.DepositFilter{PerPage: 100})
	if err != nil || len(all.Data) != 25 {
		t.Fatalf("all on one page: %v", err)
	}
	for _, d := range all.Data {
		checkPix(t, d.PixResponse, d.Amount)
	}
	// Envelope arithmetic and limits.
	p, err := c.ListDeposits(ctx, gc.DepositFilter{Page: 3, PerPage: 10})
	if err != nil || p.Total != 25 || p.TotalPages != 3 || p.CurrentPage != 3 || p.PerPage != 10 || len(p.Data) != 5 {
		t.Fatalf("page 3: %+v %v", p, err)
	}
	p, err = c.ListDeposits(ctx, gc.DepositFilter{Page: 9})
	if err != nil || len(p.Data) != 0 || p.Total != 25 || p.CurrentPage != 9 {
		t.Fatalf("past the end: %+v %v", p, err)
	}
	p, err = c.ListDeposits(ctx, gc.DepositFilter{PerPage: 1000})
	if err != nil || p.PerPage != MaxPerPage {
		t.Fatalf("perPage above the max: %+v %v", p.PerPage, err)
	}
	// 422 of both kinds on GET /deposit (raw: the client refuses bad filters itself).
	for q, kind := range map[string]gc.UnprocessableKind{
		"?minAmount=abc":                             gc.KindInvalidData,
		"?status=NOPE":                               gc.KindInvalidData,
		"?startDate=yesterday":                       gc.KindInvalidData,
		"?minAmount=0":                               gc.KindValidation,
		"?minAmount=20000000":                        gc.KindValidation,
		"?minAmount=500&maxAmount=100":               gc.KindValidation,
		"?status=PAID&status=PAID":                   gc.KindValidation,
		"?depositOrigin=QRCODE&depositOrigin=QRCODE": gc.KindValidation,
	} {
		st, _, b := e.do("GET", "/deposit"+q, tok, nil)
		if st != 422 || decodeErr(t, b).Error != string(kind) {
			t.Errorf("GET /deposit%s: %d %s, want 422 %q", q, st, b, kind)
		}
	}
	checkZeroAmounts(t, e, tok, "/deposit")
}

// checkZeroAmounts checks that minAmount=0 and maxAmount=0 sent explicitly are each a 422
// Validations naming the parameter (the filter types read 0 as "not set", so this is easy to
// lose), while blank values are ignored.
func checkZeroAmounts(t *testing.T, e *env, tok, path string) {
	t.Helper()
	for _, name := range []string{"minAmount", "maxAmount"} {
		st, _, b := e.do("GET", path+"?"+name+"=0", tok, nil)
		if st != 422 {
			t.Errorf("GET %s?%s=0: %d %s, want 422", path, name, st, b)
			continue
		}
		eb := decodeErr(t, b)
		if ms := eb.messages(t); eb.Error != string(gc.KindValidation) || len(ms) != 1 || !strings.HasPrefix(ms[0], name+": ") {
			t.Errorf("GET %s?%s=0: %s, want one Validations message on %s", path, name, b, name)
		}
		if st, _, b := e.do("GET", path+"?"+name+"=", tok, nil); st != 200 {
			t.Errorf("GET %s?%s= (blank): %d %s, want 200", path, name, st, b)
		}
	}
}

func TestContractWithdrawalFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.client(gc.WithClock(clientClock{e.sb}))
	ctx := context.Background()
	tok := e.token()
	var ws []gc.Withdrawal
	keys := []string{"ana@example.com", "+5511987654321", "52998224725", newUUID()}
	for i := range 8 {
		var w gc.Withdrawal
		e.doJSON("POST", "/sandbox/withdrawals", tok, NewWithdrawal{Amount: gc.Cents(1000 * (i + 1)), PixKey: keys[i%4],
			ExternalCode: fmt.Sprintf("payout-%04d", i)}, 201, &w)
		ws = append(ws, w)
		e.clock.Advance(time.Minute)
	}
	for _, i := range []int{0, 1, 2} {
		e.doJSON("POST", "/sandbox/withdrawals/"+ws[i].ID+"/PROCESSING", tok, nil, 200, &ws[i])
		e.doJSON("POST", "/sandbox/withdrawals/"+ws[i].ID+"/PROCESSED", tok, nil, 200, &ws[i])
	}
	e.doJSON("POST", "/sandbox/withdrawals/"+ws[0].ID+"/REFUNDED", tok, nil, 200, &ws[0])
	ids := func(f gc.WithdrawalFilter) []string {
		t.Helper()
		p, err := c.ListWithdrawals(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, w := range p.Data {
			out = append(out, w.ID)
		}
		if f.PerPage == 0 && p.Total != len(out) {
			t.Fatalf("total %d for %d items", p.Total, len(out))
		}
		return out
	}
	for name, tc := range map[string]struct {
		f    gc.WithdrawalFilter
		want []int
	}{
		"all":            {gc.WithdrawalFilter{}, []int{7, 6, 5, 4, 3, 2, 1, 0}},
		"status":         {gc.WithdrawalFilter{Status: []gc.WithdrawalStatus{gc.WithdrawalProcessed}}, []int{2, 1}},
		"id":             {gc.WithdrawalFilter{ID: ws[5].ID}, []int{5}},
		"pixKey email":   {gc.WithdrawalFilter{PixKey: "ANA@example.com"}, []int{4, 0}},
		"pixKey phone":   {gc.WithdrawalFilter{PixKey: "+5511987654321"}, []int{5, 1}},
		"pixKey cpf":     {gc.WithdrawalFilter{PixKey: "529.982.247-25"}, []int{6, 2}},
		"endToEnd":       {gc.WithdrawalFilter{EndToEnd: ws[1].EndToEnd}, []int{1}},
		"endToEndRefund": {gc.WithdrawalFilter{EndToEndRefund: ws[0].EndToEndRefund}, []int{0}},
		"externalCode":   {gc.WithdrawalFilter{ExternalCode: "payout-0003"}, []int{3}},
		"amounts":        {gc.WithdrawalFilter{MinAmount: 2000, MaxAmount: 4000}, []int{3, 2, 1}},
		"dates":          {gc.WithdrawalFilter{StartDate: testStart.Add(6 * time.Minute)}, []int{7, 6}},
		"page 2 of 3":    {gc.WithdrawalFilter{Page: 2, PerPage: 3}, []int{4, 3, 2}},
	} {
		var want []string
		for _, i := range tc.want {
			want = append(want, ws[i].ID)
		}
		if got := ids(tc.f); !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", name, got, want)
		}
	}
	for q, kind := range map[string]gc.UnprocessableKind{
		"?id=nope":         gc.KindValidation,
		"?pixKey=nope":     gc.KindValidation,
		"?endToEnd=short":  gc.KindValidation,
		"?minAmount=5":     gc.KindValidation,
		"?maxAmount=1.5":   gc.KindInvalidData,
		"?status=UNKNOWN":  gc.KindInvalidData,
		"?externalCode=ab": gc.KindValidation,
	} {
		st, _, b := e.do("GET", "/withdrawal"+q, tok, nil)
		if st != 422 || decodeErr(t, b).Error != string(kind) {
			t.Errorf("GET /withdrawal%s: %d %s, want 422 %q", q, st, b, kind)
		}
	}
	checkZeroAmounts(t, e, tok, "/withdrawal")
	_ = http.StatusOK
}
