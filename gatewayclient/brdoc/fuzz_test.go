package brdoc

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzValidCPF checks that ValidCPF never panics, agrees with the check-digit function, and
// that a valid CPF survives formatting and normalising.
func FuzzValidCPF(f *testing.F) {
	for _, s := range []string{"52998224725", "529.982.247-25", "11111111111", "5299822472", "", "529.982.247-2A", "\xff\xfe", "###.###.###-##"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidCPF(s) {
			return
		}
		n := NormalizeDocument(s)
		if len(n) != 11 || OnlyDigits(n) != n {
			t.Fatalf("ValidCPF(%q) but normalised %q is not 11 digits", s, n)
		}
		if dv, err := CPFCheckDigits(n[:9]); err != nil || dv != n[9:] {
			t.Fatalf("ValidCPF(%q) but check digits are %q, %v", s, dv, err)
		}
		formatted := FormatCPF(s)
		if !ValidCPF(formatted) || NormalizeDocument(formatted) != n {
			t.Fatalf("FormatCPF(%q) = %q does not validate back to %q", s, formatted, n)
		}
		if ClassifyDocument(s) != DocumentCPF {
			t.Fatalf("ClassifyDocument(%q) = %v", s, ClassifyDocument(s))
		}
		if got, ok := ClassifyPixKey(s); !ok || got != PixKeyCPF {
			t.Fatalf("ClassifyPixKey(%q) = %q, %v", s, got, ok)
		}
	})
}

// FuzzValidCNPJ is FuzzValidCPF for CNPJ, numeric and alphanumeric.
func FuzzValidCNPJ(f *testing.F) {
	for _, s := range []string{"11222333000181", "11.222.333/0001-81", "12ABC34501DE35", "12.abc.345/01de-35", "00000000000000", "12ABC34501DE3A", "", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidCNPJ(s) {
			return
		}
		n := NormalizeDocument(s)
		if !cnpjShape(n) {
			t.Fatalf("ValidCNPJ(%q) but normalised %q is not a CNPJ shape", s, n)
		}
		if dv, err := CNPJCheckDigits(n[:12]); err != nil || dv != n[12:] {
			t.Fatalf("ValidCNPJ(%q) but check digits are %q, %v", s, dv, err)
		}
		formatted := FormatCNPJ(s)
		if !ValidCNPJ(formatted) || NormalizeDocument(formatted) != n {
			t.Fatalf("FormatCNPJ(%q) = %q does not validate back to %q", s, formatted, n)
		}
		if ClassifyDocument(s) != DocumentCNPJ {
			t.Fatalf("ClassifyDocument(%q) = %v", s, ClassifyDocument(s))
		}
		if m := MaskDocument(s); !strings.Contains(m, "***") || strings.Contains(m, n[5:12]) {
			t.Fatalf("MaskDocument(%q) = %q", s, m)
		}
	})
}

// FuzzFormatDocument checks that formatting never panics, that it keeps the characters of the
// document, and that a valid document stays valid.
func FuzzFormatDocument(f *testing.F) {
	for _, s := range []string{"52998224725", "12abc34501de35", "123", "", "12.ABC.345/01DE-35", "***.456.789-**"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := FormatDocument(s)
		if out != s && NormalizeDocument(out) != NormalizeDocument(s) {
			t.Fatalf("FormatDocument(%q) = %q changed the characters", s, out)
		}
		if ValidDocument(s) && (!ValidDocument(out) || ClassifyDocument(out) != ClassifyDocument(s)) {
			t.Fatalf("FormatDocument(%q) = %q is no longer the same valid document", s, out)
		}
		if m := MaskDocument(s); s != "" && !strings.Contains(m, "***") {
			t.Fatalf("MaskDocument(%q) = %q has no ***", s, m)
		}
		_ = FormatCEP(s)
	})
}

// FuzzClassifyPixKey checks that classification never panics and is consistent with the
// validator of the kind it reports and with NormalizePixKey.
func FuzzClassifyPixKey(f *testing.F) {
	for _, s := range []string{"52998224725", "529.982.247-25", "12ABC34501DE35", "+5511987654321", "11987654321",
		"joao@example.com", "f47ac10b-58cc-4372-a567-0e02b2c3d479", "+", "@", "", "+55 11 98765-4321"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, ok := ClassifyPixKey(s)
		if ok != ValidPixKey(s) {
			t.Fatalf("ClassifyPixKey and ValidPixKey disagree on %q", s)
		}
		var consistent bool
		switch typ {
		case "":
			consistent = !ok
		case PixKeyCPF:
			consistent = ValidCPF(s)
		case PixKeyCNPJ:
			consistent = ValidCNPJ(s)
		case PixKeyEmail:
			consistent = ValidEmail(s) && len(s) <= 77
		case PixKeyPhone:
			consistent = ValidMobile(s) && NormalizePhone(s) == s
		case PixKeyEVP:
			consistent = ValidUUID(s)
		}
		if !consistent {
			t.Fatalf("ClassifyPixKey(%q) = %q, %v is inconsistent", s, typ, ok)
		}
		if ok {
			n, nt, nok := NormalizePixKey(s)
			if !nok || nt != typ {
				t.Fatalf("NormalizePixKey(%q) = %q, %q, %v", s, n, nt, nok)
			}
			if again, at, aok := NormalizePixKey(n); !aok || again != n || at != typ {
				t.Fatalf("NormalizePixKey is not idempotent on %q: %q then %q", s, n, again)
			}
		}
	})
}

// FuzzPhone checks that phone parsing never panics and that the E.164 form of a valid number
// is the same kind of number and formats the same way.
func FuzzPhone(f *testing.F) {
	for _, s := range []string{"(11) 98765-4321", "+55 11 3456-7890", "5511987654321", "+", "++", "", "(20) 98765-4321"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := ClassifyPhone(s)
		e := NormalizePhone(s)
		if (k == PhoneInvalid) != (e == "") {
			t.Fatalf("ClassifyPhone(%q) = %v but NormalizePhone = %q", s, k, e)
		}
		if k == PhoneInvalid {
			return
		}
		if ClassifyPhone(e) != k || FormatPhone(e) != FormatPhone(s) || NormalizePhone(FormatPhone(s)) != e {
			t.Fatalf("round trip of %q: E.164 %q, formatted %q", s, e, FormatPhone(s))
		}
	})
}

// FuzzValidEmail checks that e-mail validation never panics and never accepts white space or
// a missing part.
func FuzzValidEmail(f *testing.F) {
	for _, s := range []string{"joao@example.com", "a@b.co", "@", "a@b", "a@b.c", "", "joão@example.com"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidEmail(s) {
			return
		}
		local, domain, _ := strings.Cut(s, "@")
		if len(s) > 254 || local == "" || !strings.Contains(domain, ".") || strings.ContainsAny(s, " \t\r\n") {
			t.Fatalf("ValidEmail(%q) accepted a malformed address", s)
		}
	})
}

// FuzzGenerate checks that generated documents always validate, from any seed.
func FuzzGenerate(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(0), uint64(0))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		for range 20 {
			if cpf := GenerateCPF(r); !ValidCPF(cpf) || len(cpf) != 11 {
				t.Fatalf("GenerateCPF = %q is not valid", cpf)
			}
			if cnpj := GenerateCNPJ(r, false); !ValidCNPJ(cnpj) || OnlyDigits(cnpj) != cnpj {
				t.Fatalf("GenerateCNPJ(numeric) = %q", cnpj)
			}
			cnpj := GenerateCNPJ(r, true)
			if !ValidCNPJ(cnpj) || OnlyDigits(cnpj[:12]) == cnpj[:12] || NormalizeDocument(cnpj) != cnpj {
				t.Fatalf("GenerateCNPJ(alphanumeric) = %q", cnpj)
			}
		}
	})
}

// TestGenerateDeterministic checks that generation depends on the source alone, so seeded data
// is reproducible.
func TestGenerateDeterministic(t *testing.T) {
	r1 := rand.New(rand.NewPCG(7, 7))
	r2 := rand.New(rand.NewPCG(7, 7))
	for range 100 {
		a, b := GenerateCPF(r1), GenerateCPF(r2)
		if a != b {
			t.Fatalf("same seed gave %q and %q", a, b)
		}
		if c, d := GenerateCNPJ(r1, true), GenerateCNPJ(r2, true); c != d {
			t.Fatalf("same seed gave %q and %q", c, d)
		}
	}
	seen := map[string]bool{}
	r := rand.New(rand.NewPCG(1, 1))
	for range 100 {
		seen[GenerateCPF(r)] = true
	}
	if len(seen) < 95 {
		t.Fatalf("only %d distinct CPFs in 100 draws", len(seen))
	}
}

// FuzzValidCEP checks that ValidCEP never panics and that a valid CEP is 8 digits, not all
// zeros, that FormatCEP writes as "#####-###", which validates back to the same digits.
func FuzzValidCEP(f *testing.F) {
	for _, s := range []string{"01310-100", "01310100", "00000-000", "1310-100", "0131A-100", "01310_100", "013101000", "", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidCEP(s) {
			return
		}
		d := OnlyDigits(s)
		if len(d) != 8 || d == "00000000" || (len(s) != 8 && len(s) != 9) {
			t.Fatalf("ValidCEP(%q) but its digits are %q", s, d)
		}
		formatted := FormatCEP(s)
		if len(formatted) != 9 || formatted[5] != '-' || !ValidCEP(formatted) || OnlyDigits(formatted) != d {
			t.Fatalf("FormatCEP(%q) = %q", s, formatted)
		}
	})
}
