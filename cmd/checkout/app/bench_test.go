package app_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// BenchmarkSandboxPayToSSE measures the delay from the shopper's sandbox-pay to the paid status
// reaching an open SSE stream of the PIX page, through the whole app (the gateway client calls
// the embedded sandbox over HTTP). Each iteration places an order and opens its stream outside
// the measured span; p50 and p95 are reported in milliseconds.
func BenchmarkSandboxPayToSSE(b *testing.B) {
	// Only the page's own path counts: no reconciler.
	r := start(b, func(c *app.Config) { c.ReconcileInterval = 0 })
	a := r.app
	delays := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		pay := r.placeOrder()
		lines, body := r.stream(pay)
		if !benchWait(lines, `"awaiting_payment"`) {
			b.Fatal("stream ended before the first status")
		}
		b.StartTimer()
		start := time.Now()
		res, err := r.http.Post(a.URL()+pay+"/sandbox-pay", "application/x-www-form-urlencoded", strings.NewReader(""))
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if !benchWait(lines, `"paid"`) {
			b.Fatal("stream ended before paid")
		}
		delays = append(delays, time.Since(start))
		b.StopTimer()
		body.Close()
	}
	slices.Sort(delays)
	ms := func(q float64) float64 {
		return float64(delays[int(q*float64(len(delays)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.95), "p95-ms")
}

// benchWait waits for a data line containing want (the stream's own end bounds the wait).
func benchWait(lines <-chan string, want string) bool {
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return false
			}
			if strings.HasPrefix(l, "data: ") && strings.Contains(l, want) {
				return true
			}
		case <-timeout:
			return false
		}
	}
}

// BenchmarkCreateSessions measures checkout sessions created per second through the merchant
// API of a whole app: real HTTP on loopback, a stored API key checked on each request,
// validation with the gateway's rules, an Idempotency-Key per request, the session written to
// the store. Requests run in parallel (8 per GOMAXPROCS). On SQLite and on PostgreSQL.
func BenchmarkCreateSessions(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchCreateSessions(b, start(b, nil)) })
	b.Run("postgres", func(b *testing.B) {
		url := postgresDatabase(b)
		benchCreateSessions(b, start(b, func(c *app.Config) { c.DatabaseURL = url }))
	})
}

func benchCreateSessions(b *testing.B, r *running) {
	key, _, err := r.app.APIKeys().Create(context.Background(), "benchmark", apikeys.ScopeWrite, nil)
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"items": [{"productId": "ebook-receitas-do-cerrado", "quantity": 2},
		{"title": "Camiseta", "unitPrice": 5990, "quantity": 1, "type": "DIGITAL"}],
		"externalCode": "pedido-123", "embedOrigin": "https://loja.example.com",
		"successUrl": "https://loja.example.com/obrigado", "customer": {"name": "Maria da Silva", "email": "maria@example.com"},
		"metadata": {"cliente": "42"}}`)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 30 * time.Second}
	url := r.app.URL() + "/api/v1/checkout-sessions"
	var n atomic.Int64
	b.SetParallelism(8)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+key)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", "bench-"+strconv.FormatInt(n.Add(1), 10))
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusCreated {
				b.Errorf("status %d", res.StatusCode)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "sessions/s")
}
