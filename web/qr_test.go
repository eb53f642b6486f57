package web_test

import (
	"fmt"
	"testing"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/web"
)

// Every drawn image decodes to exactly its code (codes of several lengths and amounts).
func TestQRImageDecodes(t *testing.T) {
	for i := range 40 {
		p := brcode.Payload{
			Key:          "123e4567-e89b-42d3-a456-426614174000",
			Amount:       int64(1 + i*7919),
			MerchantName: "LOJA DEMO PIX",
			MerchantCity: "SAO PAULO",
			TxID:         fmt.Sprintf("TX%0*d", 2+i%20, i),
		}
		code, err := p.Encode()
		if err != nil {
			t.Fatal(err)
		}
		img, err := web.QRImage(code)
		if err != nil {
			t.Fatal(err)
		}
		if got := decodeQR(t, img); got != code {
			t.Errorf("%q decodes to %q", code, got)
		}
	}
}

func BenchmarkQRImage(b *testing.B) {
	code, err := brcode.Payload{Key: "123e4567-e89b-42d3-a456-426614174000", Amount: 2990,
		MerchantName: "LOJA DEMO PIX", MerchantCity: "SAO PAULO", TxID: "7f3a9c2e4b5d4e6f8a1b2c3d4"}.Encode()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for range b.N {
		if _, err := web.QRImage(code); err != nil {
			b.Fatal(err)
		}
	}
}
