package brdoc

import (
	"strings"
	"testing"
)

func TestValidEmail(t *testing.T) {
	local64 := strings.Repeat("a", 64)
	label63 := strings.Repeat("b", 63)
	// 64 + 1 + 63 + 1 + 63 + 1 + 57 + 1 + 3 = 254
	at254 := local64 + "@" + label63 + "." + label63 + "." + strings.Repeat("c", 57) + ".com"
	tests := []struct {
		in   string
		want bool
	}{
		{"joao@example.com", true},
		{"Joao.Silva+pix@mail.example.com.br", true},
		{"a@b.co", true},
		{"user_name-1@sub-domain.example.org", true},
		{"x!#$%&'*+/=?^_`{|}~-y@example.com", true},
		{"user@example.xn--p1ai", true}, // IDN TLD
		{"1@123.example.com", true},
		{local64 + "@example.com", true},
		{"a@" + label63 + ".com", true},
		{at254, true},
		{at254[:len(at254)-4] + ".comm", false}, // 255 characters
		{local64 + "a@example.com", false},      // 65-character local part
		{"a@" + label63 + "b.com", false},       // 64-character label
		{"", false},
		{"joao", false},
		{"joao@", false},
		{"@example.com", false},
		{"joao@example", false},   // no TLD
		{"joao@example.c", false}, // 1-letter TLD
		{"joao@example.c0m", false},
		{"joao@example.123", false},
		{"joao silva@example.com", false},
		{"joao@exa mple.com", false},
		{" joao@example.com", false},
		{"joao@@example.com", false},
		{"jo@ao@example.com", false},
		{".joao@example.com", false},
		{"joao.@example.com", false},
		{"jo..ao@example.com", false},
		{"joao@.example.com", false},
		{"joao@example..com", false},
		{"joao@example.com.", false},
		{"joao@-example.com", false},
		{"joao@example-.com", false},
		{"joao@exam_ple.com", false},
		{`"joao"@example.com`, false},
		{"joão@example.com", false},
		{"joao@[127.0.0.1]", false},
		{"joao@example.com\n", false},
	}
	for _, tt := range tests {
		if got := ValidEmail(tt.in); got != tt.want {
			t.Errorf("ValidEmail(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if len(at254) != 254 {
		t.Fatalf("test address has %d characters, want 254", len(at254))
	}
}

func TestValidUUID(t *testing.T) {
	tests := []struct {
		in       string
		uuid, v4 bool
	}{
		{"f47ac10b-58cc-4372-a567-0e02b2c3d479", true, true},
		{"F47AC10B-58CC-4372-A567-0E02B2C3D479", true, true},
		{"f47ac10b-58cc-4372-8567-0e02b2c3d479", true, true},
		{"f47ac10b-58cc-4372-9567-0e02b2c3d479", true, true},
		{"f47ac10b-58cc-4372-b567-0e02b2c3d479", true, true},
		{"f47ac10b-58cc-4372-c567-0e02b2c3d479", true, false}, // variant c
		{"f47ac10b-58cc-4372-7567-0e02b2c3d479", true, false}, // variant 7
		{"6ba7b810-9dad-11d1-80b4-00c04fd430c8", true, false}, // version 1
		{"017f22e2-79b0-7cc3-98c4-dc0c0c07398f", true, false}, // version 7
		{"00000000-0000-0000-0000-000000000000", true, false},
		{"f47ac10b58cc4372a5670e02b2c3d479", false, false},
		{"{f47ac10b-58cc-4372-a567-0e02b2c3d479}", false, false},
		{"f47ac10b-58cc-4372-a567-0e02b2c3d47", false, false},
		{"f47ac10b-58cc-4372-a567-0e02b2c3d4790", false, false},
		{"g47ac10b-58cc-4372-a567-0e02b2c3d479", false, false},
		{"f47ac10b-58cc-4372-a567_0e02b2c3d479", false, false},
		{"f47ac10b-58cc4-372-a567-0e02b2c3d479", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		if got := ValidUUID(tt.in); got != tt.uuid {
			t.Errorf("ValidUUID(%q) = %v, want %v", tt.in, got, tt.uuid)
		}
		if got := ValidUUIDv4(tt.in); got != tt.v4 {
			t.Errorf("ValidUUIDv4(%q) = %v, want %v", tt.in, got, tt.v4)
		}
	}
}
