package team_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// cheap are argon2id parameters that keep the tests of the service's rules fast; the OWASP
// parameters themselves are tested in TestHasherOWASP.
var cheap = team.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// clock is a test clock moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

type fixture struct {
	acc   *team.Accounts
	store *memStore
	clock *clock
	h     *team.Hasher
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st := newMemStore()
	c := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	h := team.NewHasher(cheap, 2)
	acc := team.NewAccounts(st, st, team.AccountsOptions{Hasher: h, Clock: c.now})
	return &fixture{acc: acc, store: st, clock: c, h: h}
}

func (f *fixture) addUser(t *testing.T, email, pw string) *team.User {
	t.Helper()
	u, err := f.acc.AddUser(context.Background(), email, pw, team.RoleOwner)
	if err != nil {
		t.Fatalf("AddUser(%s): %v", email, err)
	}
	return u
}

func TestHasherOWASP(t *testing.T) {
	h := team.NewHasher(team.OWASPParams, 1)
	ctx := context.Background()
	hash, err := h.Hash(ctx, "correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not carry OWASP's argon2id parameters", hash)
	}
	if strings.Contains(hash, "correct horse") {
		t.Fatal("the hash holds the password")
	}
	hash2, _ := h.Hash(ctx, "correct horse battery staple")
	if hash2 == hash {
		t.Error("two hashes of one password are equal: no random salt")
	}
	for pw, want := range map[string]bool{"correct horse battery staple": true, "correct horse battery stapl": false, "": false} {
		ok, err := h.Verify(ctx, hash, pw)
		if err != nil || ok != want {
			t.Errorf("Verify(%q) = %v, %v; want %v", pw, ok, err, want)
		}
	}
	p, err := team.DecodePHC(hash)
	if err != nil || p != team.OWASPParams {
		t.Errorf("decoded parameters %+v, %v; want %+v", p, err, team.OWASPParams)
	}
}

func TestHasherRefusesBadHashes(t *testing.T) {
	h := team.NewHasher(cheap, 1)
	good, _ := h.Hash(context.Background(), "password1")
	for _, bad := range []string{
		"", "plain", "$2a$10$abcdefghijklmnopqrstuv", // bcrypt
		strings.Replace(good, "argon2id", "argon2i", 1),
		strings.Replace(good, "v=19", "v=16", 1),
		strings.Replace(good, "m=64", "m=99999999", 1), // gigabytes: refused, not computed
		strings.Replace(good, "t=1", "t=1000", 1),
		strings.Replace(good, "m=64", "m=0", 1),
		good[:strings.LastIndex(good, "$")] + "$!!!",
	} {
		if ok, err := h.Verify(context.Background(), bad, "password1"); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v; want an error", bad, ok, err)
		}
	}
}

// TestHasherSemaphore: no more hashes run at once than the Hasher allows; a waiting one gives
// up when its context ends.
func TestHasherSemaphore(t *testing.T) {
	h := team.NewHasher(cheap, 1)
	hash, _ := h.Hash(context.Background(), "password1")
	release := h.Hold()
	done := make(chan bool)
	go func() {
		ok, _ := h.Verify(context.Background(), hash, "password1")
		done <- ok
	}()
	// Once the verification waits for the slot, it has not run, and does not until the slot
	// is given back.
	for deadline := time.Now().Add(10 * time.Second); h.Waiting() != 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the verification never waited for the slot")
		}
	}
	select {
	case <-done:
		t.Fatal("a verification ran while the only slot was held")
	default:
	}
	if n := h.Verified(); n != 0 {
		t.Fatalf("%d verifications ran while the only slot was held", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Hash(ctx, "password1"); !errors.Is(err, context.Canceled) {
		t.Errorf("Hash with the slot taken and a canceled context: %v", err)
	}
	release()
	if ok := <-done; !ok {
		t.Error("the waiting verification failed once the slot was free")
	}
}

func TestLoginSuccessAndSameErrorForUnknownEmail(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	u := f.addUser(t, "  Ana@Example.COM ", "s3nha-muito-boa")
	if u.Email != "ana@example.com" || u.PasswordHash == "" || strings.Contains(u.PasswordHash, "s3nha") {
		t.Fatalf("stored user %+v", u)
	}
	got, err := f.acc.Login(ctx, "ANA@example.com", "s3nha-muito-boa", "203.0.113.7:5555")
	if err != nil || got.ID != u.ID {
		t.Fatalf("Login = %v, %v", got, err)
	}
	before := f.h.Verified()
	_, errWrong := f.acc.Login(ctx, "ana@example.com", "wrong-password", "203.0.113.7:5555")
	_, errUnknown := f.acc.Login(ctx, "nobody@example.com", "s3nha-muito-boa", "203.0.113.7:5555")
	if errWrong != team.ErrBadCredentials || errUnknown != team.ErrBadCredentials { //nolint:errorlint // the very same error value
		t.Errorf("wrong password: %v; unknown e-mail: %v; want the same ErrBadCredentials", errWrong, errUnknown)
	}
	if checkout.ErrorCode(errUnknown) != checkout.CodeUnauthorized {
		t.Errorf("code %q", checkout.ErrorCode(errUnknown))
	}
	// The unknown e-mail cost a verification too, against a hash made with the same parameters.
	if n := f.h.Verified() - before; n != 2 {
		t.Errorf("%d verifications for a wrong password and an unknown e-mail, want 2", n)
	}
	pd, _ := team.DecodePHC(f.acc.Dummy())
	pu, _ := team.DecodePHC(u.PasswordHash)
	if pd != pu {
		t.Errorf("the dummy hash's parameters %+v differ from a user's %+v", pd, pu)
	}
}

// TestLoginThrottlingPerPair: ten failures of one account from one address make that address
// wait, doubling, even with the right password; the account's owner elsewhere is not refused.
func TestLoginThrottlingPerPair(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.addUser(t, "ana@example.com", "s3nha-muito-boa")
	for i := range 10 {
		if i > 0 {
			f.clock.advance(time.Second)
		}
		// Ports change between attempts; the address is the same.
		_, err := f.acc.Login(ctx, "ana@example.com", "wrong", fmt.Sprintf("198.51.100.7:%d", 4000+i))
		if !errors.Is(err, team.ErrBadCredentials) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	before := f.h.Verified()
	_, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "198.51.100.7")
	var te *team.ThrottledError
	if !errors.As(err, &te) || te.Wait != time.Minute {
		t.Fatalf("11th attempt from the same address: %v; want a wait of one minute", err)
	}
	if checkout.ErrorCode(err) != checkout.CodeTooManyAttempts {
		t.Errorf("code %q", checkout.ErrorCode(err))
	}
	if f.h.Verified() != before {
		t.Error("a throttled attempt verified the password")
	}
	// The owner, from an address with no failures, signs in at once.
	if _, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "192.0.2.1:443"); err != nil {
		t.Fatalf("the owner from another address: %v", err)
	}
	f.clock.advance(40 * time.Second)
	if _, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "198.51.100.7"); !errors.As(err, &te) || te.Wait != 20*time.Second {
		t.Fatalf("after 40 s: %v; want 20 s left", err)
	}
	// The wait over, one more failure doubles it.
	f.clock.advance(20 * time.Second)
	if _, err := f.acc.Login(ctx, "ana@example.com", "wrong", "198.51.100.7"); !errors.Is(err, team.ErrBadCredentials) {
		t.Fatalf("after the wait: %v", err)
	}
	if _, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "198.51.100.7"); !errors.As(err, &te) || te.Wait != 2*time.Minute {
		t.Fatalf("after the 11th failure: %v; want two minutes", err)
	}
	// An unknown e-mail is throttled exactly like a known one, and so are clients whose
	// address is unknown, together.
	for range 10 {
		_, _ = f.acc.Login(ctx, "ghost@example.com", "wrong", "")
	}
	if _, err := f.acc.Login(ctx, "ghost@example.com", "wrong", "not an address"); !errors.As(err, &te) || te.Wait != time.Minute {
		t.Errorf("unknown e-mail after 10 failures: %v", err)
	}
	// The right password after the wait signs in and forgets that address's failures of the
	// account, not the account's count.
	f.clock.advance(2 * time.Minute)
	if _, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "198.51.100.7"); err != nil {
		t.Fatalf("after the wait with the right password: %v", err)
	}
	for i := range 9 {
		if _, err := f.acc.Login(ctx, "ana@example.com", "wrong", "198.51.100.7"); !errors.Is(err, team.ErrBadCredentials) {
			t.Fatalf("failure %d after the success: %v; want the pair's count started again", i+1, err)
		}
	}
	if n, _, _ := f.store.LoginFailures(ctx, "account:ana@example.com"); n != 20 {
		t.Errorf("the account counts %d failures; want 20, its 11 before the success kept", n)
	}
}

// TestLoginThrottlingPerAccount: failures of one account spread over many addresses are
// stopped only at the much higher per-account ceiling, for every address.
func TestLoginThrottlingPerAccount(t *testing.T) {
	st := newMemStore()
	c := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	policy := team.DefaultThrottlePolicy
	policy.PerAccount = 40
	acc := team.NewAccounts(st, st, team.AccountsOptions{Hasher: team.NewHasher(cheap, 2), Clock: c.now, Throttle: policy})
	ctx := context.Background()
	if _, err := acc.AddUser(ctx, "ana@example.com", "s3nha-muito-boa", team.RoleOwner); err != nil {
		t.Fatal(err)
	}
	for i := range 39 {
		if _, err := acc.Login(ctx, "ana@example.com", "wrong", fmt.Sprintf("198.51.100.%d", i+1)); !errors.Is(err, team.ErrBadCredentials) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	// Below the ceiling the owner signs in from a fresh address.
	if _, err := acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "192.0.2.1"); err != nil {
		t.Fatalf("below the account's ceiling: %v", err)
	}
	if _, err := acc.Login(ctx, "ana@example.com", "wrong", "198.51.100.200"); !errors.Is(err, team.ErrBadCredentials) {
		t.Fatalf("40th failure: %v", err)
	}
	var te *team.ThrottledError
	if _, err := acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "192.0.2.2"); !errors.As(err, &te) || te.Wait != time.Minute {
		t.Fatalf("at the account's ceiling: %v; want a wait of one minute", err)
	}
}

// TestLoginThrottlingPerAddress: one address trying many accounts is stopped at its own count,
// for every account; another network is not.
func TestLoginThrottlingPerAddress(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.addUser(t, "ana@example.com", "s3nha-muito-boa")
	// One address trying 30 different accounts, from ports and IPv6 hosts of one /64.
	for i := range 30 {
		addr := fmt.Sprintf("[2001:db8:1:2::%x]:4000", i+1)
		if _, err := f.acc.Login(ctx, fmt.Sprintf("user%d@example.com", i), "wrong", addr); !errors.Is(err, team.ErrBadCredentials) {
			t.Fatalf("failure %d: %v", i, err)
		}
	}
	var te *team.ThrottledError
	if _, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "[2001:db8:1:2:ffff::1]:1"); !errors.As(err, &te) {
		t.Fatalf("same /64: %v; want throttled", err)
	}
	// Another network is not affected.
	if _, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "[2001:db8:9::1]:1"); err != nil {
		t.Fatalf("another /64: %v", err)
	}
	// A day later everything is forgotten.
	f.clock.advance(24 * time.Hour)
	if _, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", "[2001:db8:1:2::1]:1"); err != nil {
		t.Fatalf("a day later: %v", err)
	}
	f.clock.advance(time.Second)
	if n, err := f.acc.Prune(ctx); err != nil || n != 61 {
		t.Errorf("Prune = %d, %v; want the 30 accounts' keys, their 30 pairs and the address's", n, err)
	}
}

func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"203.0.113.7:5555":        "203.0.113.7",
		"203.0.113.7":             "203.0.113.7",
		"[::ffff:203.0.113.7]:80": "203.0.113.7",
		"[2001:db8:1:2:3::4]:80":  "2001:db8:1:2::/64",
		"2001:db8:1:2:3::4":       "2001:db8:1:2::/64",
		"":                        "unknown",
		"garbage":                 "unknown",
	} {
		if got := team.AddressKey(in); got != want {
			t.Errorf("AddressKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGuessablePasswordsRefused: common and breached passwords, patterns and the e-mail itself
// are refused with a reason in words, whether a user is added or a password reset; a long
// random passphrase is accepted.
func TestGuessablePasswordsRefused(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.addUser(t, "ana@example.com", "s3nha-muito-boa")
	for pw, reason := range map[string]string{
		"password":         "is one of the most common passwords, found in lists of breached passwords",
		"12345678":         "is one of the most common passwords",
		"qwertyuiop":       "is one of the most common passwords",
		"senha123":         "is one of the most common passwords",
		"abcdefghij":       "is a sequence",
		"zzzzzzzzzz":       "repeats characters",
		"ana@example.com1": "is made of the e-mail address",
	} {
		_, addErr := f.acc.AddUser(ctx, "ana@example.com", pw, team.RoleOwner) // the e-mail is taken: the password is checked first
		resetErr := f.acc.ResetPassword(ctx, "ana@example.com", pw)
		for verb, err := range map[string]error{"AddUser": addErr, "ResetPassword": resetErr} {
			var fe *checkout.ValidationError
			if !errors.As(err, &fe) || fe.Code(team.FieldPassword) != team.CodeGuessable {
				t.Errorf("%s with %q: %v; want refused as guessable", verb, pw, err)
				continue
			}
			if msg := fe.For(team.FieldPassword)[0].Message; !strings.HasPrefix(msg, "is too easy to guess: it "+reason) {
				t.Errorf("%s with %q says %q; want that it %s", verb, pw, msg, reason)
			}
		}
	}
	// Another user's e-mail is nothing special.
	if v := team.CheckPassword("ana@example.com1", "bia@example.com"); v != nil {
		t.Errorf("another user's e-mail as a password: %+v", v)
	}
	for _, pw := range []string{"vk4q-tzp9-wcm2-lh7r", "correct horse battery staple"} {
		if err := f.acc.ResetPassword(ctx, "ana@example.com", pw); err != nil {
			t.Errorf("the passphrase %q: %v; want accepted", pw, err)
		}
	}
}

func TestAddUserValidation(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, tc := range []struct {
		email, pw   string
		field, code string
	}{
		{"", "s3nha-muito-boa", "email", "required"},
		{"no-at-sign", "s3nha-muito-boa", "email", "format"},
		{"a b@example.com", "s3nha-muito-boa", "email", "format"},
		{"a@b@c", "s3nha-muito-boa", "email", "format"},
		{strings.Repeat("a", 250) + "@b.co", "s3nha-muito-boa", "email", "max_length"},
		{"ana@example.com", "", "password", "required"},
		{"ana@example.com", "1234567", "password", "min_length"},
		{"ana@example.com", strings.Repeat("x", 257), "password", "max_length"},
	} {
		_, err := f.acc.AddUser(ctx, tc.email, tc.pw, team.RoleOwner)
		var fe *checkout.ValidationError
		if !errors.As(err, &fe) || fe.Code(tc.field) != tc.code {
			t.Errorf("AddUser(%q, %d chars) = %v; want %s %s", tc.email, len(tc.pw), err, tc.field, tc.code)
		}
	}
	f.addUser(t, "admin@localhost", "s3nha-muito-boa") // a single-label domain is fine for a sign-in name
	if _, err := f.acc.AddUser(ctx, "ADMIN@localhost", "outra-s3nha-boa", team.RoleOwner); !errors.Is(err, team.ErrEmailTaken) {
		t.Errorf("a taken e-mail: %v", err)
	}
}

func TestResetPasswordEndsSessions(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	u := f.addUser(t, "ana@example.com", "s3nha-muito-boa")
	fp := team.PasswordFingerprint(u)
	if got, err := f.acc.SignedInUser(ctx, u.ID, fp); err != nil || got.ID != u.ID {
		t.Fatalf("SignedInUser = %v, %v", got, err)
	}
	for range 10 {
		_, _ = f.acc.Login(ctx, "ana@example.com", "wrong", "")
	}
	f.clock.advance(time.Second)
	if err := f.acc.ResetPassword(ctx, "ana@example.com", "nova-senha-longa"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.acc.SignedInUser(ctx, u.ID, fp); !errors.Is(err, team.ErrSignInEnded) {
		t.Errorf("a session of the old password: %v; want ErrSessionEnded", err)
	}
	// The reset also lifts the account's wait.
	if _, err := f.acc.Login(ctx, "ana@example.com", "nova-senha-longa", ""); err != nil {
		t.Errorf("Login with the new password: %v", err)
	}
	if _, err := f.acc.Login(ctx, "ana@example.com", "s3nha-muito-boa", ""); !errors.Is(err, team.ErrBadCredentials) {
		t.Errorf("Login with the old password: %v", err)
	}
	if err := f.acc.ResetPassword(ctx, "nobody@example.com", "nova-senha-longa"); !errors.Is(err, checkout.ErrNotFound) {
		t.Errorf("reset of an unknown e-mail: %v", err)
	}
	if err := f.acc.ResetPassword(ctx, "ana@example.com", "short"); checkout.ErrorCode(err) != checkout.CodeInvalid {
		t.Errorf("reset with a short password: %v", err)
	}
	if _, err := f.acc.SignedInUser(ctx, "no-such-id", fp); !errors.Is(err, team.ErrSignInEnded) {
		t.Errorf("a session of a removed user: %v", err)
	}
}

func TestEnsureAdmin(t *testing.T) {
	ctx := context.Background()
	t.Run("default", func(t *testing.T) {
		f := newFixture(t)
		u, pw, err := f.acc.EnsureAdmin(ctx, "", "")
		if err != nil || u == nil || u.Email != team.DefaultAdminEmail || len(pw) < 20 {
			t.Fatalf("EnsureAdmin = %+v, %q, %v", u, pw, err)
		}
		if _, err := f.acc.Login(ctx, team.DefaultAdminEmail, pw, ""); err != nil {
			t.Fatalf("the printed password does not sign in: %v", err)
		}
		// A second start creates nothing and prints nothing.
		if u, pw, err := f.acc.EnsureAdmin(ctx, "", ""); u != nil || pw != "" || err != nil {
			t.Errorf("second start: %v, %q, %v", u, pw, err)
		}
	})
	t.Run("configured", func(t *testing.T) {
		f := newFixture(t)
		f.addUser(t, "other@example.com", "s3nha-muito-boa")
		u, pw, err := f.acc.EnsureAdmin(ctx, "Boss@Example.com", "configured-password")
		if err != nil || u == nil || u.Email != "boss@example.com" || pw != "" {
			t.Fatalf("EnsureAdmin = %+v, %q, %v", u, pw, err)
		}
		// Restarting with another password does not change the existing user's.
		if u, _, err := f.acc.EnsureAdmin(ctx, "boss@example.com", "changed-password"); u != nil || err != nil {
			t.Errorf("restart: %v, %v", u, err)
		}
		if _, err := f.acc.Login(ctx, "boss@example.com", "configured-password", ""); err != nil {
			t.Errorf("Login: %v", err)
		}
		// An e-mail without a password gets a random one, shown once.
		u, pw, err = f.acc.EnsureAdmin(ctx, "third@example.com", "")
		if err != nil || u == nil || pw == "" {
			t.Fatalf("EnsureAdmin without a password = %v, %q, %v", u, pw, err)
		}
	})
	t.Run("race", func(t *testing.T) {
		f := newFixture(t)
		var wg sync.WaitGroup
		var created atomic.Int32
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				u, pw, err := f.acc.EnsureAdmin(ctx, "", "")
				if err != nil {
					t.Error(err)
				}
				if u != nil && pw != "" {
					created.Add(1)
				}
			}()
		}
		wg.Wait()
		users, _ := f.acc.Users(ctx)
		if created.Load() != 1 || len(users) != 1 {
			t.Errorf("%d instances printed a password, %d users; want 1 and 1", created.Load(), len(users))
		}
	})
}

// TestLoginBurstIsCounted: concurrent wrong guesses cannot all slip past the throttle before
// the failures are recorded.
func TestLoginBurstIsCounted(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.addUser(t, "ana@example.com", "s3nha-muito-boa")
	var wg sync.WaitGroup
	var verified atomic.Int32
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.acc.Login(ctx, "ana@example.com", "wrong", ""); errors.Is(err, team.ErrBadCredentials) {
				verified.Add(1)
			}
		}()
	}
	wg.Wait()
	// Ten free failures, plus at most one per other hashing slot racing the count.
	if n := verified.Load(); n > 11 {
		t.Errorf("%d of 50 concurrent guesses were checked; want at most 11", n)
	}
}
