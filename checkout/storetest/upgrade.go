package storetest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
)

// The upgrade test: a database built at an earlier migration, holding what a shop of that time
// held, is migrated to the latest and read back through the store. Each table's sample row is
// written with the columns the table had then (a column added later is left out, as it was
// missing), so the same samples serve every step.

// sample is a table's representative row: its columns and values, in order, and the column
// and value that find it again.
type sample struct {
	table    string
	key, val string
	cols     []column
}

type column struct {
	name  string
	value any
}

// sampleMS is the time of the samples, Unix milliseconds.
const sampleMS = int64(1_773_500_000_000) // 2026-03-14

// samples are the rows of a shop: a paid order with a line, its history and an attempt, a
// product, a checkout session, an API key, the merchant's settings, a notification (in the
// table of its time: outbox until migration 10, the shared outbox's after), a dashboard user.
var samples = []sample{
	{"products", "id", "p-upg", []column{{"id", "p-upg"}, {"slug", "livro-upg"}, {"title", "Livro da atualização"},
		{"description", "Capa dura"}, {"unit_price", int64(2990)}, {"physical", true}, {"active", true},
		{"created_at", sampleMS}, {"updated_at", sampleMS}}},
	{"orders", "id", "o-upg", []column{{"id", "o-upg"}, {"number", "PX-UPG00001"}, {"external_code", "PX-UPG00001"},
		{"request_key", "rk-upg"}, {"status", "paid"}, {"amount", int64(2990)}, {"customer_name", "Maria Atualizada"},
		{"customer_document", "52998224725"}, {"customer_email", "maria.upg@example.com"}, {"customer_phone", "11987654321"},
		{"has_address", false}, {"physical", true}, {"lang", "pt-BR"}, {"created_at", sampleMS},
		{"updated_at", sampleMS + 60_000}, {"paid_at", sampleMS + 60_000}, {"version", int64(3)},
		{"merchant_reference", "pedido-upg"}, {"session_id", "cs_upg"}, {"channel", "session"},
		{"carrier", "Correios"}, {"tracking_code", "AA123456789BR"}, {"shipped_at", sampleMS + 120_000}}},
	{"orders", "id", "o-upg-link", []column{{"id", "o-upg-link"}, {"number", "PX-LNK00001"}, {"external_code", "PX-LNK00001"},
		{"request_key", "rk-upg-link"}, {"status", "pending"}, {"amount", int64(1500)}, {"customer_name", "João Pagador"},
		{"customer_document", "52998224725"}, {"customer_email", "joao.lnk@example.com"}, {"customer_phone", "11987654322"},
		{"has_address", false}, {"physical", false}, {"lang", "pt-BR"}, {"created_at", sampleMS},
		{"updated_at", sampleMS}, {"paid_at", int64(0)}, {"version", int64(1)}, {"link_id", "l-upg"}, {"channel", "link"}}},
	{"order_lines", "order_id", "o-upg", []column{{"order_id", "o-upg"}, {"position", int64(0)}, {"product_id", "p-upg"},
		{"title", "Livro da atualização"}, {"unit_price", int64(2990)}, {"quantity", int64(1)}, {"physical", true}}},
	{"order_history", "order_id", "o-upg", []column{{"order_id", "o-upg"}, {"position", int64(0)}, {"from_status", ""},
		{"to_status", "pending"}, {"at", sampleMS}, {"reason", "placed"}}},
	{"attempts", "id", "a-upg", []column{{"id", "a-upg"}, {"order_id", "o-upg"}, {"n", int64(1)},
		{"idempotency_key", "idem-upg"}, {"state", "paid"}, {"transaction_id", "tx-upg"}, {"br_code", "000201upg"},
		{"expires_at", sampleMS + 1_800_000}, {"deposit_status", "PAID"}, {"created_at", sampleMS}, {"updated_at", sampleMS + 60_000}}},
	{"checkout_sessions", "id", "cs_upg", []column{{"id", "cs_upg"}, {"request_hash", "hash-upg"},
		{"external_code", "pedido-upg"}, {"amount", int64(2990)},
		{"lines", `[{"productId":"p-upg","title":"Livro da atualização","unitPrice":2990,"quantity":1}]`},
		{"expires_at", sampleMS + 86_400_000}, {"created_at", sampleMS}}},
	{"api_keys", "id", "key-upg", []column{{"id", "key-upg"}, {"name", "erp"}, {"hint", "pk_…upg"},
		{"hash", []byte("0123456789abcdef0123456789abcdef")}, {"created_at", sampleMS}}},
	{"merchant_settings", "webhook_url", "https://erp.loja.example/pix", []column{{"id", int64(1)},
		{"webhook_url", "https://erp.loja.example/pix"}, {"webhook_secret", "whsec_c2VjcmV0"}, {"frame_origins", "[]"},
		{"updated_at", sampleMS}, {"notify_personal_data", true}}},
	{"outbox", "id", "msg_upg", []column{{"id", "msg_upg"}, {"order_id", "o-upg"}, {"type", "order.paid"},
		{"payload", `{"type":"order.paid"}`}, {"created_at", sampleMS}, {"next_attempt_at", sampleMS}}},
	{"webhook_deliveries", "message_id", "msg_upg", []column{{"message_id", "msg_upg"}, {"client_id", ""}, {"secret", ""},
		{"url", ""}, {"forward", false}, {"type", "order.paid"}, {"record_kind", "order"}, {"record_id", "o-upg"},
		{"body", []byte(`{"type":"order.paid"}`)}, {"status", "pending"}, {"next_attempt_at", sampleMS},
		{"created_at", sampleMS}, {"updated_at", sampleMS}}},
	{"dashboard_users", "email", "dona.upg@example.com", []column{{"id", "u-upg"}, {"email", "dona.upg@example.com"},
		{"password_hash", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"}, {"role", "owner"}, {"created_at", sampleMS}, {"updated_at", sampleMS}}},
}

// MigrationsUpTo returns the plan (for component, as the store's own plan names it) of the
// migrations of fsys numbered up to n, and the numbers of all of them, in order.
func MigrationsUpTo(t testing.TB, fsys fs.FS, component string, n int) (sqlmigrate.Plan, []int) {
	t.Helper()
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	part := fstest.MapFS{}
	var all []int
	for _, name := range names {
		v, err := strconv.Atoi(strings.SplitN(path.Base(name), "_", 2)[0])
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, v)
		if v <= n {
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				t.Fatal(err)
			}
			part[name] = &fstest.MapFile{Data: b}
		}
	}
	return sqlmigrate.Plan{Component: component, FS: part, Unnamed: true}, all
}

// columnsOf returns the columns of table in db, or nil when there is no such table.
func columnsOf(ctx context.Context, db *sql.DB, table string) []string {
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+table+" WHERE 1 = 0")
	if err != nil {
		return nil
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	return cols
}

// InsertSamples writes the samples into db, a checkout database at any migration, each into
// its table if the table exists then, with the columns it has; it returns the tables written.
func InsertSamples(t testing.TB, db *sql.DB) []string {
	t.Helper()
	ctx := context.Background()
	var written []string
	for _, s := range samples {
		have := map[string]bool{}
		for _, c := range columnsOf(ctx, db, s.table) {
			have[c] = true
		}
		if len(have) == 0 {
			continue
		}
		var names, params []string
		var args []any
		for _, c := range s.cols {
			if have[c.name] {
				args = append(args, c.value)
				names = append(names, c.name)
				params = append(params, "$"+strconv.Itoa(len(args)))
			}
		}
		q := "INSERT INTO " + s.table + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(params, ", ") + ")"
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		written = append(written, s.table)
	}
	return written
}

// CheckSamples reads back, in s (the store on db, migrated to the latest), the samples written
// into the tables written (InsertSamples): every row is still there (the outbox's notification
// moved to the shared outbox's table), and the store reads the order whole, finds it by its
// customer's e-mail and a piece of its number (the search indexes were filled with the rows
// already there), reads the product and the merchant's settings (whose notifications keep the
// shopper's personal data: an existing install keeps what it had).
func CheckSamples(t testing.TB, s checkout.Store, db *sql.DB, written []string) {
	t.Helper()
	ctx := context.Background()
	had := map[string]bool{}
	for _, w := range written {
		had[w] = true
	}
	for _, smp := range samples {
		table := smp.table
		if !had[table] {
			continue
		}
		if table == "outbox" {
			table = "webhook_deliveries" // migration 10 moved the notifications there
			smp.key = "message_id"
		}
		var n int
		if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table+" WHERE "+smp.key+" = $1", smp.val).Scan(&n); err != nil || n != 1 {
			t.Errorf("the %s sample after the upgrade: %d rows in %s, %v", smp.table, n, table, err)
		}
	}
	o, err := s.Order(ctx, "o-upg")
	if err != nil {
		t.Fatalf("the order after the upgrade: %v", err)
	}
	if o.Status != checkout.StatusPaid || o.Amount != 2990 || o.Customer.Email != "maria.upg@example.com" || o.Version != 3 ||
		len(o.Lines) != 1 || o.Lines[0].Title != "Livro da atualização" || len(o.History) != 1 || len(o.Attempts) != 1 ||
		o.Attempts[0].TransactionID != "tx-upg" || o.PaidAt.UnixMilli() != sampleMS+60_000 {
		t.Errorf("the order after the upgrade: %+v", o)
	}
	// The channel is what the order recorded when it was written: its session, its link, else
	// the shop (a sample written before sessions or links had neither).
	for _, id := range []string{"o-upg", "o-upg-link"} {
		var sessionID, linkID string
		if err := db.QueryRowContext(ctx, "SELECT session_id, link_id FROM orders WHERE id = $1", id).Scan(&sessionID, &linkID); err != nil {
			t.Fatal(err)
		}
		want := checkout.ChannelShop
		switch {
		case sessionID != "":
			want = checkout.ChannelSession
		case linkID != "":
			want = checkout.ChannelLink
		}
		if o, err := s.Order(ctx, id); err != nil || o.Channel != want {
			t.Errorf("order %s (session %q, link %q) after the upgrade: channel %q, %v; want %q", id, sessionID, linkID, o.Channel, err, want)
		}
	}
	for _, term := range []string{"Maria.UPG@example.com", "UPG0000", "atualizada"} {
		got, total, err := s.OrderSummaries(ctx, checkout.OrderFilter{Search: term, Limit: 10})
		if err != nil || len(got) != 1 || got[0].ID != "o-upg" || total != 1 {
			t.Errorf("searching %q after the upgrade: %+v (total %d), %v", term, got, total, err)
		}
	}
	if p, err := s.Product(ctx, "p-upg"); err != nil || p.UnitPrice != 2990 || p.Title != "Livro da atualização" {
		t.Errorf("the product after the upgrade: %+v, %v", p, err)
	}
	if ms, ok := s.(interface {
		MerchantSettings(ctx context.Context) (merchant.Settings, error)
	}); ok && had["merchant_settings"] {
		if set, err := ms.MerchantSettings(ctx); err != nil || set.WebhookURL != "https://erp.loja.example/pix" ||
			set.WebhookSecret != "whsec_c2VjcmV0" || set.PreviousSecret != "" || !set.NotifyPersonalData {
			t.Errorf("the merchant's settings after the upgrade: %+v, %v", set, err)
		}
	}
}

// WriteBeforeKeyRights writes, in db at a migration before 65, users and API keys of an install
// from before keys' personal-data right, and a session under its token in clear; CheckKeyRights
// checks them in the store on db once migrated.
func WriteBeforeKeyRights(t testing.TB, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	for i, u := range [][2]string{{"dona@loja.example", "owner"}, {"dev@loja.example", "developer"}} {
		if _, err := db.ExecContext(ctx, `INSERT INTO dashboard_users (id, email, password_hash, created_at, updated_at, role)
			VALUES ($1, $2, 'x', 0, 0, $3)`, fmt.Sprintf("usr_rights_%d", i), u[0], u[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range [][2]string{{"key_pre_roles", ""}, {"key_shell", merchant.ActorCLI}, {"key_owner", "dona@loja.example"},
		{"key_developer", "dev@loja.example"}, {"key_removed", "gone@loja.example"}} {
		h := sha256.Sum256([]byte(k[0]))
		if _, err := db.ExecContext(ctx, `INSERT INTO api_keys (id, name, hint, hash, created_at, created_by) VALUES ($1, $1, 'pxk_…', $2, 0, $3)`,
			k[0], h[:], k[1]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO sessions (token, data, expiry) VALUES ('clear-token-of-before', $1, $2)`,
		[]byte("data"), sessionExpiry(db)); err != nil {
		t.Fatal(err)
	}
}

// sessionExpiry is a far expiry in the sessions table's type on db's dialect.
func sessionExpiry(db *sql.DB) any {
	if strings.Contains(fmt.Sprintf("%T", db.Driver()), "sqlite") {
		return 2500000.0 // a Julian day, in 2132
	}
	return time.Now().Add(time.Hour)
}

// CheckKeyRights: after the upgrade, the keys made before roles existed, on the server's shell
// and by an owner carry the personal-data right; a developer's and a removed user's do not; the
// session kept under its token in clear is gone.
func CheckKeyRights(t testing.TB, s merchant.APIKeyStore, db *sql.DB) {
	t.Helper()
	ctx := context.Background()
	ks, err := s.APIKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"key_pre_roles": true, "key_shell": true, "key_owner": true, "key_developer": false, "key_removed": false}
	for _, k := range ks {
		if w, ok := want[k.ID]; ok && k.PersonalData != w {
			t.Errorf("after the upgrade, %s (made by %q) carries the personal-data right: %v, want %v", k.ID, k.CreatedBy, k.PersonalData, w)
		}
		delete(want, k.ID)
	}
	if len(want) > 0 {
		t.Errorf("keys lost by the upgrade: %v", want)
	}
	var n int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sessions`).Scan(&n); err != nil || n != 0 {
		t.Errorf("sessions kept under tokens in clear after the upgrade: %d, %v", n, err)
	}
}
