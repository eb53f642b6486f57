package app

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// The picture fetcher never reaches this machine: a session's imageUrl naming a loopback
// address is refused by the dialer's guard, before any request is sent.
func TestImageFetcherRefusesThisMachine(t *testing.T) {
	t.Parallel()
	reached := false
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
	defer srv.Close()
	_, err := imageFetcher()(context.Background(), srv.URL+"/x.jpg")
	if !errors.Is(err, webhook.ErrBlockedAddress) || reached {
		t.Fatalf("fetching %s: %v (reached %v); want the guard's refusal", srv.URL, err, reached)
	}
}
