package brcode

import "testing"

func BenchmarkEncode(b *testing.B) {
	p := Payload{PointOfInitiation: InitiationDynamic, URL: "pix.example.com/qr/v2/8b3da2f39a4140d1a91abd93113bd441",
		Amount: 12345, MerchantName: "Loja Exemplo Comercio", MerchantCity: "SAO PAULO"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(bcbComposite); err != nil {
			b.Fatal(err)
		}
	}
}
