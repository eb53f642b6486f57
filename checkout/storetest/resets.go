package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

// testPasswordResets: a self-service reset link on the store. Unknown e-mails make nothing;
// requests past the limits (per e-mail, per client address) make nothing and never make the
// right password refused; a link works once, within the hour, and ends every session of its
// user and every other link; a bad new password leaves the link usable; two uses at once make
// one password.
func testPasswordResets(t *testing.T, s AccountStores) {
	ctx := context.Background()
	now := base
	clock := func() time.Time { return now }
	acc := merchant.NewAccounts(s, s, merchant.AccountsOptions{Clock: clock, Sessions: s, PasswordResets: s,
		Hasher: merchant.NewHasher(merchant.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}, 2)})
	const old = "uma senha longa o bastante"
	ana, err := acc.AddUser(ctx, "ana@loja.example", old, merchant.RoleOwner)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{"192.0.2.1", "192.0.2.2"} {
		if _, err := acc.StartSignIn(ctx, ana, addr, "Firefox"); err != nil {
			t.Fatal(err)
		}
	}
	request := func(email, addr string) *merchant.ResetRequest {
		t.Helper()
		req, err := acc.RequestPasswordReset(ctx, email, addr)
		if err != nil {
			t.Fatalf("RequestPasswordReset(%s, %s): %v", email, addr, err)
		}
		return req
	}
	if req := request("ninguem@loja.example", "192.0.2.9"); req != nil {
		t.Errorf("a reset for an unknown e-mail: %+v", req)
	}
	first := request(" Ana@Loja.Example", "192.0.2.9")
	if first == nil || first.User.ID != ana.ID || first.Reset.TokenHash == first.Token || !first.Reset.ExpiresAt.Equal(base.Add(time.Hour)) {
		t.Fatalf("the first request = %+v", first)
	}
	// Per e-mail: ResetsPerAccount links an hour, whatever the addresses; then none.
	var links []string
	for i := range 2 * merchant.ResetsPerAccount {
		if req := request("ana@loja.example", fmt.Sprintf("198.51.100.%d", i)); req != nil {
			links = append(links, req.Token)
		}
	}
	if len(links) != merchant.ResetsPerAccount-1 {
		t.Errorf("%d more links of one e-mail within the hour; want %d", len(links), merchant.ResetsPerAccount-1)
	}
	// The requests are not failed sign-ins: the right password still signs in from anywhere.
	if _, err := acc.Login(ctx, "ana@loja.example", old, "203.0.113.7"); err != nil {
		t.Errorf("the right password after many reset requests: %v", err)
	}
	// Per client address: ResetsPerAddress requests an hour, whatever the e-mails.
	bia, err := acc.AddUser(ctx, "bia@loja.example", old, merchant.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	for i := range merchant.ResetsPerAddress {
		request(fmt.Sprintf("outra%d@loja.example", i), "203.0.113.50")
	}
	if req := request(bia.Email, "203.0.113.50"); req != nil {
		t.Error("an address past its requests still made a link")
	}
	now = base.Add(merchant.ResetWindow + time.Minute)
	if req := request(bia.Email, "203.0.113.50"); req == nil {
		t.Error("an address an hour later still made no link")
	}

	// A bad new password: refused, the link stays usable.
	now = base.Add(time.Hour - time.Millisecond)
	var fe *checkout.ValidationError
	if _, err := acc.ResetPasswordWith(ctx, first.Token, "curta"); !errors.As(err, &fe) {
		t.Fatalf("a short new password: %v", err)
	}
	u, err := acc.ResetPasswordWith(ctx, first.Token, "tres-palavras-soltas")
	if err != nil || u.ID != ana.ID {
		t.Fatalf("ResetPasswordWith = %+v, %v", u, err)
	}
	if list, err := s.SignIns(ctx, ana.ID); err != nil || len(list) != 0 {
		t.Errorf("sessions after the reset: %+v, %v; want none", list, err)
	}
	if _, err := acc.Login(ctx, ana.Email, old, "203.0.113.7"); !errors.Is(err, merchant.ErrBadCredentials) {
		t.Errorf("the old password after the reset: %v", err)
	}
	if _, err := acc.Login(ctx, ana.Email, "tres-palavras-soltas", "203.0.113.7"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	for _, tok := range append(links, first.Token) {
		if _, err := acc.ResetPasswordWith(ctx, tok, "outra-senha-forte-9"); !errors.Is(err, merchant.ErrPasswordResetInvalid) {
			t.Errorf("a link used, or made before the reset: %v", err)
		}
	}

	// An hour: usable a millisecond before, not at the hour.
	now = base.Add(3 * time.Hour)
	late := request(bia.Email, "192.0.2.77")
	now = late.Reset.ExpiresAt
	if _, _, err := acc.PasswordReset(ctx, late.Token); !errors.Is(err, merchant.ErrPasswordResetInvalid) {
		t.Errorf("a link at its hour: %v", err)
	}
	if _, _, err := acc.PasswordReset(ctx, "nonsense"); !errors.Is(err, merchant.ErrPasswordResetInvalid) {
		t.Errorf("an unknown link: %v", err)
	}

	// Two uses of one link at once: one password.
	now = late.Reset.ExpiresAt.Add(-time.Minute)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = acc.ResetPasswordWith(ctx, late.Token, fmt.Sprintf("senha-concorrente-%d-forte", i))
		}()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Errorf("two uses of one link at once: %v, %v; want exactly one", errs[0], errs[1])
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, merchant.ErrPasswordResetInvalid) {
			t.Errorf("the losing use: %v", err)
		}
	}
}
