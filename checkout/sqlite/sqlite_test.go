package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
)

func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

// migrated opens a new store that starts from the migrated template (the migrations have
// tests of their own: applying them for each case was most of this package's time), closed
// when t ends.
func migrated(t *testing.T) *sqlite.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "checkout.db")
	sqlitetest.Create(t, path)
	s := open(t, path)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestStoreSuite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) checkout.Store { return migrated(t) })
}

// TestReopen: data survives closing and reopening, and migrations are applied once.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nested", "checkout.db")
	s := open(t, path)
	o := storetest.NewOrder("key-reopen")
	o.Address, o.Physical = nil, false
	if _, _, err := s.CreateOrder(ctx, o); err != nil {
		t.Fatal(err)
	}
	if err := checkout.SeedDemoCatalogue(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, path)
	defer s.Close()
	got, err := s.Order(ctx, o.ID)
	if err != nil || got.RequestKey != "key-reopen" || len(got.Attempts) != 1 {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
	if err := checkout.SeedDemoCatalogue(ctx, s); err != nil {
		t.Fatal(err)
	}
	ps, err := s.Products(ctx, true)
	if err != nil || len(ps) < 2 {
		t.Fatalf("products after reseeding: %d, %v", len(ps), err)
	}
	var digital, physical bool
	for _, p := range ps {
		digital = digital || !p.Physical
		physical = physical || p.Physical
	}
	if !digital || !physical {
		t.Errorf("demo catalogue lacks a digital or a physical product: %+v", ps)
	}
	if n, want := migrationsApplied(t, path), storetest.MigrationFiles(t); n != want {
		t.Errorf("schema_migrations rows = %d; want %d", n, want)
	}
	if err := s.Ping(ctx); err != nil {
		t.Errorf("Ping: %v", err)
	}
}

// migrationsApplied counts the rows of schema_migrations in the database file at path.
func migrationsApplied(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM schema_migrations WHERE component = 'checkout'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMerchantStores runs the suite of the merchant side's stores (sessions, API keys,
// settings, the notification outbox).
func TestMerchantStores(t *testing.T) {
	storetest.RunMerchant(t, func(t *testing.T) storetest.MerchantStores {
		return migrated(t)
	})
}

// TestBrand runs the suite of the store's profile.
func TestBrand(t *testing.T) {
	storetest.RunBrand(t, func(t *testing.T) brand.Store {
		return migrated(t)
	})
}

// TestCharges runs the suite of charges with due dates.
func TestCharges(t *testing.T) {
	storetest.RunCharges(t, func(t *testing.T) storetest.ChargeStores {
		return migrated(t)
	})
}

// TestPersonalData runs the suite of personal data's retention and data subjects' requests.
func TestPersonalData(t *testing.T) {
	storetest.RunPersonalData(t, func(t *testing.T) storetest.PersonalDataStores {
		return migrated(t)
	}, sandboxGateway)
}

// sandboxGateway is the storetest's gateway on a sandbox of its own.
func sandboxGateway(t *testing.T) storetest.Gateway {
	const id, secret = "checkout-test", "checkout-test-secret"
	dir := filepath.Join(t.TempDir(), "sandbox")
	sandboxtest.Create(t, dir)
	sb, err := sandbox.New(context.Background(), sandbox.Options{DataDir: dir,
		Clients: []sandbox.ClientConfig{{ID: id, Secret: secret}}, RateLimit: sandbox.RateLimit{Requests: 100000, Burst: 100000}})
	if err != nil {
		t.Fatalf("sandbox.New: %v", err)
	}
	t.Cleanup(func() { sb.Close() })
	srv := httptest.NewServer(sb)
	t.Cleanup(srv.Close)
	client, err := gatewayclient.New(srv.URL, id, secret)
	if err != nil {
		t.Fatal(err)
	}
	control := func(a sandbox.DepositAction) func(context.Context, string) error {
		return func(ctx context.Context, tx string) error {
			_, err := sb.ControlDeposit(ctx, id, tx, a, sandbox.DepositControl{})
			return err
		}
	}
	return storetest.Gateway{Client: client, Now: sb.Now, Pay: control(sandbox.ActionPay), Review: control(sandbox.ActionCompliance)}
}

// TestAccountStores runs the suite of the dashboard's users, sign-in throttling and sessions.
func TestAccountStores(t *testing.T) {
	storetest.RunAccounts(t, func(t *testing.T) storetest.AccountStores {
		return migrated(t)
	})
}

// TestReports runs the suite of the merchant's order summaries and overview figures, and
// checks their statement counts.
func TestReports(t *testing.T) {
	storetest.RunReports(t, func(t *testing.T) checkout.Store {
		return migrated(t)
	})
}

// TestSignInTokensHashed: neither the file nor its WAL holds a session's token, only its hash
// (storetest).
func TestSignInTokensHashed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "checkout.db")
	s := open(t, path)
	t.Cleanup(func() { s.Close() })
	storetest.RunSignInTokensHashed(t, s.SignInTokens(), func() []byte {
		var all []byte
		for _, p := range []string{path, path + "-wal"} {
			b, err := os.ReadFile(p)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			all = append(all, b...)
		}
		return all
	})
}

// TestSealedSecrets: the file and its WAL hold no secret in clear once sealed (storetest).
func TestSealedSecrets(t *testing.T) {
	storetest.RunSealed(t, func(t *testing.T) (storetest.SealedStores, func() []byte) {
		path := filepath.Join(t.TempDir(), "checkout.db")
		s := open(t, path)
		t.Cleanup(func() { s.Close() })
		return s, func() []byte {
			var all []byte
			for _, p := range []string{path, path + "-wal"} {
				b, err := os.ReadFile(p)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					t.Fatal(err)
				}
				all = append(all, b...)
			}
			return all
		}
	})
}

// TestPOS runs the suite of the point of sale's records.
func TestPOS(t *testing.T) {
	storetest.RunPOS(t, func(t *testing.T) storetest.POSStores {
		return migrated(t)
	})
}

// TestSubscriptions runs the suite of subscriptions; the second instance opens the same file.
func TestSubscriptions(t *testing.T) {
	storetest.RunSubscriptions(t, func(t *testing.T) (storetest.SubscriptionStores, func() storetest.SubscriptionStores) {
		path := filepath.Join(t.TempDir(), "checkout.db")
		sqlitetest.Create(t, path)
		s := open(t, path)
		t.Cleanup(func() { s.Close() })
		return s, func() storetest.SubscriptionStores {
			again := open(t, path)
			t.Cleanup(func() { again.Close() })
			return again
		}
	})
}
