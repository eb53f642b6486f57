package dashboard_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"math"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// The dashboard benchmark's filter: two statuses and an amount range (R$ 10 to R$ 1.000), which
// about half of the seeded deposits match, as the page's query and as the gateway's filter.
const benchDashQuery = "status=PAID&status=REFUNDED&minAmount=10&maxAmount=1000"

var benchDashFilter = gatewayclient.DepositFilter{
	Status:    []gatewayclient.DepositStatus{gatewayclient.DepositPaid, gatewayclient.DepositRefunded},
	MinAmount: 1_000, MaxAmount: 100_000,
}

// BenchmarkDashboardDeposits measures the merchant's deposits page and its CSV export over a
// sandbox seeded with DASHBOARD_BENCH_DEPOSITS deposits (2,000 by default, 200 with -short, as
// in the test command, where it only has to keep working; 1000000 for the figures), filtered by two
// statuses and an amount range. Everything goes through the real chain: a signed-in browser
// over loopback HTTP, the dashboard's router, session and handler, the gateway client, and
// the sandbox over loopback HTTP. DASHBOARD_BENCH_DATA_DIR keeps the sandbox's data dir
// between runs: it is seeded when it holds no deposit, and reused as it is when it holds
// exactly that many (a million takes minutes to seed).
//
// "page" and "page-middle" report p50 and p99 of the whole page (request to last byte) for
// the first page and the middle one at the default page size. "csv" reports the export's
// rows per second overall and over its first and last tenth of rows (deep pages of the
// gateway would slow the end), the delay to the header, and the peak of the process's Go
// heap (runtime/metrics /memory/classes/heap/objects:bytes, live and not yet swept objects)
// and of its resident set (Linux), sampled every 5 ms during the export, less their values
// just before it. Both count the whole process: the checkout and the in-process sandbox.
func BenchmarkDashboardDeposits(b *testing.B) {
	n := 2_000
	if testing.Short() {
		n = 200
	}
	if v := os.Getenv("DASHBOARD_BENCH_DEPOSITS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("DASHBOARD_BENCH_DEPOSITS=%q: want a positive count", v)
		}
	}
	dir := os.Getenv("DASHBOARD_BENCH_DATA_DIR")
	// Every export streams here, however many rows (a real dashboard sends more than
	// DefaultExportThreshold to the background, which writes them with the same code).
	e := newEnv(b, func(o *envOptions) { o.sandboxDir, o.rawGateway, o.exportThreshold = dir, true, math.MaxInt })
	ctx := context.Background()
	all, err := e.client.ListDeposits(ctx, gatewayclient.DepositFilter{PerPage: 1})
	if err != nil {
		b.Fatal(err)
	}
	switch all.Total {
	case 0:
		start := time.Now()
		if _, err := e.sb.Seed(ctx, "checkout", sandbox.SeedRequest{Deposits: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		b.Logf("seeded %d deposits in %v", n, time.Since(start).Round(time.Millisecond))
	case n:
	default:
		b.Fatalf("the sandbox's data dir holds %d deposits, not %d: name another DASHBOARD_BENCH_DATA_DIR", all.Total, n)
	}
	match, err := e.client.ListDeposits(ctx, benchDashFilter)
	if err != nil {
		b.Fatal(err)
	}
	if match.Total == 0 {
		b.Fatal("no deposit matches the filter")
	}
	br := e.browser()
	br.login()
	// The browser's client, without its 30 s timeout: a million-row export takes longer.
	hc := &http.Client{Jar: br.jar}
	get := func(b *testing.B, path string) *http.Response {
		req, err := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Accept", "text/html")
		res, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		if res.StatusCode != http.StatusOK {
			res.Body.Close()
			b.Fatalf("GET %s: %d", path, res.StatusCode)
		}
		return res
	}
	page := func(path string) func(*testing.B) {
		return func(b *testing.B) {
			var lat []time.Duration
			var body []byte
			for b.Loop() {
				t0 := time.Now()
				res := get(b, path)
				var err error
				body, err = io.ReadAll(res.Body)
				res.Body.Close()
				lat = append(lat, time.Since(t0))
				if err != nil {
					b.Fatal(err)
				}
			}
			if bytes.Count(body, []byte(`data-testid="deposit-row"`)) == 0 {
				b.Fatal("the page lists no deposit")
			}
			slices.Sort(lat)
			pct := func(q float64) float64 {
				return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
		}
	}
	b.Run("page", page("/dashboard/deposits?"+benchDashQuery))
	middle := max(1, (match.Total+24)/25/2)
	b.Run("page-middle", page("/dashboard/deposits?"+benchDashQuery+"&page="+strconv.Itoa(middle)))

	b.Run("csv", func(b *testing.B) {
		want := match.Total
		tenth := max(1, want/10)
		var rows int
		var elapsed, header, first, last time.Duration
		var peak memPeak
		for b.Loop() {
			stop := peak.sample()
			t0 := time.Now()
			res := get(b, "/dashboard/deposits.csv?"+benchDashQuery)
			r := bufio.NewReaderSize(res.Body, 64<<10)
			rows = -1 // the header
			var tFirst, tLast time.Duration
			marks := make([]time.Duration, 0, 10) // when each tenth of the rows was read
			for {
				line, err := r.ReadSlice('\n')
				if err == io.EOF && len(line) == 0 {
					break
				}
				if err != nil && err != bufio.ErrBufferFull {
					res.Body.Close()
					stop()
					b.Fatalf("after %d rows: %v", rows, err)
				}
				if err == nil {
					rows++
					if rows > 0 && rows%tenth == 0 && len(marks) < 10 {
						marks = append(marks, time.Since(t0))
					}
				}
				switch rows {
				case 0:
					header = time.Since(t0)
				case tenth:
					tFirst = time.Since(t0)
				case want - tenth:
					tLast = time.Since(t0)
				}
			}
			elapsed = time.Since(t0)
			res.Body.Close()
			stop()
			first, last = tFirst-header, elapsed-tLast
			// The rate of each tenth, to see whether deep pages slow the export down.
			var rates []string
			prev := header
			for _, m := range marks {
				rates = append(rates, strconv.Itoa(int(float64(tenth)/(m-prev).Seconds())))
				prev = m
			}
			b.Logf("%d rows in %v; rows/s by tenth: %s", rows, elapsed.Round(time.Millisecond), strings.Join(rates, " "))
		}
		if rows != want {
			b.Fatalf("%d rows, want the gateway's %d", rows, want)
		}
		b.ReportMetric(float64(rows), "rows")
		b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
		b.ReportMetric(float64(tenth)/first.Seconds(), "first10%-rows/s")
		b.ReportMetric(float64(tenth)/last.Seconds(), "last10%-rows/s")
		b.ReportMetric(float64(header.Microseconds())/1000, "header-ms")
		b.ReportMetric(float64(peak.heap)/(1<<20), "peak-heap-MB")
		if peak.rss > 0 {
			b.ReportMetric(float64(peak.rss)/(1<<20), "peak-rss-MB")
		}
	})
}

// memPeak is the largest growth of the Go heap and of the resident set over the samples
// taken so far.
type memPeak struct{ heap, rss int64 }

// sample takes samples every 5 ms until the returned function is called, and records the
// largest growth over the values taken (after a GC) at the start.
func (p *memPeak) sample() (stop func()) {
	runtime.GC()
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() (int64, int64) {
		metrics.Read(s)
		return int64(s[0].Value.Uint64()), residentBytes()
	}
	heap0, rss0 := read()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			heap, rss := read()
			p.heap = max(p.heap, heap-heap0)
			if rss0 > 0 {
				p.rss = max(p.rss, rss-rss0)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// residentBytes is the process's resident set from /proc (0 where there is none).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
