package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// scrape reads /metrics with Prometheus's own text parser.
func (r *running) scrape() map[string]*dto.MetricFamily {
	r.t.Helper()
	res, err := http.Get(r.app.MetricsURL())
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		r.t.Fatalf("/metrics: %d", res.StatusCode)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		r.t.Fatalf("/metrics does not parse: %v", err)
	}
	return fams
}

// value is the sum of a family's counters or gauges (0 when absent).
func value(fams map[string]*dto.MetricFamily, name string) float64 {
	f, ok := fams[name]
	if !ok {
		return 0
	}
	total := 0.0
	for _, m := range f.GetMetric() {
		switch {
		case m.GetCounter() != nil:
			total += m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			total += m.GetGauge().GetValue()
		case m.GetHistogram() != nil:
			total += float64(m.GetHistogram().GetSampleCount())
		}
	}
	return total
}

// TestMetrics: /metrics, on its own listener only, parses with Prometheus's text parser, and
// checkout_orders_placed_total and checkout_orders_paid_total move by exactly the orders placed
// and paid; the gateway, the placements, the streams and the runtime are there too.
func TestMetrics(t *testing.T) {
	t.Parallel()
	r := start(t, func(c *app.Config) { c.MetricsAddr = "127.0.0.1:0" })
	if r.app.MetricsURL() == "" {
		t.Fatal("no metrics URL with CHECKOUT_METRICS_ADDR set")
	}
	if res, _ := r.get("/metrics"); res.StatusCode != http.StatusNotFound {
		t.Errorf("/metrics on the public listener: %d, want 404", res.StatusCode)
	}
	before := r.scrape()
	var pays []string
	for range 3 {
		pays = append(pays, r.placeOrder())
	}
	// Two paid through the sandbox; the third stays open. A replay of a submission places
	// nothing more.
	for _, pay := range pays[:2] {
		if res := r.post(pay+"/sandbox-pay", url.Values{}); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox-pay: %d", res.StatusCode)
		}
	}
	for _, pay := range pays[:2] {
		id := strings.TrimPrefix(pay, "/pay/")
		deadline := time.Now().Add(10 * time.Second)
		for {
			o, err := r.app.Service().Order(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if o.Status == checkout.StatusPaid {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("order %s still %s", o.Number, o.Status)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// A stream open while scraping is counted.
	lines, body := r.stream(pays[2])
	defer body.Close()
	waitData(t, lines, "awaiting_payment")

	after := r.scrape()
	if d := value(after, "checkout_orders_placed_total") - value(before, "checkout_orders_placed_total"); d != 3 {
		t.Errorf("checkout_orders_placed_total moved by %v, want 3", d)
	}
	if d := value(after, "checkout_orders_paid_total") - value(before, "checkout_orders_paid_total"); d != 2 {
		t.Errorf("checkout_orders_paid_total moved by %v, want 2", d)
	}
	if v := value(after, "checkout_gateway_up"); v != 1 {
		t.Errorf("checkout_gateway_up %v, want 1", v)
	}
	if v := value(after, "checkout_sse_streams_open"); v != 1 {
		t.Errorf("checkout_sse_streams_open %v, want 1", v)
	}
	if v := value(after, "checkout_order_placement_duration_seconds"); v < 3 {
		t.Errorf("placement histogram counts %v placements, want 3", v)
	}
	h := after["checkout_gateway_request_duration_seconds"]
	ops := map[string]bool{}
	for _, m := range h.GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "operation" {
				ops[l.GetValue()] = true
			}
		}
	}
	if !ops["create_transaction"] || !ops["token"] {
		t.Errorf("gateway latency by operation: %v, want create_transaction and token", ops)
	}
	// Always there, observed or not (the families with labels appear with their first sample).
	for _, name := range []string{"checkout_orders_expired_total", "checkout_reconciler_payments_found_total",
		"checkout_notification_backlog", "checkout_notification_failures_total", "checkout_webhook_apply_lag_seconds",
		"checkout_reconciler_passes_total", "go_goroutines", "process_start_time_seconds"} {
		if _, ok := after[name]; !ok {
			t.Errorf("%s is missing", name)
		}
	}
	// The series an alert compares are there at 0 before their first count: a gateway error of
	// each operation, and each reconciler result (standby apart from skipped).
	series := func(name string) map[string]bool {
		got := map[string]bool{}
		for _, m := range before[name].GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetValue())
			}
			got[strings.Join(labels, ",")] = true
		}
		return got
	}
	if got := series("checkout_gateway_errors_total"); !got["create_transaction,unreachable"] || !got["get_deposit,timeout"] || !got["token,unreachable"] {
		t.Errorf("checkout_gateway_errors_total before any error: %v", got)
	}
	if got := series("checkout_reconciler_passes_total"); !got["ok"] || !got["error"] || !got["skipped"] || !got["standby"] {
		t.Errorf("checkout_reconciler_passes_total's results: %v", got)
	}
	if v := value(after, "checkout_webhook_apply_lag_seconds"); v < 2 {
		t.Errorf("webhook lag histogram counts %v webhooks, want the 2 payments' at least", v)
	}
}
