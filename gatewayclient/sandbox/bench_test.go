package sandbox

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// benchEnv starts a sandbox on the real clock for benchmarks, in opts.DataDir when set (a dir
// kept between runs), else in a temporary one.
func benchEnv(b *testing.B, opts Options) (*Sandbox, *httptest.Server, *gc.Client) {
	b.Helper()
	if opts.DataDir == "" {
		opts.DataDir = b.TempDir()
	}
	opts.Clients = []ClientConfig{{ID: testClientID, Secret: testSecret}}
	sb, err := New(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(sb)
	b.Cleanup(func() { srv.Close(); sb.Close() })
	c, err := gc.New(srv.URL, testClientID, testSecret, gc.WithRetryPolicy(gc.RetryPolicy{MaxAttempts: 1}))
	if err != nil {
		b.Fatal(err)
	}
	return sb, srv, c
}

// BenchmarkCreateTransaction measures POST /transaction end to end through the real client:
// token, validation, BR Code, QR PNG, SQLite write with idempotency key.
func BenchmarkCreateTransaction(b *testing.B) {
	_, _, c := benchEnv(b, Options{RateLimit: RateLimit{Requests: 1_000_000, Burst: 1_000_000}})
	ctx := context.Background()
	if _, err := c.Token(ctx); err != nil {
		b.Fatal(err)
	}
	var n atomic.Int64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := txRequest(fmt.Sprintf("bench-%012d", n.Add(1)), gc.Cents(100+n.Load()%100000))
			if _, err := c.CreateTransaction(ctx, req); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkListDeposits measures GET /deposit pages over SANDBOX_BENCH_DEPOSITS seeded deposits
// (20,000 by default, 2,000 with -short, as in the test command, where it only has to keep
// working; 1000000 for the README's figures), through the real client, for several filter mixes, and
// reports p50 and p99 latency per page. SANDBOX_BENCH_DATA_DIR keeps the sandbox's data dir
// between runs: it is seeded when it holds no deposit and reused as it is when it holds
// exactly that many (a million takes minutes to seed).
func BenchmarkListDeposits(b *testing.B) {
	n := 20_000
	if testing.Short() {
		n = 2_000
	}
	if v := os.Getenv("SANDBOX_BENCH_DEPOSITS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 || n > maxSeedDeposits {
			b.Fatalf("SANDBOX_BENCH_DEPOSITS=%q: want a count from 1 to %d", v, maxSeedDeposits)
		}
	}
	sb, _, c := benchEnv(b, Options{DataDir: os.Getenv("SANDBOX_BENCH_DATA_DIR")})
	ctx := context.Background()
	all, err := c.ListDeposits(ctx, gc.DepositFilter{PerPage: 1})
	if err != nil {
		b.Fatal(err)
	}
	switch all.Total {
	case 0:
		start := time.Now()
		if _, err := sb.Seed(ctx, testClientID, SeedRequest{Deposits: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		// (A parent of sub-benchmarks reports no metrics, so the seed time is logged.)
		b.Logf("seeded %d deposits in %v", n, time.Since(start).Round(time.Millisecond))
	case n:
	default:
		b.Fatalf("the sandbox's data dir holds %d deposits, not %d: name another SANDBOX_BENCH_DATA_DIR", all.Total, n)
	}
	now := sb.Now()
	mixes := []struct {
		name string
		f    gc.DepositFilter
	}{
		{"none", gc.DepositFilter{}},
		{"page50", gc.DepositFilter{Page: 50, PerPage: 20}},
		{"status-paid", gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositPaid}}},
		{"status-rare", gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositInfraction, gc.DepositBlocked}}},
		{"week", gc.DepositFilter{StartDate: now.Add(-30 * 24 * time.Hour), EndDate: now.Add(-23 * 24 * time.Hour)}},
		{"amount", gc.DepositFilter{MinAmount: 10_000, MaxAmount: 12_000}},
		{"amount-page5", gc.DepositFilter{MinAmount: 10_000, MaxAmount: 12_000, Page: 5, PerPage: 50}},
		{"amount-paid", gc.DepositFilter{MinAmount: 10_000, MaxAmount: 12_000, Status: []gc.DepositStatus{gc.DepositPaid}}},
		{"amount-blocked", gc.DepositFilter{MinAmount: 10_000, MaxAmount: 12_000, Status: []gc.DepositStatus{gc.DepositBlocked}}},
		{"amount-pixkey", gc.DepositFilter{MinAmount: 10_000, MaxAmount: 12_000, DepositOrigin: []gc.DepositOrigin{gc.OriginPixKey}}},
		{"amount-week", gc.DepositFilter{MinAmount: 10_000, MaxAmount: 12_000,
			StartDate: now.Add(-30 * 24 * time.Hour), EndDate: now.Add(-23 * 24 * time.Hour)}},
		{"amount-wide", gc.DepositFilter{MinAmount: 100, MaxAmount: 200_000}},
		{"origin-pixkey", gc.DepositFilter{DepositOrigin: []gc.DepositOrigin{gc.OriginPixKey}}},
		{"combined", gc.DepositFilter{Status: []gc.DepositStatus{gc.DepositPaid, gc.DepositRefunded},
			DepositOrigin: []gc.DepositOrigin{gc.OriginQRCode}, MinAmount: 1000, MaxAmount: 50_000,
			StartDate: now.Add(-60 * 24 * time.Hour), EndDate: now.Add(-30 * 24 * time.Hour), PerPage: 50}},
	}
	for _, m := range mixes {
		b.Run(m.name, func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				t0 := time.Now()
				p, err := c.ListDeposits(ctx, m.f)
				lat = append(lat, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
				if p.Total == 0 {
					b.Fatalf("%s: no deposits", m.name)
				}
			}
			slices.Sort(lat)
			pct := func(q float64) float64 {
				return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		})
	}
}
