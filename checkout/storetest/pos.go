package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// POSStores are the stores the point of sale uses: its own, the users (cashiers) and the
// orders (sales).
type POSStores interface {
	pos.Store
	pos.DisplayStore
	team.UserStore
	checkout.Store
}

// RunPOS runs the suite of the point of sale's records (pos.Store through pos.Manager). open
// must return a new, empty (migrated) store for each call and arrange its closing with t.Cleanup.
func RunPOS(t *testing.T, open func(t *testing.T) POSStores) {
	t.Run("Terminals", func(t *testing.T) { testTerminals(t, open(t)) })
	t.Run("CashierTerminals", func(t *testing.T) { testCashierTerminals(t, open(t)) })
	t.Run("Settings", func(t *testing.T) { testPOSSettings(t, open(t)) })
	t.Run("Sales", func(t *testing.T) { testSales(t, open(t)) })
	t.Run("Displays", func(t *testing.T) { testDisplays(t, open(t)) })
	t.Run("Closing", func(t *testing.T) { testClosing(t, open(t)) })
}

func terminalNames(t *testing.T, m *pos.Manager, active bool) []string {
	t.Helper()
	ts, err := m.Terminals(context.Background())
	must(t, err)
	var names []string
	for _, x := range ts {
		if x.Active() == active {
			names = append(names, x.Name)
		}
	}
	return names
}

// A new install has "Caixa 1"; owners make, rename and archive terminals, whose active names
// are unique; the last active one stays.
func testTerminals(t *testing.T, s POSStores) {
	ctx := context.Background()
	m := pos.NewManager(s, func() time.Time { return base })
	if got := terminalNames(t, m, true); !reflect.DeepEqual(got, []string{pos.FirstTerminalName}) {
		t.Fatalf("a new store's terminals: %q", got)
	}
	if _, err := m.ArchiveTerminal(ctx, pos.FirstTerminal); !errors.Is(err, pos.ErrLastTerminal) {
		t.Fatalf("archiving the only terminal: %v", err)
	}
	two, err := m.CreateTerminal(ctx, "  Caixa   2 ")
	must(t, err)
	if two.Name != "Caixa 2" || len(two.ID) < 20 {
		t.Fatalf("created %+v", two)
	}
	sameErr(t, "a taken name", errOf(m.CreateTerminal(ctx, "Caixa 1")), pos.ErrNameTaken)
	sameErr(t, "renaming to a taken name", errOf(m.RenameTerminal(ctx, two.ID, "Caixa 1")), pos.ErrNameTaken)
	var ve *checkout.ValidationError
	if _, err := m.CreateTerminal(ctx, " "); !errors.As(err, &ve) || ve.Violations[0].Field != pos.FieldName {
		t.Fatalf("an empty name: %v", err)
	}
	if _, err := m.RenameTerminal(ctx, two.ID, "Balcão"); err != nil {
		t.Fatal(err)
	}
	sameErr(t, "renaming a missing terminal", errOf(m.RenameTerminal(ctx, "missing", "X")), checkout.ErrNotFound)
	if _, err := m.ArchiveTerminal(ctx, pos.FirstTerminal); err != nil {
		t.Fatal(err)
	}
	if got := terminalNames(t, m, true); !reflect.DeepEqual(got, []string{"Balcão"}) {
		t.Fatalf("active after archiving Caixa 1: %q", got)
	}
	// An archived terminal's name is free again; it keeps its own.
	if _, err := m.CreateTerminal(ctx, "Caixa 1"); err != nil {
		t.Fatalf("reusing an archived terminal's name: %v", err)
	}
	if got := terminalNames(t, m, false); !reflect.DeepEqual(got, []string{"Caixa 1"}) {
		t.Fatalf("archived: %q", got)
	}
}

// A cashier is a role the users' table takes; it is given every active terminal until an
// owner narrows it, then only those; owners and operators sell at every terminal, a viewer at
// none.
func testCashierTerminals(t *testing.T, s POSStores) {
	ctx := context.Background()
	m := pos.NewManager(s, func() time.Time { return base })
	users := map[team.Role]*team.User{}
	for _, r := range []team.Role{team.RoleCashier, team.RoleOwner, team.RoleViewer} {
		u := team.User{ID: checkout.NewID(), Email: string(r) + "@loja.example", Role: r, PasswordHash: "x", CreatedAt: base, UpdatedAt: base}
		if err := s.CreateUser(ctx, u); err != nil {
			t.Fatalf("storing a user of role %s: %v", r, err)
		}
		users[r] = &u
	}
	if got, err := s.User(ctx, users[team.RoleCashier].ID); err != nil || got.Role != team.RoleCashier {
		t.Fatalf("the cashier read back: %+v, %v", got, err)
	}
	two, err := m.CreateTerminal(ctx, "Caixa 2")
	must(t, err)
	names := func(u *team.User) []string {
		ts, err := m.TerminalsOf(ctx, u)
		must(t, err)
		var out []string
		for _, x := range ts {
			out = append(out, x.Name)
		}
		return out
	}
	cashier := users[team.RoleCashier]
	if got := names(cashier); !reflect.DeepEqual(got, []string{"Caixa 1", "Caixa 2"}) {
		t.Fatalf("a new cashier's terminals: %q", got)
	}
	must(t, m.SetCashierTerminals(ctx, cashier.ID, []string{two.ID}))
	if got := names(cashier); !reflect.DeepEqual(got, []string{"Caixa 2"}) {
		t.Fatalf("narrowed to Caixa 2: %q", got)
	}
	if _, err := m.Terminal(ctx, cashier, pos.FirstTerminal); !errors.Is(err, pos.ErrNotAllowed) {
		t.Fatalf("a terminal the cashier was not given: %v", err)
	}
	if got := names(users[team.RoleOwner]); len(got) != 2 {
		t.Fatalf("an owner's terminals: %q", got)
	}
	if got := names(users[team.RoleViewer]); len(got) != 0 {
		t.Fatalf("a viewer's terminals: %q", got)
	}
	var ve *checkout.ValidationError
	if err := m.SetCashierTerminals(ctx, cashier.ID, []string{"missing"}); !errors.As(err, &ve) {
		t.Fatalf("narrowing to an unknown terminal: %v", err)
	}
	if got := names(cashier); !reflect.DeepEqual(got, []string{"Caixa 2"}) {
		t.Fatalf("after a refused change: %q", got)
	}
	// Every terminal again: not narrowed any more, so a terminal made later is given too.
	must(t, m.SetCashierTerminals(ctx, cashier.ID, []string{pos.FirstTerminal, two.ID}))
	if _, err := m.CreateTerminal(ctx, "Caixa 3"); err != nil {
		t.Fatal(err)
	}
	if got := names(cashier); len(got) != 3 {
		t.Fatalf("given every terminal, then a third made: %q", got)
	}
	removedCashier(t, s, m, cashier, two.ID)
}

// removedCashier checks that a removed cashier takes their terminals with them.
func removedCashier(t *testing.T, s POSStores, m *pos.Manager, cashier *team.User, terminal string) {
	ctx := context.Background()
	sameErr(t, "narrowing a missing user", s.SetCashierTerminals(ctx, "missing", []string{terminal}), checkout.ErrNotFound)
	must(t, m.SetCashierTerminals(ctx, cashier.ID, []string{terminal}))
	must(t, s.DeleteUser(ctx, cashier.ID))
	if ids, err := s.CashierTerminals(ctx, cashier.ID); err != nil || len(ids) != 0 {
		t.Fatalf("a removed cashier's terminals: %q, %v", ids, err)
	}
}

// The settings are the defaults until saved; out-of-bounds values are refused.
func testPOSSettings(t *testing.T, s POSStores) {
	ctx := context.Background()
	m := pos.NewManager(s, func() time.Time { return base })
	got, err := m.Settings(ctx)
	if err != nil || got != pos.DefaultSettings() || got.QRLifetime != 5*time.Minute || got.IdleLimit != 12*time.Hour {
		t.Fatalf("defaults: %+v, %v", got, err)
	}
	var ve *checkout.ValidationError
	if err := m.SaveSettings(ctx, pos.Settings{QRLifetime: 30 * time.Second, IdleLimit: 25 * time.Hour}); !errors.As(err, &ve) || len(ve.Violations) != 2 {
		t.Fatalf("out of bounds: %v", err)
	}
	want := pos.Settings{QRLifetime: 3 * time.Minute, IdleLimit: 8 * time.Hour}
	must(t, m.SaveSettings(ctx, want))
	got, err = m.Settings(ctx)
	want.UpdatedAt = base
	if err != nil || !got.UpdatedAt.Equal(base) {
		t.Fatalf("saved: %+v, %v", got, err)
	}
	got.UpdatedAt = base
	if got != want {
		t.Fatalf("read back %+v, want %+v", got, want)
	}
}

// A sale keeps its terminal and cashier; the sales of one cashier, or one terminal, are found
// by them.
func testSales(t *testing.T, s POSStores) {
	ctx := context.Background()
	sale := func(terminal, cashier string) *checkout.Order {
		o := NewOrder("pos:" + terminal + "/" + checkout.NewID())
		o.Channel, o.TerminalID, o.CashierID, o.Address, o.Physical, o.Shipping = checkout.ChannelPOS, terminal, cashier, nil, false, 0
		o.Customer = checkout.Customer{}
		o.Lines, o.Amount = []checkout.OrderLine{{Title: checkout.SaleTitle, UnitPrice: 1234, Quantity: 1}}, 1234
		return mustCreate(t, s, o)
	}
	a := sale(pos.FirstTerminal, "ana")
	sale(pos.FirstTerminal, "bia")
	sale("caixa-2", "ana")
	if got := mustRead(t, s, a.ID); got.TerminalID != pos.FirstTerminal || got.CashierID != "ana" || got.Channel != checkout.ChannelPOS || got.Customer != (checkout.Customer{}) {
		t.Fatalf("a sale read back: terminal %q cashier %q channel %q customer %+v", got.TerminalID, got.CashierID, got.Channel, got.Customer)
	}
	count := func(f checkout.OrderFilter) int {
		list, err := s.Orders(ctx, f)
		must(t, err)
		return len(list)
	}
	if n := count(checkout.OrderFilter{CashierID: "ana"}); n != 2 {
		t.Errorf("ana's sales: %d", n)
	}
	if n := count(checkout.OrderFilter{TerminalID: pos.FirstTerminal}); n != 2 {
		t.Errorf("Caixa 1's sales: %d", n)
	}
	if n := count(checkout.OrderFilter{TerminalID: pos.FirstTerminal, CashierID: "bia"}); n != 1 {
		t.Errorf("bia's sales at Caixa 1: %d", n)
	}
}
