package checkout_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestIsOrderNumber: a whole number as the shop makes them, case aside; not a piece of one,
// nor letters Crockford's alphabet leaves out.
func TestIsOrderNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"PX-7K3M9QZ2": true, "px-7k3m9qz2": true, "PX-00000042": true,
		"PX-7K3M9QZ": false, "PX-7K3M9QZ22": false, "PX-7K3M9QZI": false, "PY-7K3M9QZ2": false, "7K3M9QZ2": false, "": false,
	} {
		if got := checkout.IsOrderNumber(s); got != want {
			t.Errorf("IsOrderNumber(%q) = %v, want %v", s, got, want)
		}
	}
}
