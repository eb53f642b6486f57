package brdoc

import (
	"errors"
	"strings"
	"testing"
)

func TestOnlyDigits(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"abc", ""},
		{"529.982.247-25", "52998224725"},
		{"12.ABC.345/01DE-35", "123450135"},
		{"０1", "1"}, // full-width digits are not ASCII digits
		{"007", "007"},
	}
	for _, tt := range tests {
		if got := OnlyDigits(tt.in); got != tt.want {
			t.Errorf("OnlyDigits(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeDocument(t *testing.T) {
	tests := []struct{ in, want string }{
		{"12.abc.345/01de-35", "12ABC34501DE35"},
		{" 529.982.247-25\t", "52998224725"},
		{"529_982", "529_982"}, // unknown characters are kept so validation fails on them
		{"", ""},
	}
	for _, tt := range tests {
		if got := NormalizeDocument(tt.in); got != tt.want {
			t.Errorf("NormalizeDocument(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidCPF(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"529.982.247-25", true},
		{"52998224725", true},
		{"111.444.777-35", true},
		{"11144477735", true},
		{"123.456.789-09", true},
		{"529.982.247-24", false}, // second check digit wrong
		{"529.982.247-15", false}, // first check digit wrong
		{"52998224726", false},
		{"000.000.000-00", false}, // all equal: check digits match but the number is invalid
		{"11111111111", false},
		{"99999999999", false},
		{"5299822472", false},   // 10 digits
		{"529982247250", false}, // 12 digits
		{"", false},
		{"5299822472A", false}, // letter
		{"529.982.247-2A", false},
		{"52998224725 ", false},   // trailing space: normalise first
		{"529982247-25", false},   // partial mask
		{"529.982.247/25", false}, // wrong separator
		{"529-982-247.25", false},
		{"12ABC34501DE35", false}, // a CNPJ is not a CPF
		{"11222333000181", false},
	}
	for _, tt := range tests {
		if got := ValidCPF(tt.in); got != tt.want {
			t.Errorf("ValidCPF(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestCPFCheckDigits(t *testing.T) {
	tests := []struct {
		base, want string
		err        bool
	}{
		{"529982247", "25", false}, // 295 % 11 = 9 -> 2; 347 % 11 = 6 -> 5
		{"111444777", "35", false},
		{"123456789", "09", false},
		{"000000001", "91", false},
		{"52998224", "", true},
		{"5299822470", "", true},
		{"52998224A", "", true},
		{"", "", true},
	}
	for _, tt := range tests {
		got, err := CPFCheckDigits(tt.base)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("CPFCheckDigits(%q) = %q, %v; want %q, error %v", tt.base, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, ErrCheckDigitBase) {
			t.Errorf("CPFCheckDigits(%q) error %v does not match ErrCheckDigitBase", tt.base, err)
		}
	}
}

func TestFormatCPF(t *testing.T) {
	tests := []struct{ in, want string }{
		{"52998224725", "529.982.247-25"},
		{"529.982.247-25", "529.982.247-25"},
		{"529 982 247 25", "529.982.247-25"},
		{"52998224724", "529.982.247-24"}, // formatting does not check the digits
		{"5299822472", "5299822472"},      // wrong length: unchanged
		{"5299822472A", "5299822472A"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := FormatCPF(tt.in); got != tt.want {
			t.Errorf("FormatCPF(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidCNPJ(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"11.222.333/0001-81", true},
		{"11222333000181", true},
		{"11.444.777/0001-61", true},
		{"12ABC34501DE35", true}, // Receita Federal's example of the alphanumeric CNPJ
		{"12.ABC.345/01DE-35", true},
		{"12abc34501de35", true}, // lower case is read as upper case
		{"12.abc.345/01De-35", true},
		{"12ABC34501DE36", false}, // second check digit wrong
		{"12ABC34501DE25", false}, // first check digit wrong
		{"12ABC34501DF35", false}, // one base character changed
		{"11222333000180", false},
		{"11.222.333/0001-91", false},
		{"00000000000000", false}, // all equal
		{"00.000.000/0000-00", false},
		{"77777777777777", false},
		{"1122233300018", false},   // 13
		{"112223330001811", false}, // 15
		{"", false},
		{"12ABC34501DE3A", false}, // letters are not allowed in the check digits
		{"12ABC34501DÉ35", false}, // non-ASCII letter
		{"12_BC34501DE35", false},
		{"11.222.333/0001.81", false}, // wrong separator
		{"11222333/0001-81", false},   // partial mask
		{"52998224725", false},        // a CPF is not a CNPJ
	}
	for _, tt := range tests {
		if got := ValidCNPJ(tt.in); got != tt.want {
			t.Errorf("ValidCNPJ(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestCNPJCheckDigits(t *testing.T) {
	tests := []struct {
		base, want string
		err        bool
	}{
		{"112223330001", "81", false},
		{"114447770001", "61", false},
		{"12ABC34501DE", "35", false},
		{"12abc34501de", "35", false},
		{"11222333000", "", true},
		{"1122233300011", "", true},
		{"12ABC34501D-", "", true},
		{"", "", true},
	}
	for _, tt := range tests {
		got, err := CNPJCheckDigits(tt.base)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("CNPJCheckDigits(%q) = %q, %v; want %q, error %v", tt.base, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, ErrCheckDigitBase) {
			t.Errorf("CNPJCheckDigits(%q) error %v does not match ErrCheckDigitBase", tt.base, err)
		}
	}
}

// TestCNPJCheckDigitsByHand spells out Receita Federal's worked example for "12ABC34501DE" so
// that a wrong weight or character value cannot hide behind a self-consistent implementation.
func TestCNPJCheckDigitsByHand(t *testing.T) {
	vals := []int{1, 2, 17, 18, 19, 3, 4, 5, 0, 1, 20, 21} // ASCII - 48
	w1 := []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	sum := 0
	for i, v := range vals {
		sum += v * w1[i]
	}
	if sum != 459 || 11-sum%11 != 3 {
		t.Fatalf("first digit by hand: sum %d", sum)
	}
	vals = append(vals, 3)
	w2 := []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	sum = 0
	for i, v := range vals {
		sum += v * w2[i]
	}
	if sum != 424 || 11-sum%11 != 5 {
		t.Fatalf("second digit by hand: sum %d", sum)
	}
	if got, _ := CNPJCheckDigits("12ABC34501DE"); got != "35" {
		t.Fatalf("CNPJCheckDigits = %q, want 35", got)
	}
}

func TestFormatCNPJ(t *testing.T) {
	tests := []struct{ in, want string }{
		{"11222333000181", "11.222.333/0001-81"},
		{"12abc34501de35", "12.ABC.345/01DE-35"},
		{"12.ABC.345/01DE-35", "12.ABC.345/01DE-35"},
		{"12ABC34501DE3A", "12ABC34501DE3A"}, // letter in check digits: unchanged
		{"1122233300018", "1122233300018"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := FormatCNPJ(tt.in); got != tt.want {
			t.Errorf("FormatCNPJ(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClassifyDocument(t *testing.T) {
	tests := []struct {
		in   string
		want DocumentKind
	}{
		{"529.982.247-25", DocumentCPF},
		{"52998224725", DocumentCPF},
		{"11.222.333/0001-81", DocumentCNPJ},
		{"12ABC34501DE35", DocumentCNPJ},
		{"52998224724", DocumentInvalid},
		{"11111111111", DocumentInvalid},
		{"", DocumentInvalid},
	}
	for _, tt := range tests {
		if got := ClassifyDocument(tt.in); got != tt.want {
			t.Errorf("ClassifyDocument(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if got := ValidDocument(tt.in); got != (tt.want != DocumentInvalid) {
			t.Errorf("ValidDocument(%q) = %v", tt.in, got)
		}
	}
	for k, want := range map[DocumentKind]string{DocumentInvalid: "invalid", DocumentCPF: "CPF", DocumentCNPJ: "CNPJ", 7: "DocumentKind(7)"} {
		if got := k.String(); got != want {
			t.Errorf("DocumentKind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

func TestFormatDocument(t *testing.T) {
	tests := []struct{ in, want string }{
		{"52998224725", "529.982.247-25"},
		{"11222333000181", "11.222.333/0001-81"},
		{"12abc34501de35", "12.ABC.345/01DE-35"},
		{"123", "123"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := FormatDocument(tt.in); got != tt.want {
			t.Errorf("FormatDocument(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestMaskDocument(t *testing.T) {
	tests := []struct{ in, want string }{
		{"123.456.789-09", "***.456.789-**"},
		{"12345678909", "***.456.789-**"},
		{"12.345.678/0001-95", "12.345.***/****-95"},
		{"12345678000195", "12.345.***/****-95"},
		{"12abc34501de35", "12.ABC.***/****-35"},
		{"***.456.789-**", "***.456.789-**"}, // already masked by the gateway
		{"12345", "***"},
		{"joao@example.com", "***"},
		{"", ""},
	}
	for _, tt := range tests {
		got := MaskDocument(tt.in)
		if got != tt.want {
			t.Errorf("MaskDocument(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if tt.in != "" && !strings.Contains(got, "***") {
			t.Errorf("MaskDocument(%q) = %q has no ***", tt.in, got)
		}
	}
}

func TestValidCEP(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"01310-100", true},
		{"01310100", true},
		{"99999-999", true},
		{"00000-001", true},
		{"00000000", false},
		{"00000-000", false},
		{"0131010", false},   // 7 digits
		{"013101000", false}, // 9 digits
		{"0131-0100", false}, // dash misplaced
		{"01310.100", false},
		{"01.310-100", false},
		{"0131A100", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := ValidCEP(tt.in); got != tt.want {
			t.Errorf("ValidCEP(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFormatCEP(t *testing.T) {
	tests := []struct{ in, want string }{
		{"01310100", "01310-100"},
		{"01310-100", "01310-100"},
		{"01.310-100", "01310-100"},
		{"0131010", "0131010"},
		{"0131A100", "0131A100"},
	}
	for _, tt := range tests {
		if got := FormatCEP(tt.in); got != tt.want {
			t.Errorf("FormatCEP(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
