package storetest

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
)

// The upgrade test's rows (gatewayclient/sqlmigrate/migratetest.Upgrade): written into a
// database of a release with the columns each table had then, they must read back through the
// store once every later migration ran.

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

// samples are the rows of a shop of release 0.1.0: a paid order with two lines, its history, an
// attempt and a refund's end-to-end id, a product, a cart, a payment link, a checkout session,
// an API key, the merchant's and the team's settings, a notification, a gateway webhook's id,
// an audit entry, a dashboard user.
var samples = []sample{
	{"products", "id", "p-upg", []column{{"id", "p-upg"}, {"slug", "livro-upg"}, {"title", "Livro da atualização"},
		{"description", "Capa dura"}, {"unit_price", int64(2990)}, {"physical", true}, {"active", true},
		{"created_at", sampleMS}, {"updated_at", sampleMS}, {"image_key", "img-upg"}, {"image_type", "jpg"},
		{"image_width", int64(640)}, {"image_height", int64(800)}}},
	{"orders", "id", "o-upg", []column{{"id", "o-upg"}, {"number", "PX-UPG00001"}, {"external_code", "PX-UPG00001"},
		{"request_key", "rk-upg"}, {"status", "paid"}, {"amount", int64(2990)}, {"customer_name", "Maria Atualizada"},
		{"customer_document", "52998224725"}, {"customer_email", "maria.upg@example.com"}, {"customer_phone", "11987654321"},
		{"has_address", false}, {"physical", true}, {"lang", "pt-BR"}, {"created_at", sampleMS},
		{"updated_at", sampleMS + 60_000}, {"paid_at", sampleMS + 60_000}, {"version", int64(3)},
		{"merchant_reference", "pedido-upg"}, {"session_id", "cs_upg"},
		{"carrier", "Correios"}, {"tracking_code", "AA123456789BR"}, {"shipped_at", sampleMS + 120_000}}},
	{"orders", "id", "o-upg-link", []column{{"id", "o-upg-link"}, {"number", "PX-LNK00001"}, {"external_code", "PX-LNK00001"},
		{"request_key", "rk-upg-link"}, {"status", "pending"}, {"amount", int64(1500)}, {"customer_name", "João Pagador"},
		{"customer_document", "52998224725"}, {"customer_email", "joao.lnk@example.com"}, {"customer_phone", "11987654322"},
		{"has_address", false}, {"physical", false}, {"lang", "pt-BR"}, {"created_at", sampleMS},
		{"updated_at", sampleMS}, {"paid_at", int64(0)}, {"version", int64(1)}, {"link_id", "l-upg"}}},
	{"order_lines", "order_id", "o-upg", []column{{"order_id", "o-upg"}, {"position", int64(0)}, {"product_id", "p-upg"},
		{"title", "Livro da atualização"}, {"unit_price", int64(2990)}, {"quantity", int64(1)}, {"physical", true}}},
	{"order_lines", "order_id", "o-upg", []column{{"order_id", "o-upg"}, {"position", int64(1)}, {"product_id", ""},
		{"title", "Cartão"}, {"unit_price", int64(500)}, {"quantity", int64(1)}}},
	{"order_history", "order_id", "o-upg", []column{{"order_id", "o-upg"}, {"position", int64(0)}, {"from_status", ""},
		{"to_status", "pending"}, {"at", sampleMS}, {"reason", "placed"}}},
	{"attempts", "id", "a-upg", []column{{"id", "a-upg"}, {"order_id", "o-upg"}, {"n", int64(1)},
		{"idempotency_key", "idem-upg"}, {"state", "paid"}, {"transaction_id", "tx-upg"}, {"br_code", "000201upg"},
		{"expires_at", sampleMS + 1_800_000}, {"deposit_status", "PAID"}, {"created_at", sampleMS}, {"updated_at", sampleMS + 60_000}}},
	{"checkout_sessions", "id", "cs_upg", []column{{"id", "cs_upg"}, {"request_hash", "hash-upg"},
		{"external_code", "pedido-upg"}, {"amount", int64(2990)},
		{"lines", `[{"productId":"p-upg","title":"Livro da atualização","unitPrice":2990,"quantity":1},` +
			`{"title":"Cartão","unitPrice":500,"quantity":1,"imageKey":"img-cartao","imageExt":"png","imageWidth":640,"imageHeight":400}]`},
		{"expires_at", sampleMS + 86_400_000}, {"created_at", sampleMS}}},
	{"api_keys", "id", "key-upg", []column{{"id", "key-upg"}, {"name", "erp"}, {"hint", "pk_…upg"},
		{"hash", []byte("0123456789abcdef0123456789abcdef")}, {"created_at", sampleMS}}},
	{"merchant_settings", "webhook_url", "https://erp.loja.example/pix", []column{{"id", int64(1)},
		{"webhook_url", "https://erp.loja.example/pix"}, {"webhook_secret", "whsec_c2VjcmV0"}, {"frame_origins", "[]"},
		{"updated_at", sampleMS}, {"notify_personal_data", true}}},
	{"webhook_deliveries", "message_id", "msg_upg", []column{{"message_id", "msg_upg"}, {"client_id", ""}, {"secret", ""},
		{"url", ""}, {"forward", false}, {"type", "order.paid"}, {"record_kind", "order"}, {"record_id", "o-upg"},
		{"body", []byte(`{"type":"order.paid"}`)}, {"status", "pending"}, {"next_attempt_at", sampleMS},
		{"created_at", sampleMS}, {"updated_at", sampleMS}}},
	{"carts", "id", "cart-upg", []column{{"id", "cart-upg"}, {"created_at", sampleMS}, {"updated_at", sampleMS}}},
	{"cart_lines", "cart_id", "cart-upg", []column{{"cart_id", "cart-upg"}, {"product_id", "p-upg"}, {"position", int64(0)},
		{"quantity", int64(2)}}},
	{"payment_links", "id", "pl-upg", []column{{"id", "pl-upg"}, {"slug", "curso-upg"}, {"title", "Curso"}, {"kind", "fixed"},
		{"amount", int64(4990)}, {"ask_email", true}, {"created_at", sampleMS}, {"updated_at", sampleMS}}},
	{"order_refunds", "end_to_end", "E00000000202603141200upg", []column{{"end_to_end", "E00000000202603141200upg"},
		{"order_id", "o-upg"}}},
	{"webhook_events", "id", "evt-upg", []column{{"id", "evt-upg"}, {"received_at", sampleMS}}},
	{"audit_log", "action", "settings.save", []column{{"at", sampleMS}, {"actor", "dona.upg@example.com"},
		{"action", "settings.save"}, {"object", "settings"}, {"address", "203.0.113.7"}, {"detail", ""}}},
	{"team_settings", "id", "1", []column{{"id", int64(1)}, {"require_totp", true}}},
	{"dashboard_users", "email", "dona.upg@example.com", []column{{"id", "u-upg"}, {"email", "dona.upg@example.com"},
		{"password_hash", "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA"}, {"role", "owner"}, {"created_at", sampleMS}, {"updated_at", sampleMS}}},
}

// WriteSamples writes the samples into db, a checkout database of release (the same on both
// stores). A later release adds its own samples here, for the tables and columns it adds.
func WriteSamples(t *testing.T, db *sql.DB, release string) {
	t.Helper()
	for _, s := range samples {
		var names, params []string
		var args []any
		for _, c := range s.cols {
			args = append(args, c.value)
			names = append(names, c.name)
			params = append(params, "$"+strconv.Itoa(len(args)))
		}
		q := "INSERT INTO " + s.table + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(params, ", ") + ")"
		if _, err := db.ExecContext(context.Background(), q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// CheckSamples reads the samples back through s, the store opened on the upgraded database:
// the order whole, found by its customer's e-mail and a piece of its number (the search
// indexes hold the rows written before the upgrade), the product and the merchant's settings.
func CheckSamples(t *testing.T, s checkout.Store) {
	t.Helper()
	ctx := context.Background()
	checkSampleOrder(t, s)
	for _, term := range []string{"Maria.UPG@example.com", "UPG0000", "atualizada"} {
		got, total, err := s.OrderSummaries(ctx, checkout.OrderFilter{Search: term, Limit: 10})
		if err != nil || len(got) != 1 || got[0].ID != "o-upg" || total != 1 {
			t.Errorf("searching %q after the upgrade: %+v (total %d), %v", term, got, total, err)
		}
	}
	if p, err := s.Product(ctx, "p-upg"); err != nil || p.UnitPrice != 2990 || p.Title != "Livro da atualização" {
		t.Errorf("the product after the upgrade: %+v, %v", p, err)
	}
	if ms, ok := s.(settings.Store); ok {
		if set, err := ms.MerchantSettings(ctx); err != nil || set.WebhookURL != "https://erp.loja.example/pix" ||
			set.WebhookSecret != "whsec_c2VjcmV0" {
			t.Errorf("the merchant's settings after the upgrade: %+v, %v", set, err)
		}
	}
}

// checkSampleOrder reads the sample order back whole.
func checkSampleOrder(t *testing.T, s checkout.Store) {
	t.Helper()
	o, err := s.Order(context.Background(), "o-upg")
	must(t, err)
	if o.Status != checkout.StatusPaid || o.Amount != 2990 || o.Customer.Email != "maria.upg@example.com" || o.Version != 3 ||
		len(o.Lines) != 2 || o.Lines[0].Title != "Livro da atualização" || len(o.History) != 1 || len(o.Attempts) != 1 ||
		o.Attempts[0].TransactionID != "tx-upg" || o.PaidAt.UnixMilli() != sampleMS+60_000 {
		t.Fatalf("the order after the upgrade: %+v", o)
	}
	// Its lines got the pictures its pages showed: the product's, and the ad-hoc item's from the
	// checkout session's lines (migration 0114).
	same(t, "the product line's picture after the upgrade", o.Lines[0].Image,
		checkout.ProductImage{Key: "img-upg", Ext: "jpg", Width: 640, Height: 800})
	same(t, "the ad-hoc line's picture after the upgrade", o.Lines[1].Image,
		checkout.ProductImage{Key: "img-cartao", Ext: "png", Width: 640, Height: 400})
}
