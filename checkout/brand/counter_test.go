package brand_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

// The store's address as merchants write it gives the gateway's address of a sale at the
// counter; an address missing a part gives none.
func TestCounterAddress(t *testing.T) {
	want := checkout.Address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1000", Neighborhood: "Bela Vista",
		City: "São Paulo", State: "SP", Country: "Brasil"}
	for _, text := range []string{
		"Avenida Paulista, 1000 - Bela Vista, São Paulo - SP, 01310-100",
		"Avenida Paulista, nº 1000\nBela Vista\nSão Paulo/SP\nCEP 01310100",
		"Avenida Paulista, 1000, Bela Vista, São Paulo, SP, CEP: 01310-100",
	} {
		got := brand.Profile{Address: text}.CounterAddress()
		if got == nil || *got != want {
			t.Errorf("%q: %+v", text, got)
		}
	}
	withComplement := brand.Profile{Address: "Rua das Flores, 12, Loja 3 - Centro, Curitiba - PR, 80020-000"}.CounterAddress()
	if withComplement == nil || withComplement.Complement != "Loja 3" || withComplement.Neighborhood != "Centro" || withComplement.City != "Curitiba" {
		t.Errorf("with a complement: %+v", withComplement)
	}
	for _, text := range []string{"", "Avenida Paulista, 1000 - Bela Vista, São Paulo - SP", "Avenida Paulista, sem número - Bela Vista, São Paulo - SP, 01310-100",
		"São Paulo - SP, 01310-100"} {
		if got := (brand.Profile{Address: text}).CounterAddress(); got != nil {
			t.Errorf("%q: %+v, want none", text, got)
		}
	}
}
