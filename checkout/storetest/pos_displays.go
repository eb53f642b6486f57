package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// A display pairs by a code made at a terminal its maker may use: once, within ten minutes;
// its token finds it until an owner revokes it, and a live code's digits are never handed out
// twice.
func testDisplays(t *testing.T, s POSStores) {
	ctx := context.Background()
	now := base
	clock := func() time.Time { return now }
	m := pos.NewManager(s, clock)
	d := pos.NewDisplays(s, m, clock)
	owner := &team.User{ID: "owner", Role: team.RoleOwner}
	viewer := &team.User{ID: "viewer", Role: team.RoleViewer}
	sameErr(t, "a code made by a role without pos", errOf2(d.NewCode(ctx, viewer, pos.FirstTerminal)), pos.ErrNotAllowed)
	sameErr(t, "a code of an unknown terminal", errOf2(d.NewCode(ctx, owner, "missing")), pos.ErrNotAllowed)

	code, expires, err := d.NewCode(ctx, owner, pos.FirstTerminal)
	must(t, err)
	if len(code) != pos.CodeDigits || !expires.Equal(base.Add(pos.CodeLifetime)) {
		t.Fatalf("code %q expiring %s", code, expires)
	}
	if ok, err := s.CreateDisplayCode(ctx, "pos-display-code-hash", pos.FirstTerminal, base, base.Add(time.Minute)); err != nil || !ok {
		t.Fatalf("a fresh hash: %v %v", ok, err)
	}
	if ok, err := s.CreateDisplayCode(ctx, "pos-display-code-hash", pos.FirstTerminal, base, base.Add(time.Minute)); err != nil || ok {
		t.Fatalf("the hash of a live code again: ok %v, %v", ok, err)
	}

	disp, token := pairOnce(t, d, code)
	got, err := d.ByToken(ctx, token)
	if err != nil || got.ID != disp.ID || got.TerminalID != pos.FirstTerminal {
		t.Fatalf("by token: %+v, %v", got, err)
	}
	sameErr(t, "another token", errOf(d.ByToken(ctx, token+"x")), checkout.ErrNotFound)
	if stored, err := s.DisplayByToken(ctx, token); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("the token itself is stored (only its hash must be): %+v, %v", stored, err)
	}

	late, _, err := d.NewCode(ctx, owner, pos.FirstTerminal)
	must(t, err)
	now = base.Add(pos.CodeLifetime)
	sameErr(t, "an expired code", errOf2(d.Pair(ctx, late)), pos.ErrBadCode)
	revoked(t, d, disp, token, &now)
}

// pairOnce pairs a display by code: a malformed or wrong code is refused, the code pairs
// (spaces aside) once.
func pairOnce(t *testing.T, d *pos.Displays, code string) (*pos.Display, string) {
	ctx := context.Background()
	sameErr(t, "a malformed code", errOf2(d.Pair(ctx, "12a456")), pos.ErrBadCode)
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	sameErr(t, "a wrong code", errOf2(d.Pair(ctx, wrong)), pos.ErrBadCode)
	disp, token, err := d.Pair(ctx, code[:3]+" "+code[3:])
	must(t, err)
	if disp.TerminalID != pos.FirstTerminal || len(token) < 40 {
		t.Fatalf("paired %+v with a token of %d characters", disp, len(token))
	}
	sameErr(t, "a used code", errOf2(d.Pair(ctx, code)), pos.ErrBadCode)
	return disp, token
}

// revoked: a revoked display's token finds nothing; it keeps the first moment it was revoked.
func revoked(t *testing.T, d *pos.Displays, disp *pos.Display, token string, now *time.Time) {
	ctx := context.Background()
	*now = base.Add(time.Hour)
	must(t, d.Revoke(ctx, disp.ID))
	sameErr(t, "a revoked display's token", errOf(d.ByToken(ctx, token)), checkout.ErrNotFound)
	*now = base.Add(2 * time.Hour)
	must(t, d.Revoke(ctx, disp.ID))
	sameErr(t, "revoking a missing display", d.Revoke(ctx, "missing"), checkout.ErrNotFound)
	list, err := d.List(ctx)
	must(t, err)
	if len(list) != 1 || list[0].ID != disp.ID || !list[0].RevokedAt.Equal(base.Add(time.Hour)) || !list[0].CreatedAt.Equal(base) {
		t.Fatalf("the displays: %+v", list)
	}
}
