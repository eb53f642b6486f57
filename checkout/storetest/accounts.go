package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
)

// AccountStores is what a store gives the dashboard's access: users, the throttling of failed
// sign-ins, and the sessions.
type AccountStores interface {
	team.UserStore
	team.ThrottleStore
	team.InvitationStore
	audit.Store
	team.SignInStore
	team.TOTPStore
	exports.Store
	team.PasswordResetStore
	team.AlertStore
	SignInTokens() team.SignInTokenStore
}

// RunAccounts runs the suite of the dashboard's access stores. open must return a new, empty
// store for each call and arrange its closing with t.Cleanup.
func RunAccounts(t *testing.T, open func(t *testing.T) AccountStores) {
	t.Run("Users", func(t *testing.T) { testUsers(t, open(t)) })
	t.Run("UsersConcurrentEmail", func(t *testing.T) { testUsersConcurrent(t, open(t)) })
	t.Run("Roles", func(t *testing.T) { testRoles(t, open(t)) })
	t.Run("RolesConcurrentDemotion", func(t *testing.T) { testRolesConcurrent(t, open(t)) })
	t.Run("Invitations", func(t *testing.T) { testInvitations(t, open(t)) })
	t.Run("Audit", func(t *testing.T) { testAudit(t, open(t)) })
	t.Run("SignIns", func(t *testing.T) { testSignIns(t, open(t)) })
	t.Run("TOTP", func(t *testing.T) { testTOTP(t, open(t)) })
	t.Run("Throttle", func(t *testing.T) { testThrottle(t, open(t)) })
	t.Run("ThrottleConcurrent", func(t *testing.T) { testThrottleConcurrent(t, open(t)) })
	t.Run("Sessions", func(t *testing.T) { testDashboardSessions(t, open(t)) })
	t.Run("Exports", func(t *testing.T) { testExports(t, open(t)) })
	t.Run("ExportLimitsConcurrent", func(t *testing.T) { testExportLimits(t, open(t)) })
	t.Run("LoginAgainstTheStore", func(t *testing.T) { testLoginOnStore(t, open(t)) })
	t.Run("InvitationsFollowTheInviter", func(t *testing.T) { testInvitationsFollowInviter(t, open(t)) })
	t.Run("DeviceCookies", func(t *testing.T) { testDeviceCookies(t, open(t)) })
	t.Run("PasswordResets", func(t *testing.T) { testPasswordResets(t, open(t)) })
	t.Run("AlertPreferences", func(t *testing.T) { testAlerts(t, open(t)) })
	t.Run("GatewayOutages", func(t *testing.T) { testGatewayOutages(t, open(t)) })
}

func user(id, email string) team.User {
	return team.User{ID: id, Email: email, Role: team.RoleOwner, PasswordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA",
		CreatedAt: base, UpdatedAt: base}
}

func testUsers(t *testing.T, s AccountStores) {
	ctx := context.Background()
	users, err := s.Users(ctx)
	must(t, err)
	same(t, "users of an empty store", len(users), 0)
	b, a := user("u2", "bia@loja.example"), user("u1", "ana@loja.example")
	for _, u := range []team.User{b, a} {
		must(t, s.CreateUser(ctx, u))
	}
	sameErr(t, "a taken e-mail", s.CreateUser(ctx, user("u3", "ana@loja.example")), team.ErrEmailTaken)
	got, err := s.UserByEmail(ctx, "ana@loja.example")
	must(t, err)
	same(t, "UserByEmail", *got, a)
	got, err = s.User(ctx, "u2")
	must(t, err)
	same(t, "User", *got, b)
	for _, f := range []func() error{
		func() error { _, err := s.User(ctx, "nope"); return err },
		func() error { _, err := s.UserByEmail(ctx, "nobody@loja.example"); return err },
		func() error { _, err := s.UserByEmail(ctx, "bad\xff\x00"); return err },
		func() error { return s.SetPasswordHash(ctx, "nope", "x", base) },
	} {
		sameErr(t, "missing user", f(), checkout.ErrNotFound)
	}
	later := base.Add(time.Hour)
	must(t, s.SetPasswordHash(ctx, "u1", "$argon2id$new", later))
	if got, _ := s.User(ctx, "u1"); got.PasswordHash != "$argon2id$new" || !got.UpdatedAt.Equal(later) || !got.CreatedAt.Equal(base) {
		t.Errorf("after SetPasswordHash: %+v", got)
	}
	users, err = s.Users(ctx)
	must(t, err)
	var emails []string
	for _, u := range users {
		emails = append(emails, u.Email)
	}
	same(t, "users' e-mails (by e-mail)", emails, []string{"ana@loja.example", "bia@loja.example"})
}

// testUsersConcurrent: instances creating the same first user at once make one.
func testUsersConcurrent(t *testing.T, s AccountStores) {
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	created, taken := 0, 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.CreateUser(ctx, user(fmt.Sprintf("id-%d", i), "admin@localhost"))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				created++
			case errors.Is(err, team.ErrEmailTaken):
				taken++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if created != 1 || taken != 7 {
		t.Errorf("%d created, %d refused; want 1 and 7", created, taken)
	}
}

// testThrottle: failures counted per key, their count starting again after a quiet day, reset
// per key, and pruned when old.
func testThrottle(t *testing.T, s AccountStores) {
	t.Run("Count", func(t *testing.T) { testThrottleCount(t, s) })
	t.Run("KeysApart", func(t *testing.T) { testThrottleKeys(t, s) })
}

// testThrottleConcurrent: failures recorded at once, as from several instances, are all
// counted.
func testThrottleConcurrent(t *testing.T, s AccountStores) {
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			at := base.Add(time.Duration(i) * time.Millisecond)
			if _, err := s.RecordLoginFailure(ctx, "addr:192.0.2.1", at, base.Add(-time.Hour)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	n, last, err := s.LoginFailures(ctx, "addr:192.0.2.1")
	if err != nil || n != 40 || !last.Equal(base.Add(39*time.Millisecond)) {
		t.Errorf("after 40 concurrent failures: %d, last %v, %v; want 40 and the latest time", n, last, err)
	}
}

func testDashboardSessions(t *testing.T, s AccountStores) {
	ctx := context.Background()
	ss := s.SignInTokens()
	now := time.Now()
	if _, found, err := ss.Find("nope"); found || err != nil {
		t.Fatalf("Find(unknown) = %v, %v", found, err)
	}
	must(t, ss.Commit("live", []byte("data-1"), now.Add(time.Hour)))
	must(t, ss.Commit("live", []byte("data-2"), now.Add(2*time.Hour)))
	if b, found, err := ss.Find("live"); !found || err != nil || string(b) != "data-2" {
		t.Errorf("Find(live) = %q, %v, %v", b, found, err)
	}
	must(t, ss.Commit("expired", []byte("old"), now.Add(-time.Second)))
	if _, found, _ := ss.Find("expired"); found {
		t.Error("an expired session was found")
	}
	must(t, ss.Commit("gone", []byte("x"), now.Add(time.Hour)))
	must(t, ss.Delete("gone"))
	if err := ss.Delete("never-was"); err != nil {
		t.Errorf("Delete(unknown): %v", err)
	}
	if _, found, _ := ss.Find("gone"); found {
		t.Error("a deleted session was found")
	}
	n, err := ss.PruneSignInTokens(ctx, now)
	if err != nil || n != 1 {
		t.Errorf("PruneSignInTokens = %d, %v; want the expired one", n, err)
	}
	if _, found, _ := ss.Find("live"); !found {
		t.Error("pruning removed a live session")
	}
	// Another handle on the same database sees the same sessions (a restart, another instance).
	if b, found, _ := s.SignInTokens().Find("live"); !found || string(b) != "data-2" {
		t.Error("a second session store does not see the first one's session")
	}
}

// RunSignInTokensHashed checks that tokens keeps sessions under the hash of their token: after
// sessions are written, found and one deleted, dump (what a copy of the database holds: the
// SQLite file and its WAL, every text column on PostgreSQL) has no token, and has the live
// one's team.TokenHash, by which it is still found.
func RunSignInTokensHashed(t *testing.T, tokens team.SignInTokenStore, dump func() []byte) {
	live, gone := "live-"+checkout.NewID()+checkout.NewID(), "gone-"+checkout.NewID()+checkout.NewID()
	for _, tok := range []string{live, gone} {
		must(t, tokens.Commit(tok, []byte("data-"+tok[:4]), time.Now().Add(time.Hour)))
	}
	must(t, tokens.Delete(gone))
	if b, found, err := tokens.Find(live); !found || err != nil || string(b) != "data-live" {
		t.Fatalf("Find(live) = %q, %v, %v", b, found, err)
	}
	if _, found, _ := tokens.Find(gone); found {
		t.Error("a deleted session was found")
	}
	if _, found, _ := tokens.Find(team.TokenHash(live)); found {
		t.Error("the hash of a token found its session: the hash is a token")
	}
	d := dump()
	for _, tok := range []string{live, gone} {
		if bytes.Contains(d, []byte(tok)) {
			t.Errorf("the database holds the session token %q in clear", tok)
		}
	}
	if !bytes.Contains(d, []byte(team.TokenHash(live))) {
		t.Error("the database does not hold the live session's token hash: the dump misses the sessions")
	}
}

// testDeviceCookies: once the account's failures from many addresses reach its ceiling, the
// right password from a fresh address waits, except from a device of the account
// (team.Device); a device's own failures stop it after a pair's allowance.
func testDeviceCookies(t *testing.T, s AccountStores) {
	ctx := context.Background()
	policy := team.ThrottlePolicy{PerPair: 3, PerAddress: 30, PerAccount: 5, FirstWait: time.Minute, MaxWait: time.Hour,
		ForgetAfter: 24 * time.Hour}
	acc := team.NewAccounts(s, s, team.AccountsOptions{Clock: func() time.Time { return base }, Throttle: policy,
		Hasher: teamtest.Hasher()})
	const email, pw = "dona@loja.example", "uma senha longa o bastante"
	must(t, errOf(acc.AddUser(ctx, email, pw, team.RoleOwner)))
	dev := team.NewDevice(email)
	for i := range 5 {
		if _, err := acc.Login(ctx, email, "errada", fmt.Sprintf("203.0.113.%d", i+1)); !errors.Is(err, team.ErrBadCredentials) {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	var te *team.ThrottledError
	if _, err := acc.Login(ctx, email, pw, "198.51.100.1"); !errors.As(err, &te) {
		t.Fatalf("the right password from a fresh address past the account's ceiling: %v; want throttled", err)
	}
	other := team.NewDevice("outra@loja.example")
	if _, err := acc.LoginFrom(ctx, email, pw, "198.51.100.2", &other); !errors.As(err, &te) {
		t.Errorf("with another account's device: %v; want throttled", err)
	}
	if _, err := acc.LoginFrom(ctx, email, pw, "198.51.100.3", &dev); err != nil {
		t.Fatalf("from a device of the account: %v; want signed in", err)
	}
	for i := range 3 {
		if _, err := acc.LoginFrom(ctx, email, "errada", fmt.Sprintf("192.0.2.%d", i+1), &dev); !errors.Is(err, team.ErrBadCredentials) {
			t.Fatalf("device failure %d: %v", i+1, err)
		}
	}
	if _, err := acc.LoginFrom(ctx, email, pw, "192.0.2.9", &dev); !errors.As(err, &te) {
		t.Errorf("a device after a pair's allowance of failures: %v; want throttled", err)
	}
}

func testInvitationsFollowInviter(t *testing.T, s AccountStores) {
	ctx := context.Background()
	acc := team.NewAccounts(s, s, team.AccountsOptions{Invitations: s, Clock: func() time.Time { return base },
		Hasher: teamtest.Hasher()})
	add := func(email string, role team.Role) *team.User {
		u, err := acc.AddUser(ctx, email, "uma senha longa o bastante", role)
		must(t, err)
		return u
	}
	add("fundadora@loja.example", team.RoleOwner)
	ana, bia := add("ana@loja.example", team.RoleOwner), add("bia@loja.example", team.RoleOwner)
	invite := func(by string, role team.Role, to string) string {
		tok, _, err := acc.Invite(ctx, to, role, by)
		must(t, err)
		return tok
	}
	anaOwner, anaViewer := invite(ana.Email, team.RoleOwner, "novo-dono@loja.example"), invite(ana.Email, team.RoleViewer, "leitora@loja.example")
	biaOwner := invite(bia.Email, team.RoleOwner, "outro-dono@loja.example")
	shell := invite(audit.ActorCLI, team.RoleOwner, "pelo-shell@loja.example")
	usable := func(toks ...string) (ok []bool) {
		for _, tok := range toks {
			_, err := acc.Invitation(ctx, tok)
			if err != nil && !errors.Is(err, team.ErrInvitationInvalid) {
				t.Fatal(err)
			}
			ok = append(ok, err == nil)
		}
		return ok
	}
	if !same(t, "fresh invitations usable", usable(anaOwner, anaViewer, biaOwner, shell), []bool{true, true, true, true}) {
		t.FailNow()
	}
	// Demoted without the withdrawal (as if it had failed): the link alone must not make an owner.
	must(t, acc.ChangeRole(ctx, ana.ID, team.RoleViewer))
	same(t, "invitations of a demoted inviter usable", usable(anaOwner, anaViewer), []bool{false, false})
	sameErr(t, "accepting the owner invitation of a demoted inviter",
		errOf(acc.AcceptInvitation(ctx, anaOwner, "uma senha longa o bastante")), team.ErrInvitationInvalid)
	out, err := acc.WithdrawInvitationsOf(ctx, ana.Email, team.RoleViewer)
	must(t, err)
	same(t, "invitations WithdrawInvitationsOf(demoted) withdrew", len(out), 2)
	must(t, acc.RemoveUser(ctx, bia.ID))
	same(t, "invitation of a removed inviter usable", usable(biaOwner), []bool{false})
	out, err = acc.WithdrawInvitationsOf(ctx, bia.Email, "")
	must(t, err)
	if len(out) != 1 || out[0].Email != "outro-dono@loja.example" {
		t.Errorf("WithdrawInvitationsOf(removed) = %+v; want bia's one invitation", out)
	}
	pending, err := acc.PendingInvitations(ctx)
	if err != nil || len(pending) != 1 || pending[0].InvitedBy != audit.ActorCLI || !usable(shell)[0] {
		t.Errorf("after the withdrawals: %+v, %v; want only the shell's invitation, usable", pending, err)
	}
}

// testLoginOnStore: the accounts service on the store: sign-in, the throttle's wait, a reset.
func testLoginOnStore(t *testing.T, s AccountStores) {
	ctx := context.Background()
	now := base
	clock := func() time.Time { return now }
	acc := team.NewAccounts(s, s, team.AccountsOptions{Clock: clock,
		Hasher: teamtest.Hasher()})
	u, pw, err := acc.EnsureAdmin(ctx, "", "")
	if err != nil || u == nil || pw == "" {
		t.Fatalf("EnsureAdmin = %v, %q, %v", u, pw, err)
	}
	if got, err := acc.Login(ctx, team.DefaultAdminEmail, pw, "203.0.113.9:1234"); err != nil || got.ID != u.ID {
		t.Fatalf("Login = %v, %v", got, err)
	}
	for range 10 {
		if _, err := acc.Login(ctx, team.DefaultAdminEmail, "wrong", "203.0.113.9:1234"); !errors.Is(err, team.ErrBadCredentials) {
			t.Fatalf("wrong password: %v", err)
		}
	}
	var te *team.ThrottledError
	if _, err := acc.Login(ctx, team.DefaultAdminEmail, pw, "203.0.113.9:1"); !errors.As(err, &te) || te.Wait != time.Minute {
		t.Fatalf("after 10 failures: %v", err)
	}
	must(t, errOf(acc.Login(ctx, team.DefaultAdminEmail, pw, "198.51.100.3:1")))
	now = now.Add(time.Minute)
	must(t, errOf(acc.Login(ctx, team.DefaultAdminEmail, pw, "203.0.113.9:1")))
}

// testRoles: roles are stored and changed, users removed, and the last owner stays one.
func testRoles(t *testing.T, s AccountStores) {
	ctx := context.Background()
	owner, dev := user("u1", "ana@loja.example"), user("u2", "bia@loja.example")
	dev.Role = team.RoleDeveloper
	for _, u := range []team.User{owner, dev} {
		must(t, s.CreateUser(ctx, u))
	}
	if got, _ := s.User(ctx, "u2"); got.Role != team.RoleDeveloper {
		t.Errorf("stored role %q, want developer", got.Role)
	}
	sameErr(t, "demoting the last owner", s.SetUserRole(ctx, "u1", team.RoleViewer), team.ErrLastOwner)
	sameErr(t, "removing the last owner", s.DeleteUser(ctx, "u1"), team.ErrLastOwner)
	if err := s.SetUserRole(ctx, "u1", team.RoleOwner); err != nil {
		t.Errorf("an owner made owner again: %v", err)
	}
	for _, f := range []func() error{
		func() error { return s.SetUserRole(ctx, "nope", team.RoleViewer) },
		func() error { return s.DeleteUser(ctx, "nope") },
		func() error { return s.DeleteUser(ctx, "bad\xff\x00") },
	} {
		sameErr(t, "missing user", f(), checkout.ErrNotFound)
	}
	must(t, s.SetUserRole(ctx, "u2", team.RoleOwner))
	if err := s.SetUserRole(ctx, "u1", team.RoleOperator); err != nil {
		t.Errorf("demoting one of two owners: %v", err)
	}
	must(t, s.DeleteUser(ctx, "u1"))
	sameErr(t, "a removed user", errOf(s.User(ctx, "u1")), checkout.ErrNotFound)
	at := base.Add(time.Hour)
	must(t, s.RecordSignIn(ctx, "u2", at))
	if got, _ := s.User(ctx, "u2"); !got.LastSignInAt.Equal(at) || got.Role != team.RoleOwner {
		t.Errorf("after RecordSignIn: %+v", got)
	}
}

// testRolesConcurrent: owners demoting and removing each other all at once leave one owner.
func testRolesConcurrent(t *testing.T, s AccountStores) {
	ctx := context.Background()
	const n = 6
	for i := range n {
		must(t, s.CreateUser(ctx, user(fmt.Sprintf("o%d", i), fmt.Sprintf("o%d@loja.example", i))))
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if i%2 == 0 {
				err = s.SetUserRole(ctx, fmt.Sprintf("o%d", i), team.RoleViewer)
			} else {
				err = s.DeleteUser(ctx, fmt.Sprintf("o%d", i))
			}
			if err != nil && !errors.Is(err, team.ErrLastOwner) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	users, err := s.Users(ctx)
	must(t, err)
	owners := 0
	for _, u := range users {
		if u.Role == team.RoleOwner {
			owners++
		}
	}
	if owners != 1 {
		t.Errorf("%d owners left, want exactly 1: %+v", owners, users)
	}
}

func testInvitations(t *testing.T, s AccountStores) {
	ctx := context.Background()
	now := base
	clock := func() time.Time { return now }
	acc := team.NewAccounts(s, s, team.AccountsOptions{Clock: clock, Invitations: s,
		Hasher: teamtest.Hasher()})
	// The inviter: an invitation holds only while they may invite.
	must(t, errOf(acc.AddUser(ctx, "ana@loja.example", "uma senha longa o bastante", team.RoleOwner)))
	token, inv, err := acc.Invite(ctx, "Nova@Loja.Example", team.RoleDeveloper, "ana@loja.example")
	if err != nil || inv.Email != "nova@loja.example" || !inv.ExpiresAt.Equal(base.Add(72*time.Hour)) {
		t.Fatalf("Invite = %+v, %v", inv, err)
	}
	if pending, err := acc.PendingInvitations(ctx); err != nil || len(pending) != 1 || pending[0].TokenHash == token {
		t.Fatalf("pending = %+v, %v (the token itself must not be stored)", pending, err)
	}
	if _, err := acc.AcceptInvitation(ctx, token, "curta"); err == nil {
		t.Fatal("a short password was accepted")
	}
	u, err := acc.AcceptInvitation(ctx, token, "tres-palavras-soltas")
	must(t, err)
	same(t, "accepted user's role and e-mail", []string{string(u.Role), u.Email}, []string{string(team.RoleDeveloper), "nova@loja.example"})
	sameErr(t, "a used link", errOf(acc.AcceptInvitation(ctx, token, "outra-senha-forte-9")), team.ErrInvitationInvalid)
	sameErr(t, "inviting a user", errOf2(acc.Invite(ctx, "nova@loja.example", team.RoleViewer, "ana@loja.example")), team.ErrEmailTaken)
	late, _, err := acc.Invite(ctx, "tarde@loja.example", team.RoleViewer, "ana@loja.example")
	must(t, err)
	now = base.Add(72*time.Hour - time.Millisecond)
	same(t, "a link just before 72 h", errOf(acc.Invitation(ctx, late)), nil)
	now = base.Add(72 * time.Hour)
	sameErr(t, "a link after 72 h", errOf(acc.AcceptInvitation(ctx, late, "tres-palavras-soltas")), team.ErrInvitationInvalid)
	sameErr(t, "an unknown link", errOf(acc.Invitation(ctx, "nonsense")), team.ErrInvitationInvalid)
	now = base
	_, withdrawn, err := acc.Invite(ctx, "desiste@loja.example", team.RoleViewer, "ana@loja.example")
	must(t, err)
	must(t, acc.WithdrawInvitation(ctx, withdrawn.ID))
	sameErr(t, "withdrawing twice", acc.WithdrawInvitation(ctx, withdrawn.ID), checkout.ErrNotFound)
}

func testAudit(t *testing.T, s AccountStores) {
	ctx := context.Background()
	now := base
	log := audit.New(s, 24*time.Hour, func() time.Time { return now })
	for i, e := range []audit.Entry{
		{Actor: "ana@loja.example", Action: audit.SignIn, Object: "ana@loja.example", Address: "192.0.2.1"},
		{Actor: "cli", Action: audit.UserAdded, Object: "bia@loja.example", Detail: "role: viewer"},
		{Actor: "ana@loja.example", Action: audit.KeyCreated, Object: "ERP\x00\xff", Address: "192.0.2.1"},
	} {
		now = base.Add(time.Duration(i) * time.Hour)
		must(t, log.Record(ctx, e))
	}
	all, err := log.Entries(ctx, audit.Filter{})
	if err != nil || len(all) != 3 || all[0].Action != audit.KeyCreated || all[0].Object != "ERP\uFFFD" ||
		!all[2].At.Equal(base) || all[1].Detail != "role: viewer" {
		t.Fatalf("Entries = %+v, %v", all, err)
	}
	ids := func(f audit.Filter) []int64 {
		got, err := log.Entries(ctx, f)
		must(t, err)
		var ids []int64
		for _, e := range got {
			ids = append(ids, e.ID)
		}
		return ids
	}
	same(t, "entries by actor", ids(audit.Filter{Actor: "ana@loja.example"}), []int64{all[0].ID, all[2].ID})
	same(t, "entries by action", ids(audit.Filter{Action: audit.UserAdded}), []int64{all[1].ID})
	same(t, "next page", ids(audit.Filter{BeforeID: all[0].ID, Limit: 1}), []int64{all[1].ID})
	same(t, "actors", res(log.Actors(ctx)), res([]string{"ana@loja.example", "cli"}, nil))
	now = base.Add(25 * time.Hour) // the retention is a day: the first entry goes
	same(t, "Prune", res(log.Prune(ctx)), res(1, nil))
}

func testSignIns(t *testing.T, s AccountStores) {
	ctx := context.Background()
	for _, u := range []team.User{user("u1", "ana@loja.example"), user("u2", "bia@loja.example")} {
		must(t, s.CreateUser(ctx, u))
	}
	for i, us := range []team.SignIn{
		{ID: "s1", UserID: "u1", Address: "192.0.2.1", UserAgent: "Firefox"},
		{ID: "s2", UserID: "u1", Address: "192.0.2.2", UserAgent: "Safari"},
		{ID: "s3", UserID: "u1", Address: "192.0.2.3", UserAgent: "Chrome"},
		{ID: "s4", UserID: "u2", Address: "192.0.2.4", UserAgent: "Edge"},
	} {
		us.CreatedAt = base.Add(time.Duration(i) * time.Minute)
		us.SeenAt = us.CreatedAt
		must(t, s.CreateSignIn(ctx, us))
	}
	must(t, s.SeeSignIn(ctx, "s1", base.Add(time.Hour)))
	list, err := s.SignIns(ctx, "u1")
	if err != nil || len(list) != 3 || list[0].ID != "s1" || list[0].UserAgent != "Firefox" || !list[0].SeenAt.Equal(base.Add(time.Hour)) {
		t.Fatalf("SignIns = %+v, %v", list, err)
	}
	sameErr(t, "ending another user's session", s.DeleteSignIn(ctx, "u2", "s1"), checkout.ErrNotFound)
	must(t, s.DeleteSignIn(ctx, "u1", "s3"))
	same(t, "DeleteSignIns", res(s.DeleteSignIns(ctx, "u1", "s1")), res(1, nil))
	sameErr(t, "an ended session", errOf(s.SignIn(ctx, "s2")), checkout.ErrNotFound)
	same(t, "PruneSignIns (s4 was last seen long ago)", res(s.PruneSignIns(ctx, base.Add(30*time.Minute))), res(1, nil))
	must(t, s.DeleteUser(ctx, "u2"))
	if !sameErr(t, "deleting the last owner", s.DeleteUser(ctx, "u1"), team.ErrLastOwner) {
		t.FailNow()
	}
	got, err := s.SignIn(ctx, "s1")
	must(t, err)
	same(t, "the kept session's user", got.UserID, "u1")
}

func testTOTP(t *testing.T, s AccountStores) {
	ctx := context.Background()
	must(t, s.CreateUser(ctx, user("u1", "ana@loja.example")))
	same(t, "a step without a second factor", res(s.UseTOTPStep(ctx, "u1", 5)), res(false, nil))
	hashes := [][]byte{[]byte("hash-one-hash-one-hash-one-hash1"), []byte("hash-two-hash-two-hash-two-hash2")}
	sameErr(t, "an unknown user", s.EnableTOTP(ctx, "nope", "SECRET", base, 100, hashes), checkout.ErrNotFound)
	must(t, s.EnableTOTP(ctx, "u1", "JBSWY3DPEHPK3PXP", base, 100, hashes))
	if u, _ := s.User(ctx, "u1"); u.TOTPSecret != "JBSWY3DPEHPK3PXP" || !u.TOTPEnabled() || u.TOTPLastStep != 100 {
		t.Errorf("after EnableTOTP: %+v", u)
	}
	for _, tc := range []struct {
		step int64
		ok   bool
	}{{100, false}, {99, false}, {101, true}, {101, false}, {103, true}, {102, false}} {
		same(t, fmt.Sprintf("step %d", tc.step), res(s.UseTOTPStep(ctx, "u1", tc.step)), res(tc.ok, nil))
	}
	same(t, "a recovery code", res(s.UseRecoveryCode(ctx, "u1", hashes[1], base)), res(true, nil))
	same(t, "a used recovery code", res(s.UseRecoveryCode(ctx, "u1", hashes[1], base)), res(false, nil))
	same(t, "RecoveryCodesLeft", res(s.RecoveryCodesLeft(ctx, "u1")), res(1, nil))
	must(t, s.DisableTOTP(ctx, "u1"))
	if u, _ := s.User(ctx, "u1"); u.TOTPEnabled() || u.TOTPSecret != "" {
		t.Errorf("after DisableTOTP: %+v", u)
	}
	same(t, "recovery codes after DisableTOTP", res(s.RecoveryCodesLeft(ctx, "u1")), res(0, nil))
	same(t, "RequireTOTP at first", res(s.RequireTOTP(ctx)), res(false, nil))
	for _, want := range []bool{true, false, true} {
		must(t, s.SetRequireTOTP(ctx, want))
		same(t, "RequireTOTP", res(s.RequireTOTP(ctx)), res(want, nil))
	}
}

// failures is a throttle key's count of failures and the time of its last one.
func failures(t *testing.T, s AccountStores, key string) (int, time.Time) {
	t.Helper()
	n, last, err := s.LoginFailures(context.Background(), key)
	must(t, err)
	return n, last
}

func testThrottleCount(t *testing.T, s AccountStores) {
	ctx := context.Background()
	if n, last := failures(t, s, "account:ana@loja.example"); n != 0 || !last.IsZero() {
		t.Fatalf("no failures yet: %d %v", n, last)
	}
	for i := 1; i <= 3; i++ {
		at := base.Add(time.Duration(i) * time.Minute)
		n, err := s.RecordLoginFailure(ctx, "account:ana@loja.example", at, at.Add(-24*time.Hour))
		must(t, err)
		same(t, fmt.Sprintf("count at failure %d", i), n, i)
	}
	if n, last := failures(t, s, "account:ana@loja.example"); n != 3 || !last.Equal(base.Add(3*time.Minute)) {
		t.Errorf("LoginFailures = %d %v", n, last)
	}
	// A failure after a quiet day starts the count again.
	at := base.Add(30 * time.Hour)
	n, err := s.RecordLoginFailure(ctx, "account:ana@loja.example", at, at.Add(-24*time.Hour))
	must(t, err)
	same(t, "count after a quiet day", n, 1)
}

// testThrottleKeys, after testThrottleCount on its store: keys are independent; a key with odd bytes is stored and found again; a
// reset and pruning touch only their keys.
func testThrottleKeys(t *testing.T, s AccountStores) {
	ctx := context.Background()
	odd := "account:\xff\x00@x"
	for range 2 {
		must(t, errOf(s.RecordLoginFailure(ctx, odd, base, base.Add(-time.Hour))))
	}
	n, _ := failures(t, s, odd)
	same(t, "failures of an odd key", n, 2)
	must(t, errOf(s.RecordLoginFailure(ctx, "addr:203.0.113.7", base, base.Add(-time.Hour))))
	must(t, s.ResetLoginFailures(ctx, "account:ana@loja.example"))
	n, _ = failures(t, s, "account:ana@loja.example")
	same(t, "failures after reset", n, 0)
	n, _ = failures(t, s, "addr:203.0.113.7")
	same(t, "failures of another key after reset", n, 1)
	// Pruning forgets keys whose last failure is older than the bound, and only those.
	must(t, errOf(s.RecordLoginFailure(ctx, "addr:198.51.100.1", base.Add(2*time.Hour), base)))
	pruned, err := s.PruneLoginFailures(ctx, base.Add(time.Hour))
	must(t, err)
	same(t, "keys pruned (the odd key and 203.0.113.7)", pruned, 2)
	n, _ = failures(t, s, "addr:198.51.100.1")
	same(t, "failures of a recent key after pruning", n, 1)
}
