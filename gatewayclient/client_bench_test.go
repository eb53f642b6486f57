package gatewayclient

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
)

// BenchmarkCreateTransactionRequest measures what CreateTransaction does to a request before
// sending it: validating every field of a full request and encoding it (defaults filled in)
// as JSON.
func BenchmarkCreateTransactionRequest(b *testing.B) {
	req := fullRequest()
	b.ReportAllocs()
	for b.Loop() {
		if err := req.Validate(); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(req.WithDefaults()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateTransaction measures one whole CreateTransaction against a local server
// over loopback HTTP, the token being cached: the client's cost per order plus the
// round trip.
func BenchmarkCreateTransaction(b *testing.B) {
	g := newTestGateway(b, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 201, transactionJSON) })
	c, err := New(g.srv.URL, testClientID, testClientSecret)
	if err != nil {
		b.Fatal(err)
	}
	req := fullRequest()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CreateTransaction(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
