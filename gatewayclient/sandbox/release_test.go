package sandbox

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate/migratetest"
)

// rawDB opens an empty database for the migrations alone, as openDB's writer does.
func rawDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), dbFileName)+"?_txlock=immediate&_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// TestReleaseSchemas: the migrations of each release make, on an empty database, the schema
// of its fixture testdata/schema-RELEASE.sql (the sandbox's tables and its outbox's). 0.1.0's
// is the dump of the development chains its baselines replaced, made before they were deleted.
func TestReleaseSchemas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, r := range plan.Releases {
		db := rawDB(t)
		plans, ok := migratetest.AtRelease(t, r.Name, plan, outbox.Plan(outbox.SQLite))
		if !ok {
			t.Fatalf("the outbox's plan does not list release %s", r.Name)
		}
		if err := sqlmigrate.Apply(ctx, db, "", plans...); err != nil {
			t.Fatal(err)
		}
		got, err := migratetest.Dump(ctx, db, migratetest.SQLite)
		if err != nil {
			t.Fatal(err)
		}
		migratetest.CheckFixture(t, filepath.Join("testdata", "schema-"+r.Name+".sql"), got)
	}
}

// TestUpgradeFromReleases: a sandbox data dir of each release, holding records, settings, an
// idempotency key and a webhook delivery, keeps every row through the migrations numbered after
// that release, and the sandbox reads its deposit back.
func TestUpgradeFromReleases(t *testing.T) {
	t.Parallel()
	var dir string
	migratetest.Upgrade{
		Open: func(t *testing.T) *sql.DB {
			db := rawDB(t)
			var file string
			if err := db.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
				t.Fatal(err)
			}
			dir = filepath.Dir(file)
			return db
		},
		Plans: []sqlmigrate.Plan{plan, outbox.Plan(outbox.SQLite)},
		Write: func(t *testing.T, db *sql.DB, _ string) {
			for _, q := range []string{
				`INSERT INTO settings (key, value) VALUES ('webhook_url', 'https://loja.example/hooks')`,
				`INSERT INTO deposits (id, client_id, status, amount, origin, created_at, expires_at, external_code, doc)
					VALUES ('dep-upg', 'sandbox-client', 'PAID', 2990, 'api', 1773500000000, 1773500600000, 'PX-UPG',
					'{"id":"dep-upg","status":"PAID","amount":2990}')`,
				`INSERT INTO withdrawals (id, client_id, status, amount, created_at, external_code, end_to_end, pix_key, doc)
					VALUES ('wd-upg', 'sandbox-client', 'COMPLETED', 1000, 1773500000000, 'WD-UPG', 'E123', 'maria@example.com', '{}')`,
				`INSERT INTO idempotency (client_id, key, body_hash, status_code, response, created_at)
					VALUES ('sandbox-client', 'idem-upg', 'h', 201, X'7B7D', 1773500000000)`,
				`INSERT INTO webhook_deliveries (message_id, client_id, secret, url, forward, type, record_kind, record_id, body,
					status, next_attempt_at, created_at, updated_at) VALUES ('msg-upg', 'sandbox-client', 'whsec_x',
					'https://loja.example/hooks', 0, 'deposit.paid', 'deposit', 'dep-upg', X'7B7D', 'delivered', 0, 1, 1)`,
			} {
				if _, err := db.Exec(q); err != nil {
					t.Fatalf("%.50s: %v", q, err)
				}
			}
		},
		Check: func(t *testing.T, _ *sql.DB, _ string) {
			w, r, err := openDB(context.Background(), dir, defaultBusyTimeout)
			if err != nil {
				t.Fatalf("opening a data dir of the release: %v", err)
			}
			defer w.Close()
			defer r.Close()
			var status string
			if err := r.QueryRow(`SELECT status FROM deposits WHERE id = 'dep-upg'`).Scan(&status); err != nil || status != "PAID" {
				t.Errorf("the deposit after the upgrade: %q, %v", status, err)
			}
		},
	}.Run(t)
}
