package notify

import (
	"errors"
	"net"
	"strings"
	"testing"
)

// TestDeliveryCauseHidesAddresses: a failed test ping says why in words, never the resolver's
// address the raw error holds.
func TestDeliveryCauseHidesAddresses(t *testing.T) {
	err := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "loja.invalid",
		Server: "10.96.0.10:53", IsNotFound: true}}
	got := deliveryCause(err)
	if strings.Contains(got, "10.96.0.10") || !strings.Contains(got, "does not exist") {
		t.Errorf("deliveryCause(%v) = %q; want the cause in words, no address", err, got)
	}
	if got := deliveryCause(errors.New("dial tcp 192.0.2.1:443: connect: something")); strings.Contains(got, "192.0.2.1") {
		t.Errorf("an unknown failure shows its address: %q", got)
	}
}
