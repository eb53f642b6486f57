package checkout_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// An embedOrigin (also a postMessage target) is one exact origin; a configured frame-ancestors
// source may also end in a slash or start its host with a wildcard, as CSP allows. Neither may
// carry anything that ends the CSP directive or that a browser would drop it for.
func TestCheckOriginAndFrameAncestor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in             string
		origin, source bool // accepted as an origin, as a frame-ancestors source
	}{
		{"https://shop.example.com", true, true},
		{"http://localhost:3000", true, true},
		{"https://shop.example.com/", false, true},
		{"https://*.example.com", false, true},
		{"https://*", false, false},
		{"https://a.*.example.com", false, false},
		{"https://shop.example.com/checkout", false, false},
		{"https://shop.example.com?x=1", false, false},
		{"https://shop.example.com#top", false, false},
		{"https://user@shop.example.com", false, false},
		{"ftp://shop.example.com", false, false},
		{"shop.example.com", false, false},
		{"https://a.example.com; script-src *", false, false},
		{"https://a.example.com,https://b.example.com", false, false},
		{"'self'", false, false},
		{"https://lojá.example.com", false, false},
		{"https://xn--loj-3na.example.com", true, true},
	} {
		if err := checkout.CheckOrigin(tc.in); (err == nil) != tc.origin {
			t.Errorf("CheckOrigin(%q) = %v, want accepted %v", tc.in, err, tc.origin)
		}
		if err := checkout.CheckFrameAncestor(tc.in); (err == nil) != tc.source {
			t.Errorf("CheckFrameAncestor(%q) = %v, want accepted %v", tc.in, err, tc.source)
		}
	}
}
