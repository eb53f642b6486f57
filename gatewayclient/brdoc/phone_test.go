package brdoc

import (
	"fmt"
	"testing"
)

// anatelDDDs is ANATEL's list, written out independently of the implementation.
var anatelDDDs = map[int]bool{
	11: true, 12: true, 13: true, 14: true, 15: true, 16: true, 17: true, 18: true, 19: true,
	21: true, 22: true, 24: true, 27: true, 28: true,
	31: true, 32: true, 33: true, 34: true, 35: true, 37: true, 38: true,
	41: true, 42: true, 43: true, 44: true, 45: true, 46: true, 47: true, 48: true, 49: true,
	51: true, 53: true, 54: true, 55: true,
	61: true, 62: true, 63: true, 64: true, 65: true, 66: true, 67: true, 68: true, 69: true,
	71: true, 73: true, 74: true, 75: true, 77: true, 79: true,
	81: true, 82: true, 83: true, 84: true, 85: true, 86: true, 87: true, 88: true, 89: true,
	91: true, 92: true, 93: true, 94: true, 95: true, 96: true, 97: true, 98: true, 99: true,
}

func TestValidDDDEveryCode(t *testing.T) {
	if len(anatelDDDs) != 67 {
		t.Fatalf("test list has %d codes, want 67", len(anatelDDDs))
	}
	for c := 0; c < 100; c++ {
		ddd := fmt.Sprintf("%02d", c)
		want := anatelDDDs[c]
		if got := ValidDDD(ddd); got != want {
			t.Errorf("ValidDDD(%q) = %v, want %v", ddd, got, want)
		}
		if got := ValidMobile(ddd + "987654321"); got != want {
			t.Errorf("ValidMobile(%s987654321) = %v, want %v", ddd, got, want)
		}
		if got := ValidLandline(ddd + "34567890"); got != want {
			t.Errorf("ValidLandline(%s34567890) = %v, want %v", ddd, got, want)
		}
	}
	for _, s := range []string{"", "1", "111", "1a", "a1"} {
		if ValidDDD(s) {
			t.Errorf("ValidDDD(%q) = true", s)
		}
	}
}

func TestValidMobile(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"(11) 98765-4321", true},
		{"+55 11 98765-4321", true},
		{"+55 (11) 98765-4321", true},
		{"11987654321", true},
		{"5511987654321", true},
		{"+5511987654321", true},
		{"11 98765 4321", true},
		{"(99) 91234-5678", true},
		{"(20) 98765-4321", false}, // DDD 20 does not exist
		{"(23) 98765-4321", false}, // DDD 23 does not exist
		{"(10) 98765-4321", false},
		{"(11) 8765-4321", false},   // 8-digit mobile (pre-2016 form)
		{"(11) 88765-4321", false},  // 9 digits not starting with 9
		{"(11) 987654-3210", false}, // 10 digits
		{"(11) 3456-7890", false},   // a landline
		{"+1 11 98765-4321", false}, // foreign country code
		{"+54 11 98765-4321", false},
		{"4411987654321", false}, // 13 digits not starting with 55
		{"11+987654321", false},  // + in the middle
		{"++5511987654321", false},
		{"+", false},
		{"", false},
		{"(11) 98765-432a", false},
		{"(11) 98765_4321", false},
		{"011987654321", false}, // trunk prefix 0 not accepted
		{"55119876543210", false},
	}
	for _, tt := range tests {
		if got := ValidMobile(tt.in); got != tt.want {
			t.Errorf("ValidMobile(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestValidLandline(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"(11) 3456-7890", true},
		{"(11) 2456-7890", true},
		{"(11) 4456-7890", true},
		{"(21) 5456-7890", true},
		{"+55 11 3456-7890", true},
		{"551134567890", true},
		{"1134567890", true},
		{"(11) 1456-7890", false}, // first digit 1
		{"(11) 6456-7890", false}, // first digit 6-9 are mobiles of old
		{"(11) 7456-7890", false},
		{"(11) 8456-7890", false},
		{"(11) 9456-7890", false},
		{"(11) 0456-7890", false},
		{"(20) 3456-7890", false},
		{"(23) 3456-7890", false},
		{"(11) 345-7890", false},
		{"(11) 98765-4321", false}, // a mobile
		{"441134567890", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := ValidLandline(tt.in); got != tt.want {
			t.Errorf("ValidLandline(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestClassifyPhone(t *testing.T) {
	tests := []struct {
		in   string
		want PhoneKind
	}{
		{"(11) 98765-4321", PhoneMobile},
		{"(11) 3456-7890", PhoneLandline},
		{"(11) 8456-7890", PhoneInvalid},
	}
	for _, tt := range tests {
		if got := ClassifyPhone(tt.in); got != tt.want {
			t.Errorf("ClassifyPhone(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	for k, want := range map[PhoneKind]string{PhoneInvalid: "invalid", PhoneMobile: "mobile", PhoneLandline: "landline"} {
		if got := k.String(); got != want {
			t.Errorf("PhoneKind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

func TestNormalizeAndFormatPhone(t *testing.T) {
	tests := []struct{ in, e164, formatted string }{
		{"(11) 98765-4321", "+5511987654321", "(11) 98765-4321"},
		{"+55 11 98765-4321", "+5511987654321", "(11) 98765-4321"},
		{"5511987654321", "+5511987654321", "(11) 98765-4321"},
		{"11 3456 7890", "+551134567890", "(11) 3456-7890"},
		{"+55 (21) 2345-6789", "+552123456789", "(21) 2345-6789"},
		{"(20) 98765-4321", "", "(20) 98765-4321"}, // invalid: "" and unchanged
		{"abc", "", "abc"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := NormalizePhone(tt.in); got != tt.e164 {
			t.Errorf("NormalizePhone(%q) = %q, want %q", tt.in, got, tt.e164)
		}
		if got := FormatPhone(tt.in); got != tt.formatted {
			t.Errorf("FormatPhone(%q) = %q, want %q", tt.in, got, tt.formatted)
		}
	}
}

func TestMaskPhone(t *testing.T) {
	tests := []struct{ in, want string }{
		{"(11) 98765-4321", "(11) *****-4321"},
		{"+5511987654321", "(11) *****-4321"},
		{"11 3456-7890", "(11) ****-7890"},
		{"(11) *****-4321", "(11) *****-4321"}, // masked already
		{"12345", "***"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := MaskPhone(tt.in); got != tt.want {
			t.Errorf("MaskPhone(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
