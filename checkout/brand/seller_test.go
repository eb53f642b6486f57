package brand_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestSeller: the gateway's seller is the payee (the legal name, else the name) with the
// document; none without a document, and none when the gateway would refuse its name — which
// Check refuses to save, naming the legal name.
func TestSeller(t *testing.T) {
	t.Parallel()
	const cnpj = "11.222.333/0001-81"
	for _, tc := range []struct {
		name string
		p    brand.Profile
		want *gatewayclient.Seller
		bad  bool // Check names the legal name
	}{
		{"legal name", brand.Profile{Name: "Café Ñandu", LegalName: "Ñandu Comércio de Café Ltda", Document: cnpj},
			&gatewayclient.Seller{Name: "Ñandu Comércio de Café Ltda", Document: cnpj}, false},
		{"the name without a legal name", brand.Profile{Name: "Silva & Filhos (Matriz)", Document: "529.982.247-25"},
			&gatewayclient.Seller{Name: "Silva & Filhos (Matriz)", Document: "529.982.247-25"}, false},
		{"no document", brand.Profile{Name: "Loja", LegalName: "Loja Ltda"}, nil, false},
		{"a name the gateway refuses", brand.Profile{Name: "Loja <Top>!", Document: cnpj}, nil, true},
		{"a legal name the gateway refuses", brand.Profile{Name: "Loja", LegalName: "Loja {Ltda}", Document: cnpj}, nil, true},
		{"a bad name without a document", brand.Profile{Name: "Loja!"}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.Seller(); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Seller() = %+v, want %+v", got, tc.want)
			}
			err := tc.p.Check()
			var ve *checkout.ValidationError
			if got := errors.As(err, &ve) && ve.Has(brand.FieldLegalName); got != tc.bad {
				t.Errorf("Check() = %v, want an error on %s: %v", err, brand.FieldLegalName, tc.bad)
			}
		})
	}
}
