package team_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// TestTOTPWindow: a code is accepted within one 30-second step either side of now, and
// names its step; two steps away, or malformed, it is refused.
func TestTOTPWindow(t *testing.T) {
	const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
	now := time.Date(2026, 11, 25, 15, 0, 10, 0, time.UTC)
	step := now.Unix() / 30
	for _, tc := range []struct {
		at   time.Duration
		want int64
	}{{0, step}, {-30 * time.Second, step - 1}, {30 * time.Second, step + 1}, {-60 * time.Second, -1}, {60 * time.Second, -1}} {
		code, err := totp.GenerateCode(secret, now.Add(tc.at))
		if err != nil {
			t.Fatal(err)
		}
		if got := team.MatchStep(secret, code, now); got != tc.want {
			t.Errorf("code of now%+v: step %d, want %d", tc.at, got, tc.want)
		}
		if tc.want >= 0 {
			if got := team.MatchStep(secret, code[:3]+" "+code[3:], now); got != tc.want {
				t.Errorf("code with a space: step %d", got)
			}
		}
	}
	for _, bad := range []string{"", "12345", "1234567", "abcdef"} {
		if got := team.MatchStep(secret, bad, now); got != -1 {
			t.Errorf("%q: step %d", bad, got)
		}
	}
}

// TestRecoveryCodes: 80 random bits as xxxx-xxxx-xxxx-xxxx, read back whatever the case and
// the dashes.
func TestRecoveryCodes(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		c := team.NewRecoveryCode()
		if !regexp.MustCompile(`^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$`).MatchString(c) || seen[c] {
			t.Fatalf("recovery code %q", c)
		}
		seen[c] = true
		typed := strings.ToUpper(strings.ReplaceAll(c, "-", " "))
		if !bytes.Equal(team.HashRecoveryCode(c), team.HashRecoveryCode(typed)) {
			t.Errorf("%q typed as %q hashes differently", c, typed)
		}
	}
}
