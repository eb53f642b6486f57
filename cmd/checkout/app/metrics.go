package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/health"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/web"
)

// metrics are what an operator scrapes (CHECKOUT_METRICS_ADDR): the domain's, the gateway's,
// the webhooks', the notifications' and the streams', on a registry of the app's own (never
// the global default one), with the Go runtime's and the process's. It implements
// checkout.Observer and web.Observer, and observes the gateway's calls (health.Call) and the
// notifications' attempts. Names follow Prometheus's conventions: base units, _total for
// counters, _seconds for durations; the list is in cmd/checkout/README.md.
type metrics struct {
	reg *prometheus.Registry

	ordersPlaced, ordersPaid, ordersExpired prometheus.Counter
	placement                               *prometheus.HistogramVec // by operation and outcome
	gatewayCalls                            *prometheus.HistogramVec // by operation and outcome
	gatewayErrors                           *prometheus.CounterVec   // by operation and status
	webhookLag                              *prometheus.HistogramVec // by outcome
	reconcilePasses                         *prometheus.CounterVec   // by result
	reconcileFound                          prometheus.Counter
	notifyAttempts                          *prometheus.CounterVec // by outcome
	notifyFailures                          prometheus.Counter
}

// gatewayBuckets are the gateway calls' latency buckets: from a fast answer to the client's
// per-attempt timeout (20 s).
var gatewayBuckets = []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 20}

// newMetrics registers every metric on reg. gatewayUp, streams and backlog are read at each
// scrape; feed, when set (PostgreSQL), tells whether the change feed listens. It is long
// because it declares every metric with its help, one after the other.
func newMetrics(reg *prometheus.Registry, gatewayUp func() bool, streams func() int, backlog func(ctx context.Context) (int, error),
	feed func() (bool, time.Time)) (*metrics, error) {
	m := &metrics{
		reg: reg,
		ordersPlaced: prometheus.NewCounter(prometheus.CounterOpts{Name: "checkout_orders_placed_total",
			Help: "Orders placed (stored for the first time) by this instance."}),
		ordersPaid: prometheus.NewCounter(prometheus.CounterOpts{Name: "checkout_orders_paid_total",
			Help: "Orders this instance turned paid."}),
		ordersExpired: prometheus.NewCounter(prometheus.CounterOpts{Name: "checkout_orders_expired_total",
			Help: "Orders this instance turned expired (their QR code's time was over)."}),
		placement: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "checkout_order_placement_duration_seconds",
			Help:    "Time to place an order, from the submitted form to the answer, by operation (the order's channel: shop, session, link, …) and outcome (qr_ready, pending, failed, invalid, error).",
			Buckets: gatewayBuckets}, []string{"operation", "outcome"}),
		gatewayCalls: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "checkout_gateway_request_duration_seconds",
			Help:    "Latency of each HTTP exchange with the gateway (retries are exchanges of their own), by operation and outcome.",
			Buckets: gatewayBuckets}, []string{"operation", "outcome"}),
		gatewayErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "checkout_gateway_errors_total",
			Help: "Exchanges with the gateway that failed, by operation and status (the HTTP status, or unreachable, timeout)."},
			[]string{"operation", "status"}),
		webhookLag: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "checkout_webhook_apply_lag_seconds",
			Help:    "Time from receiving a gateway webhook to having applied it (re-read the deposit, moved the order), by outcome (applied, failed).",
			Buckets: gatewayBuckets}, []string{"outcome"}),
		reconcilePasses: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "checkout_reconciler_passes_total",
			Help: "Reconciliation passes, by result (ok, error, skipped: the gateway fails, standby: another instance reconciles)."},
			[]string{"result"}),
		reconcileFound: prometheus.NewCounter(prometheus.CounterOpts{Name: "checkout_reconciler_payments_found_total",
			Help: "Payments the reconciler applied that no webhook had brought."}),
		notifyAttempts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "checkout_notification_attempts_total",
			Help: "Delivery attempts of the merchant's notifications, by outcome (delivered, retry, dead)."}, []string{"outcome"}),
		notifyFailures: prometheus.NewCounter(prometheus.CounterOpts{Name: "checkout_notification_failures_total",
			Help: "Failed delivery attempts of the merchant's notifications (retried, or dead after the last)."}),
	}
	up := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "checkout_gateway_up",
		Help: "1 while the gateway works as this instance knows it (every call, a probe when idle), 0 while it fails."},
		func() float64 {
			if gatewayUp() {
				return 1
			}
			return 0
		})
	open := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "checkout_sse_streams_open",
		Help: "Live-status streams (Server-Sent Events) open now."}, func() float64 { return float64(streams()) })
	pending := prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "checkout_notification_backlog",
		Help: "Merchant notifications waiting for a delivery attempt (first ones and retries); -1 when the database does not answer."},
		func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			n, err := backlog(ctx)
			if err != nil {
				return -1
			}
			return float64(n)
		})
	// Every label value an alert compares is there from the start, at 0: a series that appears
	// only with its first error has no rate to alert on.
	for _, r := range checkout.PassResults() {
		m.reconcilePasses.WithLabelValues(string(r))
	}
	for _, op := range health.Operations() {
		for _, cause := range []health.Cause{health.CauseUnreachable, health.CauseTimeout} {
			m.gatewayErrors.WithLabelValues(op, string(cause))
		}
	}
	if feed != nil {
		if err := reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "checkout_change_feed_up",
			Help: "1 while this instance hears the changes of orders other instances make (PostgreSQL's LISTEN), 0 while its connection fails."},
			func() float64 {
				if ok, _ := feed(); ok {
					return 1
				}
				return 0
			})); err != nil {
			return nil, fmt.Errorf("app: metrics: %w", err)
		}
	}
	for _, c := range []prometheus.Collector{m.ordersPlaced, m.ordersPaid, m.ordersExpired, m.placement, m.gatewayCalls,
		m.gatewayErrors, m.webhookLag, m.reconcilePasses, m.reconcileFound, m.notifyAttempts, m.notifyFailures, up, open, pending,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("app: metrics: %w", err)
		}
	}
	return m, nil
}

// Placement counts a placement (checkout.Observer).
func (m *metrics) Placement(d time.Duration, channel checkout.Channel, outcome string, created bool) {
	if created {
		m.ordersPlaced.Inc()
	}
	m.placement.WithLabelValues(string(channel), outcome).Observe(d.Seconds())
}

// StatusChanged counts paid and expired orders (checkout.Observer).
func (m *metrics) StatusChanged(_, to checkout.OrderStatus) {
	switch to {
	case checkout.StatusPaid:
		m.ordersPaid.Inc()
	case checkout.StatusExpired:
		m.ordersExpired.Inc()
	}
}

// ReconcilePass counts a pass and its finds (checkout.Observer).
func (m *metrics) ReconcilePass(found int, result checkout.PassResult, _ error) {
	m.reconcilePasses.WithLabelValues(string(result)).Inc()
	m.reconcileFound.Add(float64(found))
}

// WebhookApplied observes a webhook's lag (web.Observer).
func (m *metrics) WebhookApplied(lag time.Duration, ok bool) {
	outcome := "applied"
	if !ok {
		outcome = "failed"
	}
	m.webhookLag.WithLabelValues(outcome).Observe(lag.Seconds())
}

// gatewayCall observes one exchange with the gateway.
func (m *metrics) gatewayCall(c health.Call) {
	var outcome, status string
	switch {
	case c.Err != nil && c.Cause == health.CauseNone:
		outcome = "canceled" // the caller gave up: nothing to count against the gateway
	case c.Err != nil:
		outcome, status = string(c.Cause), string(c.Cause)
	case c.Status < 400:
		outcome = "ok"
	case c.Status == http.StatusTooManyRequests:
		outcome, status = "rate_limited", strconv.Itoa(c.Status)
	case c.Status < 500:
		outcome, status = "client_error", strconv.Itoa(c.Status)
	default:
		outcome, status = "server_error", strconv.Itoa(c.Status)
	}
	m.gatewayCalls.WithLabelValues(c.Operation, outcome).Observe(c.Duration.Seconds())
	if status != "" {
		m.gatewayErrors.WithLabelValues(c.Operation, status).Inc()
	}
}

// notificationAttempt counts one attempt of a merchant notification.
func (m *metrics) notificationAttempt(a outbox.Attempt, status string) {
	outcome := "delivered"
	switch status {
	case outbox.StatusPending:
		outcome = "retry"
	case outbox.StatusDead:
		outcome = "dead"
	}
	m.notifyAttempts.WithLabelValues(outcome).Inc()
	if a.Error != "" {
		m.notifyFailures.Inc()
	}
}

// domainObserver is the domain's observer: the metrics, or none (a nil interface, not a nil
// *metrics).
func (a *App) domainObserver() checkout.Observer {
	if a.metrics == nil {
		return nil
	}
	return a.metrics
}

// webObserver is the web server's observer, as domainObserver.
func (a *App) webObserver() web.Observer {
	if a.metrics == nil {
		return nil
	}
	return a.metrics
}

// listenMetrics opens the metrics' listener (CHECKOUT_METRICS_ADDR), nil when off.
func listenMetrics(cfg Config) (net.Listener, error) {
	if cfg.MetricsAddr == "" || cfg.MetricsAddr == "off" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", cfg.MetricsAddr)
	if err != nil {
		return nil, &ConfigError{"CHECKOUT_METRICS_ADDR", fmt.Sprintf("cannot listen on %s: %v", cfg.MetricsAddr, err)}
	}
	return ln, nil
}

// serveMetrics serves GET /metrics on its own listener (never the public one) until ctx ends.
func (a *App) serveMetrics(ctx context.Context) {
	if a.metricsLn == nil {
		return
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(a.metrics.reg, promhttp.HandlerOpts{
		ErrorLog: slogPromLogger{a}, Registry: a.metrics.reg, MaxRequestsInFlight: 4, Timeout: 10 * time.Second}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: 16 << 10,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		if err := srv.Serve(a.metricsLn); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Error("metrics: serving", "err", err)
		}
	}()
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		<-ctx.Done()
		// A scrape cut short is retried at the next interval: nothing to drain.
		_ = srv.Close()
	}()
}

// slogPromLogger writes promhttp's errors to the app's log.
type slogPromLogger struct{ a *App }

func (l slogPromLogger) Println(v ...any) { l.a.log.Warn("metrics", "err", fmt.Sprint(v...)) }

// MetricsURL returns the metrics' URL (http://host:port/metrics), or "" when they are off.
func (a *App) MetricsURL() string {
	if a.metricsLn == nil {
		return ""
	}
	return loopbackURL(a.metricsLn.Addr()) + "/metrics"
}
