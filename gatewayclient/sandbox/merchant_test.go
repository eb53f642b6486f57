package sandbox

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
)

// A merchant name or city with accents, or longer than the BR Code allows, must still give
// valid BR Codes: folded to ASCII and cut to 25 and 15 characters.
func TestMerchantNameFoldedIntoBRCode(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *Options) {
		o.MerchantName = "Café São João Comércio de Alimentos"
		o.MerchantCity = "São José dos Campos"
	})
	tx := e.createTx(e.token(), "merchant-name-1", 1234)
	p, err := brcode.Decode(tx.PixResponse.URI)
	if err != nil {
		t.Fatalf("BR Code %q: %v", tx.PixResponse.URI, err)
	}
	if p.MerchantName != "Cafe Sao Joao Comercio de" || p.MerchantCity != "Sao Jose dos Ca" {
		t.Errorf("merchant %q in %q, want folded and cut", p.MerchantName, p.MerchantCity)
	}
}
