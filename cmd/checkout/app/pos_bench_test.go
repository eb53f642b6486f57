package app_test

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

var posTerminals = flag.Int("pos.terminals", 20, "BenchmarkPOSPayToPaid: terminals charging at once (4 under -short)")

// timedLine is a data line of an event stream and when the client read it.
type timedLine struct {
	at   time.Time
	data string
}

// openEvents opens an event stream with cookie (nil: none) and returns its data lines, stamped as
// they are read; the channel is closed when the stream ends.
func openEvents(ctx context.Context, u string, cookie *http.Cookie) (<-chan timedLine, io.Closer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, nil, err
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return nil, nil, fmt.Errorf("%s: %d", u, res.StatusCode)
	}
	lines := make(chan timedLine, 256)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines <- timedLine{time.Now(), d}
			}
		}
	}()
	return lines, res.Body, nil
}

// awaitLine waits for a data line holding every one of want; it returns when the client read it.
func awaitLine(lines <-chan timedLine, timeout time.Duration, want ...string) (time.Time, error) {
	deadline := time.After(timeout)
	last := ""
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return time.Time{}, fmt.Errorf("the stream ended waiting for %q (last %q)", want, last)
			}
			last = l.data
			if !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(l.data, w) }) {
				return l.at, nil
			}
		case <-deadline:
			return time.Time{}, fmt.Errorf("no %q within %v (last %q)", want, timeout, last)
		}
	}
}

// posCounter is a terminal at the counter: its cashier's session and form token, and the
// stream of the display paired with it.
type posCounter struct {
	terminal, session, csrf string
	display                 <-chan timedLine
}

// posRig is an app with terminals, each with a cashier signed in and a display following it.
type posRig struct {
	r        *running
	counters []posCounter
}

// newPOSRig starts an app and sets up n terminals ("Caixa 1" and n-1 an owner makes in the
// dashboard), n cashiers signed in and n displays paired (the pairing's throttle per address
// is the display page's; the code is used as the page uses it) with their streams open.
func newPOSRig(b *testing.B, n int, mod func(*app.Config)) *posRig {
	r := start(b, func(c *app.Config) {
		c.AdminEmail, c.AdminPassword = posOwner, posPassword
		c.SandboxRateLimit = sandbox.RateLimit{Requests: 1_000_000, Period: time.Second, Burst: 1_000_000}
		c.StreamsPerClient = 0 // every terminal and display of the rig has the same address
		if mod != nil {
			mod(c)
		}
	})
	ctx := context.Background()
	owner := r.signIn(posOwner, posPassword)
	for i := 2; i <= n; i++ {
		res, _ := r.dashboardPost("/dashboard/pos/terminals", "/dashboard/pos/terminals", owner, url.Values{pos.FieldName: {fmt.Sprintf("Caixa %d", i)}})
		if res.StatusCode != http.StatusSeeOther {
			b.Fatalf("creating terminal %d: %d", i, res.StatusCode)
		}
	}
	terminals, err := r.app.Displays().Terminals(ctx)
	if err != nil || len(terminals) != n {
		b.Fatalf("%d terminals, %v", len(terminals), err)
	}
	ownerUser, err := r.app.Accounts().UserByEmail(ctx, posOwner)
	if err != nil {
		b.Fatal(err)
	}
	rig := &posRig{r: r}
	for i, t := range terminals {
		email := fmt.Sprintf("caixa%d@padaria.example", i+1)
		if _, err := r.app.Accounts().AddUser(ctx, email, posPassword, team.RoleCashier); err != nil {
			b.Fatal(err)
		}
		c := posCounter{terminal: t.ID, session: r.signIn(email, posPassword)}
		c.csrf = r.dashboardForm("/dashboard/pos", c.session)
		code, _, err := r.app.Displays().NewCode(ctx, ownerUser, t.ID)
		if err != nil {
			b.Fatal(err)
		}
		_, token, err := r.app.Displays().Pair(ctx, code)
		if err != nil {
			b.Fatal(err)
		}
		lines, body, err := openEvents(ctx, r.app.URL()+web.DisplayPath+"/events", &http.Cookie{Name: web.DisplayCookie, Value: token})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { body.Close() })
		if _, err := awaitLine(lines, 30*time.Second, `"state":"`+pos.ShowIdle+`"`); err != nil {
			b.Fatal(err)
		}
		c.display = lines
		rig.counters = append(rig.counters, c)
	}
	return rig
}

// charge makes a sale of R$ 12,34 at counter c as its cashier does and returns its order's id.
func (p *posRig) charge(c posCounter) (string, error) {
	form := url.Values{"amount": {"12,34"}, "terminal": {c.terminal}, "sale_key": {checkout.NewID()}, "csrf_token": {c.csrf}}
	req, _ := http.NewRequest(http.MethodPost, p.r.app.URL()+"/dashboard/pos/sales", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: c.session})
	res, err := p.r.http.Do(req)
	if err != nil {
		return "", err
	}
	res.Body.Close()
	id, ok := strings.CutPrefix(res.Header.Get("Location"), "/dashboard/pos/sales/")
	if res.StatusCode != http.StatusSeeOther || !ok {
		return "", fmt.Errorf("a sale at %s: %d to %q", c.terminal, res.StatusCode, res.Header.Get("Location"))
	}
	return id, nil
}

// posSale is a sale charged at a counter, its QR code on both screens.
type posSale struct {
	order, transaction string
	terminal           <-chan timedLine
	body               io.Closer
}

// ready charges a sale at counter c and waits until the terminal's order stream says it awaits
// payment and the display shows its QR code.
func (p *posRig) ready(ctx context.Context, c posCounter) (posSale, error) {
	id, err := p.charge(c)
	if err != nil {
		return posSale{}, err
	}
	// A stream opened while this instance still held an older state of the order ends with a
	// redirect to the page, which then opens another: so does the rig.
	for try := 0; ; try++ {
		lines, body, err := openEvents(ctx, p.r.app.URL()+"/pay/"+id+"/events", nil)
		if err != nil {
			return posSale{}, err
		}
		first, ok := <-lines
		if ok && strings.Contains(first.data, `"awaiting_payment"`) && !strings.Contains(first.data, `"redirect"`) {
			s := posSale{order: id, terminal: lines, body: body}
			if _, err := awaitLine(c.display, 30*time.Second, `"orderId":"`+id+`"`, `"state":"`+pos.ShowCharging+`"`, `"qr":`); err != nil {
				return s, fmt.Errorf("the display of %s: %w", c.terminal, err)
			}
			o, err := p.r.app.Service().Order(ctx, id)
			if err != nil || o.CurrentAttempt() == nil || o.CurrentAttempt().TransactionID == "" {
				return s, fmt.Errorf("the sale's transaction: %v", err)
			}
			s.transaction = o.CurrentAttempt().TransactionID
			return s, nil
		}
		body.Close()
		if try == 50 {
			return posSale{}, fmt.Errorf("sale %s never awaited payment on its stream (first %q)", id, first.data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// round charges a sale at every counter at once, has the sandbox pay them all at once, and
// returns for each the delay from its payment call to paid on the terminal's stream and on the
// display's.
func (p *posRig) round(ctx context.Context) (terminal, display []time.Duration, err error) {
	n := len(p.counters)
	sales := make([]posSale, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i, c := range p.counters {
		wg.Go(func() { sales[i], errs[i] = p.ready(ctx, c) })
	}
	wg.Wait()
	defer func() {
		for _, s := range sales {
			if s.body != nil {
				s.body.Close()
			}
		}
	}()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	terminal, display = make([]time.Duration, n), make([]time.Duration, n)
	gate := make(chan struct{})
	for i, c := range p.counters {
		s := sales[i]
		wg.Go(func() {
			<-gate
			t0 := time.Now()
			if err := p.r.app.Gateway().Do(ctx, http.MethodPost, "/sandbox/deposits/"+s.transaction+"/pay", nil, nil); err != nil {
				errs[i] = err
				return
			}
			at, err := awaitLine(s.terminal, 30*time.Second, `"status":"paid"`)
			if err != nil {
				errs[i] = fmt.Errorf("the terminal's stream of %s: %w", s.order, err)
				return
			}
			terminal[i] = at.Sub(t0)
			at, err = awaitLine(c.display, 30*time.Second, `"orderId":"`+s.order+`"`, `"state":"`+pos.ShowPaid+`"`)
			if err != nil {
				errs[i] = fmt.Errorf("the display's stream of %s: %w", s.order, err)
				return
			}
			display[i] = at.Sub(t0)
		})
	}
	close(gate)
	wg.Wait()
	return terminal, display, errors.Join(errs...)
}

// BenchmarkPOSPayToPaid measures pay → paid on both screens of the point of sale with 20
// terminals charging at once: each has a cashier signed in and a display paired with it whose
// stream follows the terminal (/pos/display/events); every cashier charges a sale (POST
// /dashboard/pos/sales) and opens its order's stream as the sale's page does, then the
// sandbox pays the 20 at once (its control endpoint, as a shopper's bank: the news comes by
// the gateway's webhook). Each iteration is such a round; for each sale, the delay from its
// payment call to "paid" on the terminal's stream and on the display's; p50, p95 and max in
// milliseconds over every round. SQLite, and PostgreSQL (where the display hears of the sale
// through the change feed's kind for terminals). Under -short, 4 terminals.
//
//	go test -run '^$' -bench POSPayToPaid -benchtime 10x ./cmd/checkout/app/
func BenchmarkPOSPayToPaid(b *testing.B) {
	n := *posTerminals
	if testing.Short() {
		n = min(n, 4)
	}
	for _, store := range []string{"sqlite", "postgres"} {
		b.Run(store, func(b *testing.B) {
			var mod func(*app.Config)
			if store == "postgres" {
				dbURL := postgresDatabase(b)
				mod = func(c *app.Config) { c.DatabaseURL = dbURL }
			}
			rig := newPOSRig(b, n, mod)
			var terminal, display []time.Duration
			b.ResetTimer()
			for range b.N {
				t, d, err := rig.round(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				terminal, display = append(terminal, t...), append(display, d...)
			}
			b.StopTimer()
			for _, s := range []struct {
				name   string
				delays []time.Duration
			}{{"terminal", terminal}, {"display", display}} {
				slices.Sort(s.delays)
				ms := func(q float64) float64 {
					return float64(s.delays[int(q*float64(len(s.delays)-1))]) / float64(time.Millisecond)
				}
				b.ReportMetric(ms(0.50), s.name+"-p50-ms")
				b.ReportMetric(ms(0.95), s.name+"-p95-ms")
				b.ReportMetric(ms(1), s.name+"-max-ms")
			}
			b.ReportMetric(float64(len(terminal)), "sales")
		})
	}
}
