package sandbox

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

func TestExpiryWithClockAdvanceAndLatePayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	req := txRequest("expire-01", 3000)
	req.Pix = &gc.PixRequest{ExpirationSeconds: gc.Ptr(60)}
	var tx gc.Transaction
	e.doJSON("POST", "/transaction", tok, req, 201, &tx)

	// Not yet expired at 59 s.
	var clk clockState
	e.doJSON("POST", "/sandbox/clock/advance", tok, map[string]int{"seconds": 59}, 200, &clk)
	if clk.OffsetSeconds != 59 {
		t.Fatalf("clock %+v", clk)
	}
	var d gc.Deposit
	e.doJSON("GET", "/deposit/"+tx.ID, tok, nil, 200, &d)
	if d.Status != gc.DepositPixQRCodeGenerated {
		t.Fatalf("status at 59 s: %s", d.Status)
	}
	// Expired at 61 s: FAILED with the reason, the history entry dated at the expiration.
	e.doJSON("POST", "/sandbox/clock/advance", tok, map[string]int{"seconds": 2}, 200, nil)
	e.doJSON("GET", "/deposit/"+tx.ID, tok, nil, 200, &d)
	if d.Status != gc.DepositFailed || d.ErrorMessage != expiredReason {
		t.Fatalf("after expiry: %s %q", d.Status, d.ErrorMessage)
	}
	h := d.StatusHistory
	if len(h) != 2 || !h[1].Date.Equal(tx.PixResponse.ExpirationDate) || h[0].DurationInMilliseconds != 60000 ||
		h[1].DurationInMilliseconds != 1000 {
		t.Fatalf("history %+v", h)
	}
	// The list shows it too, and the status filter finds it.
	var page gc.Page[gc.Deposit]
	e.doJSON("GET", "/deposit?status=FAILED", tok, nil, 200, &page)
	if page.Total != 1 {
		t.Fatalf("FAILED filter: %+v", page)
	}
	// A late payment is accepted and recorded after the expiration.
	e.doJSON("POST", "/sandbox/deposits/"+tx.ID+"/pay", tok, map[string]any{"amountPaid": 2999}, 200, &d)
	if d.Status != gc.DepositPaid || *d.AmountPaid != 2999 || !d.PaymentDate.After(d.PixResponse.ExpirationDate) ||
		d.ErrorMessage != expiredReason {
		t.Fatalf("late payment: %+v", d)
	}
	// Manual expire of another one, then a background sweep finds nothing more to do.
	tx2 := e.createTx(tok, "expire-02", 100)
	e.doJSON("POST", "/sandbox/deposits/"+tx2.ID+"/expire", tok, nil, 200, &d)
	if d.Status != gc.DepositFailed || !d.PixResponse.ExpirationDate.Equal(e.sb.Now().Truncate(time.Millisecond)) {
		t.Fatalf("manual expire: %+v", d)
	}
	if err := e.sb.expireDue(context.Background()); err != nil {
		t.Fatal(err)
	}
	// clock/advance validation.
	if st, _, b := e.do("POST", "/sandbox/clock/advance", tok, map[string]int{"seconds": 0}); st != 422 || !strings.Contains(string(b), "seconds: ") {
		t.Fatalf("advance 0: %d %s", st, b)
	}
	if st, _, _ := e.do("POST", "/sandbox/clock/advance", tok, `{}`); st != 422 {
		t.Fatalf("advance without seconds: %d", st)
	}
	// Counts of seconds whose nanoseconds overflow int64 (here wrapping to about 1.3 s and
	// 1.7 s) are refused, not applied as whatever the overflow left.
	before := e.sb.Now()
	for _, n := range []string{"18446744075", "-18446744072"} {
		if st, _, b := e.do("POST", "/sandbox/clock/advance", tok, `{"seconds":`+n+`}`); st != 422 || !strings.Contains(string(b), "seconds: ") {
			t.Fatalf("advance by %s: %d %s", n, st, b)
		}
	}
	if !e.sb.Now().Equal(before) {
		t.Fatalf("the clock moved from %v to %v", before, e.sb.Now())
	}
}

func TestRestartKeepsState(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	tx := e.createTx(tok, "restart-01", 4321)
	e.doJSON("POST", "/sandbox/deposits/"+tx.ID+"/pay", tok, nil, 200, nil)
	var w gc.Withdrawal
	e.doJSON("POST", "/sandbox/withdrawals", tok, NewWithdrawal{Amount: 1500}, 201, &w)
	e.doJSON("POST", "/sandbox/clock/advance", tok, map[string]int{"seconds": 120}, 200, nil)
	secret := e.sb.clients[testClientID].WebhookSecret
	merchantKey := e.sb.merchant.key

	e.stop()
	e.start(nil)

	// The old token is still valid (same signing key), the clock offset is kept.
	if got := e.sb.Now(); !got.Equal(testStart.Add(120 * time.Second)) {
		t.Fatalf("clock after restart %v", got)
	}
	var d gc.Deposit
	e.doJSON("GET", "/deposit/"+tx.ID, tok, nil, 200, &d)
	if d.Status != gc.DepositPaid || d.Amount != 4321 {
		t.Fatalf("deposit after restart: %+v", d)
	}
	var wp gc.Page[gc.Withdrawal]
	e.doJSON("GET", "/withdrawal", tok, nil, 200, &wp)
	if wp.Total != 1 || wp.Data[0].ID != w.ID {
		t.Fatalf("withdrawals after restart: %+v", wp)
	}
	if e.sb.clients[testClientID].WebhookSecret != secret || e.sb.merchant.key != merchantKey {
		t.Fatal("webhook secret or merchant key changed across a restart")
	}
	// Idempotency survives: the same request answers the same transaction.
	again := e.createTx(tok, "restart-01", 4321)
	if again.ID != tx.ID || again.PixResponse.URI != tx.PixResponse.URI {
		t.Fatalf("idempotent answer after restart: %+v", again)
	}
	// A configured webhook secret wins over the stored one.
	e.stop()
	e.start(func(o *Options) { o.Clients[0].WebhookSecret = "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" })
	if c, _ := e.sb.Client(testClientID); c.WebhookSecret != "whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" {
		t.Fatalf("configured secret not used: %q", c.WebhookSecret)
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	for name, o := range map[string]Options{
		"no dir":       {Clients: []ClientConfig{{ID: "a", Secret: "b"}}},
		"no clients":   {DataDir: dir},
		"empty secret": {DataDir: dir, Clients: []ClientConfig{{ID: "a"}}},
		"duplicate id": {DataDir: dir, Clients: []ClientConfig{{ID: "a", Secret: "b"}, {ID: "a", Secret: "c"}}},
		"bad forward":  {DataDir: dir, Clients: []ClientConfig{{ID: "a", Secret: "b"}}, WebhookForwardTo: "ftp://x"},
		"negative ttl": {DataDir: dir, Clients: []ClientConfig{{ID: "a", Secret: "b"}}, TokenTTL: -time.Second},
		"bad whsecret": {DataDir: dir, Clients: []ClientConfig{{ID: "a", Secret: "b", WebhookSecret: "whsec_not base64!"}}},
	} {
		sb, err := New(ctx, o)
		if err == nil {
			sb.Close()
			t.Errorf("%s: New accepted %+v", name, o)
		}
	}
}

func TestNotFoundRouteIsJSON(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	st, _, b := e.do("GET", "/nowhere", "", nil)
	if st != http.StatusNotFound || decodeErr(t, b).StatusCode != 404 {
		t.Fatalf("%d %s", st, b)
	}
	_ = errors.New
}
