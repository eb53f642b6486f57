package brdoc

import (
	"strings"
	"testing"
)

func TestClassifyPixKey(t *testing.T) {
	email77 := strings.Repeat("a", 64) + "@example12.br" // 64 + 1 + 12 = 77
	tests := []struct {
		in   string
		want PixKeyType // "" for invalid
	}{
		{"52998224725", PixKeyCPF},
		{"529.982.247-25", PixKeyCPF},
		{"11222333000181", PixKeyCNPJ},
		{"11.222.333/0001-81", PixKeyCNPJ},
		{"12ABC34501DE35", PixKeyCNPJ},
		{"12.abc.345/01de-35", PixKeyCNPJ},
		{"+5511987654321", PixKeyPhone},
		{"+5599912345678", PixKeyPhone},
		{"joao@example.com", PixKeyEmail},
		{email77, PixKeyEmail},
		{"f47ac10b-58cc-4372-a567-0e02b2c3d479", PixKeyEVP},
		{"F47AC10B-58CC-4372-A567-0E02B2C3D479", PixKeyEVP},
		{"6ba7b810-9dad-11d1-80b4-00c04fd430c8", PixKeyEVP}, // DICT checks the UUID form only

		// Ambiguous: eleven bare digits are a CPF; a phone key must carry +55.
		{"11987654321", ""},   // looks like a mobile, is not a valid CPF
		{"5511987654321", ""}, // 13 digits without +
		{"52998224724", ""},   // CPF with a wrong check digit
		{"+55 11 98765-4321", ""},
		{"+55(11)98765-4321", ""},
		{"+551134567890", ""},  // landline: phone keys are mobiles
		{"+5520987654321", ""}, // DDD 20
		{"+1415555012345", ""}, // foreign number
		{"+55119876543210", ""},
		{strings.Repeat("a", 64) + "@example123.br", ""}, // 78 characters
		{"joao@example", ""},
		{"f47ac10b58cc4372a5670e02b2c3d479", ""},
		{"f47ac10b-58cc-4372-a567-0e02b2c3d47g", ""},
		{"00000000000", ""},
		{"", ""},
		{"chave", ""},
	}
	for _, tt := range tests {
		got, ok := ClassifyPixKey(tt.in)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ClassifyPixKey(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
		if ValidPixKey(tt.in) != (tt.want != "") {
			t.Errorf("ValidPixKey(%q) = %v", tt.in, !(tt.want != ""))
		}
	}
	if len(email77) != 77 {
		t.Fatalf("email77 has %d characters", len(email77))
	}
}

func TestNormalizePixKey(t *testing.T) {
	tests := []struct {
		in, want string
		typ      PixKeyType
	}{
		{"529.982.247-25", "52998224725", PixKeyCPF},
		{"12.abc.345/01de-35", "12ABC34501DE35", PixKeyCNPJ},
		{"Joao@Example.com", "joao@example.com", PixKeyEmail},
		{"F47AC10B-58CC-4372-A567-0E02B2C3D479", "f47ac10b-58cc-4372-a567-0e02b2c3d479", PixKeyEVP},
		{"+5511987654321", "+5511987654321", PixKeyPhone},
	}
	for _, tt := range tests {
		got, typ, ok := NormalizePixKey(tt.in)
		if !ok || got != tt.want || typ != tt.typ {
			t.Errorf("NormalizePixKey(%q) = %q, %q, %v; want %q, %q", tt.in, got, typ, ok, tt.want, tt.typ)
		}
	}
	if got, typ, ok := NormalizePixKey("11987654321"); ok || got != "" || typ != "" {
		t.Errorf("NormalizePixKey(invalid) = %q, %q, %v", got, typ, ok)
	}
}

func TestFormatPixKey(t *testing.T) {
	for _, tt := range []struct {
		key  string
		kind PixKeyType
		want string
	}{
		{"52998224725", PixKeyCPF, "529.982.247-25"},
		{"52998224725", "", "529.982.247-25"},
		{"11222333000181", PixKeyCNPJ, "11.222.333/0001-81"},
		{"+5511987654321", PixKeyPhone, "+55 (11) 98765-4321"},
		{"+5511987654321", "", "+55 (11) 98765-4321"},
		{"loja@example.com", PixKeyEmail, "loja@example.com"},
		{"3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d", PixKeyEVP, "3f1c8a52-7d4e-4b6a-9c2f-1e5d7a9b0c3d"},
		// Not a key of the kind it is said to be, or masked: as it is.
		{"52998224725", PixKeyPhone, "52998224725"},
		{"***.982.247-**", PixKeyCPF, "***.982.247-**"},
		{"", "", ""},
	} {
		if got := FormatPixKey(tt.key, tt.kind); got != tt.want {
			t.Errorf("FormatPixKey(%q, %q) = %q, want %q", tt.key, tt.kind, got, tt.want)
		}
	}
}

func TestMaskPixKey(t *testing.T) {
	tests := []struct {
		in   string
		t    PixKeyType
		want string
	}{
		{"529.982.247-25", "", "***.982.247-**"},
		{"52998224725", PixKeyCPF, "***.982.247-**"},
		{"+5511987654321", "", "+55 (11) *****-4321"},
		{"+5511987654321", PixKeyPhone, "+55 (11) *****-4321"},
		{"maria@example.com", "", "maria@example.com"},
		{"123e4567-e89b-12d3-a456-426614174000", PixKeyEVP, "123e4567-e89b-12d3-a456-426614174000"},
		{"***.982.247-**", PixKeyCPF, "***.982.247-**"},
		{"98765", "", "***"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := MaskPixKey(tt.in, tt.t); got != tt.want {
			t.Errorf("MaskPixKey(%q, %q) = %q, want %q", tt.in, tt.t, got, tt.want)
		}
	}
}
