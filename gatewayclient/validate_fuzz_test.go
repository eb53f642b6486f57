package gatewayclient

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzWebhookURL checks that the webhookUrl rule never panics and that whatever it accepts
// is an absolute https URL with a dotted host name, no user information and no fragment.
func FuzzWebhookURL(f *testing.F) {
	for _, s := range []string{"https://example.com/hook?a=b", "http://example.com", "https://localhost/x",
		"https://127.0.0.1/x", "https://[::1]/x", "https://example.com/#", "https://u:p@example.com/", "https://exa mple.com",
		"https://example.c0m/x", "https://exemplo.xn--p1ai/", "https://example.com:99999/", "HTTPS://EXAMPLE.COM", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, msg := checkWebhookURL(s)
		if code != "" {
			if msg == "" {
				t.Fatalf("checkWebhookURL(%q): code %q without a message", s, code)
			}
			return
		}
		u, err := url.Parse(s)
		if err != nil || !strings.EqualFold(u.Scheme, "https") || u.User != nil || strings.Contains(s, "#") ||
			!strings.Contains(u.Hostname(), ".") {
			t.Fatalf("checkWebhookURL accepted %q (%+v, %v)", s, u, err)
		}
		r := CreateTransactionRequest{Amount: 1, PaymentMethod: PaymentMethodPIX, IdempotencyKey: "12345678",
			Pix: &PixRequest{}, WebhookURL: s}
		if err := r.Validate(); err != nil {
			t.Fatalf("Validate refuses the accepted %q: %v", s, err)
		}
	})
}
