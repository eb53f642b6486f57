package checkout

import "testing"

// The tracking link of a known carrier carries the code, escaped; a carrier without a known
// page, or typed freely, has none.
func TestTrackingURL(t *testing.T) {
	for _, c := range []struct{ carrier, code, want string }{
		{"Correios", "AA123456789BR", "https://rastreamento.correios.com.br/app/index.php?objetos=AA123456789BR"},
		{" correios ", "AB&1", "https://rastreamento.correios.com.br/app/index.php?objetos=AB%261"},
		{"Total Express", "123456", ""},
		{"Transportadora do Zé", "123456", ""},
		{"Correios", "", ""},
	} {
		if got := TrackingURL(c.carrier, c.code); got != c.want {
			t.Errorf("TrackingURL(%q, %q) = %q, want %q", c.carrier, c.code, got, c.want)
		}
	}
	if _, ok := KnownCarrier("jadlog"); !ok {
		t.Error("Jadlog is not a known carrier")
	}
}
