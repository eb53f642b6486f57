// Command loadtest drives the checkout's shopper pages the way shoppers do, over HTTP, and
// reports orders per second, the latency of each step and the errors:
//
//	go run ./cmd/loadtest -url http://127.0.0.1:8080 -shoppers 16 -duration 10s [-pay]
//
// It also seeds a store with synthetic orders (-seed-orders) and times a dashboard page from
// outside, signed in (-dashboard): see dashboard.go.
//
// Each shopper, in a loop: opens the catalogue, adds a product to a new cart (POST /cart), opens
// the customer form, posts it, opens the PIX page and its QR image. A PIX page that says its QR
// code is being generated (the gateway asked the checkout to slow down, and the order waits its
// turn) is followed as the page does: its event stream says when the QR code is there, the page
// is opened again, and the wait is reported as its own step. With -pay it also opens the page's
// event stream, pays through sandbox-pay (embedded sandbox only) and times the payment until the
// stream says paid.
//
// The checkout limits new carts per client address (CHECKOUT_NEW_CART_LIMIT); every shopper of
// this tool has the same address, so start the checkout with CHECKOUT_NEW_CART_LIMIT=off. The
// embedded sandbox limits transactions as a real gateway does (CHECKOUT_SANDBOX_RATE_LIMIT, 50/s
// by default): set it to off to measure the checkout rather than the limit, or leave it to see
// what shoppers see when the gateway asks the checkout to slow down.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// options are the command line.
type options struct {
	url      string
	shoppers int
	duration time.Duration
	product  string
	pay      bool
	timeout  time.Duration
	orders   int // stop after this many orders (0: run for the duration only)

	place           int           // place this many orders, print their PIX page paths, and stop
	bare            string        // serve a copy of -copy's bytes at this address
	copyPath        string        // the page -bare copies
	streams         int           // open this many SSE streams and measure the checkout's memory
	streamsPerOrder int           // streams opened on each order
	pid             int           // the checkout's process id, for its memory (Linux /proc)
	hold            time.Duration // how long the streams stay open

	// -seed-orders writes that many synthetic orders into -seed-db; -dashboard times GETs of a
	// dashboard path, signed in as -email with -password, -n times.
	seedOrders      int
	seedDB          string
	dashboard       string
	email, password string
	n               int
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var o options
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.url, "url", "http://127.0.0.1:8080", "the checkout's base URL")
	fs.IntVar(&o.shoppers, "shoppers", 16, "concurrent shoppers")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "how long to run")
	fs.StringVar(&o.product, "product", "ebook-receitas-do-cerrado", "the product id each shopper buys")
	fs.BoolVar(&o.pay, "pay", false, "pay each order through sandbox-pay and time payment → paid on the event stream")
	fs.DurationVar(&o.timeout, "timeout", 10*time.Second, "timeout of one request")
	fs.IntVar(&o.orders, "orders", 0, "stop after this many orders (0: run for the whole duration)")
	fs.IntVar(&o.place, "place", 0, "place this many orders, print their PIX page paths and stop")
	fs.StringVar(&o.bare, "bare", "", "serve, at this address, a bare net/http handler writing the bytes of -copy (the ceiling pages are compared with)")
	fs.StringVar(&o.copyPath, "copy", "", "with -bare: the path (on -url) whose answer is copied")
	fs.IntVar(&o.streams, "streams", 0, "open this many event streams (on orders placed for them) and report the memory of -pid")
	fs.IntVar(&o.streamsPerOrder, "streams-per-order", 8, "with -streams: streams opened on each order")
	fs.IntVar(&o.pid, "pid", 0, "with -streams: the checkout's process id, whose resident memory is read from /proc")
	fs.DurationVar(&o.hold, "hold", 0, "with -streams: keep them open this long before closing them")
	fs.IntVar(&o.seedOrders, "seed-orders", 0, "write this many synthetic orders into -seed-db and stop")
	fs.StringVar(&o.seedDB, "seed-db", "", "with -seed-orders: a PostgreSQL URL, or the checkout's SQLite file (checkout stopped)")
	fs.StringVar(&o.dashboard, "dashboard", "", "time GETs of this dashboard path (/dashboard/), signed in as -email")
	fs.StringVar(&o.email, "email", "", "with -dashboard: the user's e-mail")
	fs.StringVar(&o.password, "password", "", "with -dashboard: the user's password")
	fs.IntVar(&o.n, "n", 200, "with -dashboard: how many GETs, one after another")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if o.shoppers < 1 || o.duration <= 0 {
		fmt.Fprintln(stderr, "loadtest: -shoppers must be at least 1 and -duration positive")
		return 2
	}
	o.url = strings.TrimRight(o.url, "/")
	switch {
	case o.seedOrders > 0:
		return seedOrders(ctx, o, stdout, stderr)
	case o.dashboard != "":
		return timeDashboard(ctx, o, stdout, stderr)
	case o.bare != "":
		return serveBare(ctx, o, stdout, stderr)
	case o.place > 0:
		return placeOrders(ctx, o, stdout, stderr)
	case o.streams > 0:
		return openStreams(ctx, o, stdout, stderr)
	}
	r := newRunner(o)
	rep := r.run(ctx)
	rep.print(stdout)
	if rep.orders == 0 {
		return 1
	}
	return 0
}

// Steps of a shopper's visit, in order.
const (
	stepCatalogue = "catalogue"
	stepAdd       = "add to cart"
	stepForm      = "form"
	stepOrder     = "order POST"
	stepPix       = "PIX page"
	stepQRWait    = "QR being made" // from a PIX page without its QR code to the page with it
	stepQR        = "QR image"
	stepPay       = "sandbox-pay"
	stepPaid      = "pay → paid (SSE)"
)

var steps = []string{stepCatalogue, stepAdd, stepForm, stepOrder, stepPix, stepQRWait, stepQR, stepPay, stepPaid}

// runner holds the shared client and the measurements.
type runner struct {
	o      options
	client *http.Client

	started atomic.Int64 // visits started, against options.orders

	mu      sync.Mutex
	timings map[string][]time.Duration
	errs    map[string]int
	orders  int
}

func newRunner(o options) *runner {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 4 * o.shoppers
	tr.MaxIdleConnsPerHost = 4 * o.shoppers
	return &runner{o: o, timings: map[string][]time.Duration{}, errs: map[string]int{}, client: &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// run starts the shoppers and waits for the duration to pass (or ctx to end).
func (r *runner) run(ctx context.Context) report {
	ctx, cancel := context.WithTimeout(ctx, r.o.duration)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for range r.o.shoppers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if r.o.orders > 0 && r.started.Add(1) > int64(r.o.orders) {
					return
				}
				if step, err := r.visit(ctx); err != nil && ctx.Err() == nil {
					r.fail(step, err)
				}
			}
		}()
	}
	wg.Wait()
	return r.report(time.Since(start))
}

var (
	requestKeyRe = regexp.MustCompile(`name="request_key" value="([^"]+)"`)
	qrRe         = regexp.MustCompile(`data-testid="pix-qr" src="([^"]+)"`)
	qrPending    = []byte(`data-testid="qr-pending"`)
)

// visit is one shopper's purchase; it returns the step that failed and why.
func (r *runner) visit(ctx context.Context) (string, error) {
	pay, step, err := r.placeOne(ctx)
	if err != nil {
		return step, err
	}
	if r.o.pay {
		if step, err := r.payAndWait(ctx, pay); err != nil {
			return step, err
		}
	}
	r.mu.Lock()
	r.orders++
	r.mu.Unlock()
	return "", nil
}

// placeOne places one order through the forms and opens its PIX page and QR image; it returns
// the PIX page's path, or the step that failed and why.
func (r *runner) placeOne(ctx context.Context) (pay, step string, err error) {
	if _, _, err := r.do(ctx, stepCatalogue, http.MethodGet, "/", nil, http.StatusOK); err != nil {
		return "", stepCatalogue, err
	}
	_, loc, err := r.do(ctx, stepAdd, http.MethodPost, "/cart", url.Values{"product_id": {r.o.product}}, http.StatusSeeOther)
	if err != nil {
		return "", stepAdd, err
	}
	body, _, err := r.do(ctx, stepForm, http.MethodGet, loc+"/checkout", nil, http.StatusOK)
	if err != nil {
		return "", stepForm, err
	}
	m := requestKeyRe.FindSubmatch(body)
	if m == nil {
		return "", stepForm, errors.New("no request_key in the form")
	}
	form := url.Values{"request_key": {string(m[1])}, "name": {"Maria da Silva"}, "document": {"529.982.247-25"},
		"email": {"maria@example.com"}, "phone": {"(11) 98765-4321"}}
	_, pay, err = r.do(ctx, stepOrder, http.MethodPost, loc+"/checkout", form, http.StatusSeeOther)
	if err != nil {
		return "", stepOrder, err
	}
	body, _, err = r.do(ctx, stepPix, http.MethodGet, pay, nil, http.StatusOK)
	if err != nil {
		return "", stepPix, err
	}
	if m = qrRe.FindSubmatch(body); m == nil && bytes.Contains(body, qrPending) {
		start := time.Now()
		if body, err = r.waitForQR(ctx, pay); err != nil {
			return "", stepQRWait, err
		}
		r.record(stepQRWait, time.Since(start))
		m = qrRe.FindSubmatch(body)
	}
	if m == nil {
		return "", stepPix, errors.New("no QR image on the PIX page")
	}
	if _, _, err := r.do(ctx, stepQR, http.MethodGet, strings.ReplaceAll(string(m[1]), "&amp;", "&"), nil, http.StatusOK); err != nil {
		return "", stepQR, err
	}
	return pay, "", nil
}

// waitForQR follows a PIX page whose QR code is being made, as its script does: the page's
// event stream sends the status now and then each change, with a redirect once the page is to
// be drawn again; the page is then opened again and returned.
func (r *runner) waitForQR(ctx context.Context, pay string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.o.url+pay+"/events", nil)
	if err != nil {
		return nil, err
	}
	res, err := r.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("events: status %d", res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "data:") || strings.Contains(line, `"status":"pending"`) && !strings.Contains(line, `"redirect"`) {
			continue
		}
		body, _, err := r.do(ctx, stepPix, http.MethodGet, pay, nil, http.StatusOK)
		return body, err
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, errors.New("the event stream ended while the QR code was being made")
}

// payAndWait opens the order's event stream, pays through sandbox-pay and times the payment
// until the stream says paid.
func (r *runner) payAndWait(ctx context.Context, pay string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.o.url+pay+"/events", nil)
	if err != nil {
		return stepPaid, err
	}
	res, err := r.client.Do(req)
	if err != nil {
		return stepPaid, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return stepPaid, fmt.Errorf("events: status %d", res.StatusCode)
	}
	sc := bufio.NewScanner(res.Body)
	// The stream starts with the status now: read it before paying, so that the time measured
	// is the payment's alone.
	if err := waitFor(sc, `"status":"awaiting_payment"`); err != nil {
		return stepPaid, err
	}
	start := time.Now()
	if _, _, err := r.do(ctx, stepPay, http.MethodPost, pay+"/sandbox-pay", url.Values{}, http.StatusAccepted); err != nil {
		return stepPay, err
	}
	if err := waitFor(sc, `"status":"paid"`); err != nil {
		return stepPaid, err
	}
	r.record(stepPaid, time.Since(start))
	return "", nil
}

// waitFor reads the event stream until a data line holds want.
func waitFor(sc *bufio.Scanner, want string) error {
	for sc.Scan() {
		if line := sc.Text(); strings.HasPrefix(line, "data:") && strings.Contains(line, want) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return fmt.Errorf("the event stream ended before %s", want)
}

// do sends one request, records its time under step, and checks its status; it returns the
// body and the Location header.
func (r *runner) do(ctx context.Context, step, method, path string, form url.Values, want int) ([]byte, string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.o.timeout)
	defer cancel()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, r.o.url+path, body)
	if err != nil {
		return nil, "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		// Same-origin, as a browser's form post is (the checkout refuses cross-site posts).
		req.Header.Set("Origin", r.o.url)
	}
	if step == stepPay {
		req.Header.Set("Accept", "application/json")
	}
	start := time.Now()
	res, err := r.client.Do(req)
	if err != nil {
		return nil, "", err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	r.record(step, time.Since(start))
	if err != nil {
		return nil, "", err
	}
	if res.StatusCode != want {
		return nil, "", fmt.Errorf("%s %s: status %d, want %d", method, path, res.StatusCode, want)
	}
	loc := res.Header.Get("Location")
	if u, err := url.Parse(loc); err == nil && u.Host != "" {
		loc = u.RequestURI()
	}
	return b, loc, nil
}

func (r *runner) record(step string, d time.Duration) {
	r.mu.Lock()
	r.timings[step] = append(r.timings[step], d)
	r.mu.Unlock()
}

func (r *runner) fail(step string, err error) {
	r.mu.Lock()
	r.errs[step+": "+firstLine(err.Error())]++
	r.mu.Unlock()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// report is what a run measured.
type report struct {
	elapsed time.Duration
	orders  int
	steps   []stepReport
	errs    map[string]int
	slow    int // requests over one second
}

type stepReport struct {
	name                string
	n                   int
	p50, p95, p99, maxD time.Duration
}

func (r *runner) report(elapsed time.Duration) report {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := report{elapsed: elapsed, orders: r.orders, errs: maps(r.errs)}
	for _, name := range steps {
		ds := slices.Clone(r.timings[name])
		if len(ds) == 0 {
			continue
		}
		slices.Sort(ds)
		for _, d := range ds {
			if d > time.Second {
				rep.slow++
			}
		}
		rep.steps = append(rep.steps, stepReport{name: name, n: len(ds), p50: quantile(ds, 0.50),
			p95: quantile(ds, 0.95), p99: quantile(ds, 0.99), maxD: ds[len(ds)-1]})
	}
	return rep
}

func maps(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// quantile of sorted durations, nearest rank.
func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func (rep report) print(w io.Writer) {
	fmt.Fprintf(w, "orders: %d in %.1fs = %.1f orders/s\n", rep.orders, rep.elapsed.Seconds(), float64(rep.orders)/rep.elapsed.Seconds())
	errs := 0
	for _, n := range rep.errs {
		errs += n
	}
	fmt.Fprintf(w, "errors: %d; requests over 1s: %d\n", errs, rep.slow)
	fmt.Fprintf(w, "%-18s %7s %9s %9s %9s %9s\n", "step", "n", "p50", "p95", "p99", "max")
	for _, s := range rep.steps {
		fmt.Fprintf(w, "%-18s %7d %9s %9s %9s %9s\n", s.name, s.n, ms(s.p50), ms(s.p95), ms(s.p99), ms(s.maxD))
	}
	keys := make([]string, 0, len(rep.errs))
	for k := range rep.errs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "error ×%d: %s\n", rep.errs[k], k)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }
