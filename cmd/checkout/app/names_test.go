package app_test

import (
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

// TestNonLatinMerchantNameInBRCode: a Cyrillic shop name reaches the shopper's bank app
// romanised, not replaced by the sandbox's own name.
func TestNonLatinMerchantNameInBRCode(t *testing.T) {
	t.Parallel()
	r := start(t, func(c *app.Config) { c.MerchantName = "Кафе Москва" })
	_, doc := r.get(r.placeOrder())
	if !strings.Contains(doc.Text(), "Кафе Москва") {
		t.Error("the PIX page does not show the name as configured")
	}
	code, err := brcode.Decode(strings.TrimSpace(doc.Find(`[data-testid="pix-code"]`).Text()))
	if err != nil {
		t.Fatal(err)
	}
	if code.MerchantName != "Kafe Moskva" {
		t.Errorf("BR Code merchant name %q, want Kafe Moskva", code.MerchantName)
	}
}
