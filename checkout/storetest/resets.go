package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
)

// resetFixture is the accounts service on a store with password resets, on a clock the test
// moves, and ana, an owner with two sessions.
type resetFixture struct {
	t   *testing.T
	s   AccountStores
	acc *team.Accounts
	now time.Time
	ana *team.User
}

// resetOld is the users' password before any reset.
const resetOld = "uma senha longa o bastante"

func newResetFixture(t *testing.T, s AccountStores) *resetFixture {
	f := &resetFixture{t: t, s: s, now: base}
	f.acc = team.NewAccounts(s, s, team.AccountsOptions{Clock: func() time.Time { return f.now }, Sessions: s, PasswordResets: s,
		Hasher: teamtest.Hasher()})
	f.ana = f.add("ana@loja.example")
	for _, addr := range []string{"192.0.2.1", "192.0.2.2"} {
		if _, err := f.acc.StartSignIn(context.Background(), f.ana, addr, "Firefox"); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *resetFixture) add(email string) *team.User {
	f.t.Helper()
	u, err := f.acc.AddUser(context.Background(), email, resetOld, team.RoleOwner)
	if err != nil {
		f.t.Fatal(err)
	}
	return u
}

// request asks for a reset link; nil: none to send.
func (f *resetFixture) request(email, addr string) *team.ResetRequest {
	f.t.Helper()
	req, err := f.acc.RequestPasswordReset(context.Background(), email, addr, nil)
	if err != nil {
		f.t.Fatalf("RequestPasswordReset(%s, %s): %v", email, addr, err)
	}
	return req
}

// testPasswordResets: a self-service reset link on the store. Unknown e-mails make nothing;
// requests past the limits (per e-mail, per client address) make nothing and never make the
// right password refused; a link works once, within the hour, and ends every session of its
// user and every other link; a bad new password leaves the link usable; two uses at once make
// one password.
func testPasswordResets(t *testing.T, s AccountStores) {
	f := newResetFixture(t, s)
	first, links := testResetLimits(f)
	testResetUse(f, first, append(links, first.Token))
	testResetExpiry(f)
}

// testResetLimits: no link for a stranger; ResetsPerAccount links an hour per e-mail and
// ResetsPerAddress requests an hour per address; the right password still signs in. It
// returns the first link of ana and the others made.
func testResetLimits(f *resetFixture) (*team.ResetRequest, []string) {
	t := f.t
	if req := f.request("ninguem@loja.example", "192.0.2.9"); req != nil {
		t.Errorf("a reset for an unknown e-mail: %+v", req)
	}
	first := f.request(" Ana@Loja.Example", "192.0.2.9")
	if first == nil || first.User.ID != f.ana.ID || first.Reset.TokenHash == first.Token || !first.Reset.ExpiresAt.Equal(base.Add(time.Hour)) {
		t.Fatalf("the first request = %+v", first)
	}
	var links []string
	for i := range 2 * team.ResetsPerAccount {
		if req := f.request("ana@loja.example", fmt.Sprintf("198.51.100.%d", i)); req != nil {
			links = append(links, req.Token)
		}
	}
	if len(links) != team.ResetsPerAccount-1 {
		t.Errorf("%d more links of one e-mail within the hour; want %d", len(links), team.ResetsPerAccount-1)
	}
	// The requests are not failed sign-ins: the right password still signs in from anywhere.
	if _, err := f.acc.Login(context.Background(), "ana@loja.example", resetOld, "203.0.113.7"); err != nil {
		t.Errorf("the right password after many reset requests: %v", err)
	}
	bia := f.add("bia@loja.example")
	for i := range team.ResetsPerAddress {
		f.request(fmt.Sprintf("outra%d@loja.example", i), "203.0.113.50")
	}
	if req := f.request(bia.Email, "203.0.113.50"); req != nil {
		t.Error("an address past its requests still made a link")
	}
	f.now = base.Add(team.ResetWindow + time.Minute)
	if req := f.request(bia.Email, "203.0.113.50"); req == nil {
		t.Error("an address an hour later still made no link")
	}
	return first, links
}

// testResetUse: a bad new password leaves the link usable; a good one ends ana's sessions and
// her old password, and every link made before is refused.
func testResetUse(f *resetFixture, first *team.ResetRequest, before []string) {
	t, ctx := f.t, context.Background()
	f.now = base.Add(time.Hour - time.Millisecond)
	var fe *checkout.ValidationError
	if _, err := f.acc.ResetPasswordWith(ctx, first.Token, "curta"); !errors.As(err, &fe) {
		t.Fatalf("a short new password: %v", err)
	}
	u, err := f.acc.ResetPasswordWith(ctx, first.Token, "tres-palavras-soltas")
	if err != nil || u.ID != f.ana.ID {
		t.Fatalf("ResetPasswordWith = %+v, %v", u, err)
	}
	if list, err := f.s.SignIns(ctx, f.ana.ID); err != nil || len(list) != 0 {
		t.Errorf("sessions after the reset: %+v, %v; want none", list, err)
	}
	if _, err := f.acc.Login(ctx, f.ana.Email, resetOld, "203.0.113.7"); !errors.Is(err, team.ErrBadCredentials) {
		t.Errorf("the old password after the reset: %v", err)
	}
	if _, err := f.acc.Login(ctx, f.ana.Email, "tres-palavras-soltas", "203.0.113.7"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	for _, tok := range before {
		if _, err := f.acc.ResetPasswordWith(ctx, tok, "outra-senha-forte-9"); !errors.Is(err, team.ErrPasswordResetInvalid) {
			t.Errorf("a link used, or made before the reset: %v", err)
		}
	}
}

// testResetExpiry: a link is refused at its hour; two uses of one link at once make one
// password.
func testResetExpiry(f *resetFixture) {
	t, ctx := f.t, context.Background()
	f.now = base.Add(3 * time.Hour)
	late := f.request("bia@loja.example", "192.0.2.77")
	f.now = late.Reset.ExpiresAt
	if _, _, err := f.acc.PasswordReset(ctx, late.Token); !errors.Is(err, team.ErrPasswordResetInvalid) {
		t.Errorf("a link at its hour: %v", err)
	}
	if _, _, err := f.acc.PasswordReset(ctx, "nonsense"); !errors.Is(err, team.ErrPasswordResetInvalid) {
		t.Errorf("an unknown link: %v", err)
	}
	f.now = late.Reset.ExpiresAt.Add(-time.Minute)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = f.acc.ResetPasswordWith(ctx, late.Token, fmt.Sprintf("senha-concorrente-%d-forte", i))
		}()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) {
		t.Errorf("two uses of one link at once: %v, %v; want exactly one", errs[0], errs[1])
	}
	for _, err := range errs {
		if err != nil && !errors.Is(err, team.ErrPasswordResetInvalid) {
			t.Errorf("the losing use: %v", err)
		}
	}
}
