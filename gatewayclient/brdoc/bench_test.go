package brdoc

import "testing"

func BenchmarkValidCPF(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if !ValidCPF("529.982.247-25") {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkValidCNPJ(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if !ValidCNPJ("12.ABC.345/01DE-35") {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkClassifyPixKey(b *testing.B) {
	b.ReportAllocs()
	keys := []string{"52998224725", "12ABC34501DE35", "+5511987654321", "joao@example.com", "f47ac10b-58cc-4372-a567-0e02b2c3d479"}
	for b.Loop() {
		for _, k := range keys {
			if _, ok := ClassifyPixKey(k); !ok {
				b.Fatal(k)
			}
		}
	}
}

func BenchmarkValidMobile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if !ValidMobile("+55 (11) 98765-4321") {
			b.Fatal("invalid")
		}
	}
}

// TestValidatorsDoNotAllocate holds the zero-allocation promise of the package doc.
func TestValidatorsDoNotAllocate(t *testing.T) {
	checks := map[string]func() bool{
		"ValidCPF":       func() bool { return ValidCPF("529.982.247-25") },
		"ValidCNPJ":      func() bool { return ValidCNPJ("12.abc.345/01de-35") },
		"ValidDocument":  func() bool { return ValidDocument("11222333000181") },
		"ValidCEP":       func() bool { return ValidCEP("01310-100") },
		"ValidMobile":    func() bool { return ValidMobile("+55 (11) 98765-4321") },
		"ValidLandline":  func() bool { return ValidLandline("(11) 3456-7890") },
		"ValidEmail":     func() bool { return ValidEmail("joao.silva@example.com.br") },
		"ValidUUIDv4":    func() bool { return ValidUUIDv4("f47ac10b-58cc-4372-a567-0e02b2c3d479") },
		"ValidPixKey":    func() bool { return ValidPixKey("+5511987654321") },
		"ValidPixKeyDoc": func() bool { return ValidPixKey("12.ABC.345/01DE-35") },
	}
	for name, fn := range checks {
		if !fn() {
			t.Fatalf("%s: test input is not valid", name)
		}
		if n := testing.AllocsPerRun(100, func() { fn() }); n != 0 {
			t.Errorf("%s allocates %.0f times per call", name, n)
		}
	}
}
