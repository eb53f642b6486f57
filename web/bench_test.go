package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkPixPage serves the PIX page of an awaiting order through the whole handler chain
// (router, middleware, order snapshot, rendering), without the network.
func BenchmarkPixPage(b *testing.B) { benchOrderPage(b, "") }

// benchOrderPage serves the page at suffix of an awaiting order's PIX page path, b.N times,
// through the whole handler chain, without the network.
func benchOrderPage(b *testing.B, suffix string) {
	e := newEnv(b)
	pay := e.placeOrder()
	h := e.web.Handler()
	req := httptest.NewRequest(http.MethodGet, pay+suffix, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// BenchmarkBareHandler writes a page of the same size from memory: the ceiling any page
// handler is compared with.
func BenchmarkBareHandler(b *testing.B) {
	e := newEnv(b)
	res := e.do(http.MethodGet, e.placeOrder(), nil)
	page, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}

// BenchmarkStatusJSON serves the status JSON of an awaiting order (the live page's polling
// fallback) through the whole handler chain, without the network.
func BenchmarkStatusJSON(b *testing.B) { benchOrderPage(b, "/status") }
