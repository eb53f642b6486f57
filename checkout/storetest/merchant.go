package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// MerchantStores is what a store gives the merchant API, embedding and notifications: the
// checkout's store with its checkout sessions, API keys, the merchant's settings and the
// outbox of notifications (gatewayclient/outbox in the store's database).
type MerchantStores interface {
	checkout.Store
	checkout.CheckoutSessionStore
	apikeys.Store
	settings.Store
	// Outbox returns the outbox of the notifications UpdateOrder writes, with o's options.
	Outbox(o outbox.Options) (*outbox.Outbox, error)
}

// RunMerchant runs the suite of the merchant side's stores. open must return a new, empty
// store for each call and arrange its closing with t.Cleanup.
func RunMerchant(t *testing.T, open func(t *testing.T) MerchantStores) {
	t.Run("Sessions", func(t *testing.T) { testSessions(t, open(t)) })
	t.Run("SessionIdempotencyConcurrent", func(t *testing.T) { testSessionKeyConcurrent(t, open(t)) })
	t.Run("SessionOrders", func(t *testing.T) { testSessionOrders(t, open(t)) })
	t.Run("PruneCheckoutSessions", func(t *testing.T) { testPruneCheckoutSessions(t, open(t)) })
	t.Run("APIKeys", func(t *testing.T) { testAPIKeys(t, open(t)) })
	t.Run("MakerKeys", func(t *testing.T) { testMakerKeys(t, open(t)) })
	t.Run("Settings", func(t *testing.T) { testSettings(t, open(t)) })
	t.Run("OutboxWithTheOrder", func(t *testing.T) { testOutboxAtomic(t, open(t)) })
	t.Run("OutboxDelivery", func(t *testing.T) { testOutboxDelivery(t, open(t)) })
	t.Run("OutboxSkipped", func(t *testing.T) { testOutboxSkipped(t, open(t)) })
	t.Run("OutboxConcurrentClaims", func(t *testing.T) { testOutboxConcurrentClaims(t, open(t)) })
	t.Run("OutboxPrune", func(t *testing.T) { testOutboxPrune(t, open(t)) })
	t.Run("PingInTheLog", func(t *testing.T) { testPingInTheLog(t, open(t)) })
}

func testPingInTheLog(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		_, _ = io.WriteString(w, "pong from the ERP")
	}))
	t.Cleanup(rcv.Close)
	sm := settings.NewManager(s, settings.Config{WebhookURL: rcv.URL + "/hook?token=s3cr3t",
		WebhookSecret: notifySecret}, nil)
	res, err := notify.Ping(ctx, sm, time.Now(), "dev@example.com")
	must(t, err)
	same(t, "the ping's status code", res.StatusCode, http.StatusAccepted)
	ob := notifications(t, s, rcv.URL, newClock(res.At))
	log := notify.NewDeliveryLog(ob)
	must(t, log.RecordPing(ctx, res))
	same(t, "times the outbox sent the recorded ping", deliver(t, ob), 0)
	ns, err := log.List(ctx, notify.NotificationFilter{})
	must(t, err)
	if len(ns) != 1 {
		t.Fatalf("the log: %+v", ns)
	}
	if n := ns[0]; n.ID != res.ID || n.Type != notify.PingType || n.OrderID != "" || n.Status != notify.NotificationDelivered ||
		n.Attempts != 1 || n.LastStatusCode != http.StatusAccepted || n.LastExcerpt != "pong from the ERP" ||
		n.LastDuration != res.Duration {
		t.Errorf("the ping in the log: %+v", n)
	}
	ns, err = log.List(ctx, notify.NotificationFilter{EventsOnly: true})
	must(t, err)
	same(t, "the log of orders only", len(ns), 0)
	_, as, err := log.Get(ctx, res.ID)
	must(t, err)
	if len(as) != 1 || as[0].Excerpt != "pong from the ERP" || as[0].URL != rcv.URL+"/hook" {
		t.Errorf("the ping's attempt: %+v", as)
	}
}

// NewSession returns a valid session with every field set, the idempotency key given.
func NewSession(key string) *checkout.CheckoutSession {
	return &checkout.CheckoutSession{
		ID: checkout.NewID(), IdempotencyKey: key, RequestHash: "hash-" + key, ExternalCode: "pedido-123",
		EmbedOrigin: "https://loja.example.com", SuccessURL: "https://loja.example.com/obrigado?s={CHECKOUT_SESSION_ID}",
		CancelURL: "https://loja.example.com/carrinho",
		Lines: []checkout.OrderLine{
			{ProductID: "ebook", Title: "E-book", UnitPrice: 2990, Quantity: 2},
			{Title: "Camiseta", Description: "Algodão, tamanho M", UnitPrice: 5990, Quantity: 1, Physical: true,
				Image: checkout.ProductImage{Key: "0123456789abcdef01234567", Ext: "jpg", Width: 640, Height: 480}},
		},
		Amount:   2*2990 + 5990 + 1500,
		Shipping: 1500, DeliveryDays: 7,
		Customer:  checkout.Customer{Name: "Maria da Silva", Email: "maria@example.com"},
		Address:   &checkout.Address{ZipCode: "01310-100", City: "São Paulo", State: "SP"},
		Metadata:  map[string]string{"cliente": "42", "canal": "site"},
		APIKeyID:  "key_abc",
		ExpiresAt: base.Add(time.Hour), CreatedAt: base,
	}
}

func testSessions(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	a := NewSession("key-a")
	got, created, err := s.CreateCheckoutSession(ctx, a)
	if err != nil || !created || got.ID != a.ID {
		t.Fatalf("CreateSession = %v, %v, %v", got, created, err)
	}
	same(t, "Session read back", res(s.CheckoutSession(ctx, a.ID)), res(a, nil))
	byKey, err := s.CheckoutSessionByIdempotencyKey(ctx, "key-a")
	must(t, err)
	same(t, "SessionByIdempotencyKey", byKey.ID, a.ID)
	// The same key again: nothing stored, the first session returned.
	again := NewSession("key-a")
	again.ExternalCode = "another"
	got, created, err = s.CreateCheckoutSession(ctx, again)
	if err != nil || created || got.ID != a.ID || got.ExternalCode != a.ExternalCode {
		t.Errorf("CreateSession with a taken key = %+v, %v, %v; want the first session, not created", got, created, err)
	}
	sameErr(t, "the refused session", errOf(s.CheckoutSession(ctx, again.ID)), checkout.ErrNotFound)
	// Without a key, sessions never collide; without address or metadata they read back so.
	for range 2 {
		b := NewSession("")
		b.Address, b.Metadata, b.Customer = nil, nil, checkout.Customer{}
		same(t, "CreateSession without a key created", changedOf(s.CreateCheckoutSession(ctx, b)), res(true, nil))
		same(t, "session without key read back", res(s.CheckoutSession(ctx, b.ID)), res(b, nil))
	}
	for _, id := range []string{"missing", "", "\x00bad\xff"} {
		sameErr(t, fmt.Sprintf("Session(%q)", id), errOf(s.CheckoutSession(ctx, id)), checkout.ErrNotFound)
		sameErr(t, fmt.Sprintf("SessionByIdempotencyKey(%q)", id), errOf(s.CheckoutSessionByIdempotencyKey(ctx, id)), checkout.ErrNotFound)
	}
}

// testSessionKeyConcurrent: concurrent creations with one idempotency key store one session,
// and every caller gets it.
func testSessionKeyConcurrent(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	const n = 16
	var mu sync.Mutex
	ids := map[string]bool{}
	createdCount := together(n, func() bool {
		got, created, err := s.CreateCheckoutSession(ctx, NewSession("key-concurrent"))
		if err != nil {
			t.Errorf("CreateSession: %v", err)
			return false
		}
		mu.Lock()
		ids[got.ID] = true
		mu.Unlock()
		return created
	})
	if createdCount != 1 || len(ids) != 1 {
		t.Errorf("%d concurrent creations with one key: %d created, %d distinct sessions returned; want 1 and 1",
			n, createdCount, len(ids))
	}
}

// testSessionOrders: an order placed from a session keeps its session, reference, deadline and
// the descriptions of ad-hoc lines; the merchant's filters find it.
func testSessionOrders(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	mk := func(session, ref string, created time.Time) *checkout.Order {
		o := NewOrder("session:" + checkout.NewID())
		o.SessionID, o.MerchantReference, o.PayBy = session, ref, created.Add(time.Hour)
		o.Lines[1].Description = "Algodão, tamanho M"
		o.CreatedAt, o.UpdatedAt = created, created
		return mustCreate(t, s, o)
	}
	a := mk("sess-a", "pedido-1", base)
	b := mk("sess-b", "pedido-2", base.Add(time.Minute))
	c := mk("sess-c", "pedido-1", base.Add(2*time.Minute))
	plain := NewOrder("key-" + checkout.NewID())
	plain.CreatedAt = base.Add(3 * time.Minute)
	mustCreate(t, s, plain)

	got := mustRead(t, s, a.ID)
	if got.SessionID != "sess-a" || got.MerchantReference != "pedido-1" || !got.PayBy.Equal(base.Add(time.Hour)) ||
		got.Lines[1].Description != "Algodão, tamanho M" || got.Lines[0].Description != "" {
		t.Errorf("session fields read back: session %q reference %q payBy %v lines %+v",
			got.SessionID, got.MerchantReference, got.PayBy, got.Lines)
	}
	if p := mustRead(t, s, plain.ID); p.SessionID != "" || p.MerchantReference != "" || !p.PayBy.IsZero() {
		t.Errorf("a cart's order read back with session fields: %q %q %v", p.SessionID, p.MerchantReference, p.PayBy)
	}
	list := func(f checkout.OrderFilter) []string {
		t.Helper()
		os, err := s.Orders(ctx, f)
		if err != nil {
			t.Fatalf("Orders(%+v): %v", f, err)
		}
		ids := []string{}
		for _, o := range os {
			ids = append(ids, o.ID)
		}
		return ids
	}
	eq := func(name string, got []string, want ...*checkout.Order) {
		t.Helper()
		w := []string{}
		for _, o := range want {
			w = append(w, o.ID)
		}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %v, want %v", name, got, w)
		}
	}
	eq("by session", list(checkout.OrderFilter{SessionID: "sess-b"}), b)
	eq("by unknown session", list(checkout.OrderFilter{SessionID: "sess-x"}))
	eq("by reference", list(checkout.OrderFilter{MerchantReference: "pedido-1"}), c, a)
	eq("created from", list(checkout.OrderFilter{CreatedFrom: base.Add(time.Minute)}), plain, c, b)
	eq("created before", list(checkout.OrderFilter{CreatedBefore: base.Add(2 * time.Minute)}), b, a)
	eq("created in a range, by reference", list(checkout.OrderFilter{MerchantReference: "pedido-1",
		CreatedFrom: base.Add(time.Second), CreatedBefore: base.Add(time.Hour)}), c)
}

func testAPIKeys(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	key := func(id string, created time.Time) apikeys.Key {
		h := sha256.Sum256([]byte("pxk_" + id))
		return apikeys.Key{ID: id, Name: "chave " + id, Hint: "pxk_" + id + "…", Hash: h[:], CreatedAt: created,
			Scope: apikeys.ScopeWrite, CreatedBy: "ana@loja.example"}
	}
	a, b := key("key_a", base), key("key_b", base.Add(time.Minute))
	a.PersonalData = true
	for _, k := range []apikeys.Key{a, b} {
		must(t, s.CreateAPIKey(ctx, k))
	}
	got, err := s.APIKeyByHash(ctx, a.Hash)
	must(t, err)
	same(t, "APIKeyByHash", *got, a)
	other := sha256.Sum256([]byte("unknown"))
	sameErr(t, "APIKeyByHash(unknown)", errOf(s.APIKeyByHash(ctx, other[:])), checkout.ErrNotFound)
	dup := key("key_c", base)
	dup.Hash = a.Hash
	if err := s.CreateAPIKey(ctx, dup); err == nil {
		t.Error("a second key with the same hash was stored")
	}
	list, err := s.APIKeys(ctx)
	must(t, err)
	if len(list) != 2 || list[0].ID != "key_b" || list[1].ID != "key_a" {
		t.Errorf("APIKeys = %+v; want key_b then key_a", list)
	}
	used := base.Add(time.Hour)
	must(t, s.TouchAPIKey(ctx, "key_a", used, "192.0.2.1"))
	must(t, s.TouchAPIKey(ctx, "key_a", base.Add(time.Minute), "192.0.2.2")) // older: ignored
	revoked := base.Add(2 * time.Hour)
	must(t, s.RevokeAPIKey(ctx, "key_a", revoked))
	must(t, s.RevokeAPIKey(ctx, "key_a", revoked.Add(time.Hour)))
	got, err = s.APIKeyByHash(ctx, a.Hash)
	if err != nil || !got.LastUsedAt.Equal(used) || !got.RevokedAt.Equal(revoked) || got.Active() || got.LastUsedAddress != "192.0.2.1" ||
		got.Scope != apikeys.ScopeWrite || got.CreatedBy != "ana@loja.example" {
		t.Errorf("after touch and two revocations: %+v, %v; want last used %v, revoked %v", got, err, used, revoked)
	}
	sameErr(t, "RevokeAPIKey(unknown)", s.RevokeAPIKey(ctx, "key_missing", revoked), checkout.ErrNotFound)
	if b2, _ := s.APIKeyByHash(ctx, b.Hash); b2 == nil || !b2.Active() {
		t.Errorf("revoking key_a touched key_b: %+v", b2)
	}
}

func testMakerKeys(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	key := func(id, by string, pd bool) apikeys.Key {
		h := sha256.Sum256([]byte("pxk_maker_" + id))
		return apikeys.Key{ID: id, Name: id, Hint: "pxk_…", Hash: h[:], CreatedAt: base, Scope: apikeys.ScopeRead,
			CreatedBy: by, PersonalData: pd}
	}
	for _, k := range []apikeys.Key{key("key_m1", "bia@loja.example", true), key("key_m2", "bia@loja.example", false),
		key("key_m3", "bia@loja.example", true), key("key_o1", "caio@loja.example", true)} {
		must(t, s.CreateAPIKey(ctx, k))
	}
	must(t, s.RevokeAPIKey(ctx, "key_m3", base))
	ids := func(ks []apikeys.Key, err error) string {
		must(t, err)
		var out []string
		for _, k := range ks {
			out = append(out, k.ID)
		}
		slices.Sort(out)
		return strings.Join(out, ",")
	}
	// personalData and active are the keys' rights to personal data and whether they are active.
	keys := func() (personalData, active []bool) {
		for _, id := range []string{"key_m1", "key_m2", "key_m3", "key_o1"} {
			h := sha256.Sum256([]byte("pxk_maker_" + id))
			k, err := s.APIKeyByHash(ctx, h[:])
			must(t, err)
			personalData, active = append(personalData, k.PersonalData), append(active, k.Active())
		}
		return personalData, active
	}
	same(t, "keys SetMakerKeysPersonalData(off) changed", ids(s.SetMakerKeysPersonalData(ctx, "bia@loja.example", false)), "key_m1")
	pd, _ := keys()
	same(t, "keys' personal data after taking one maker's right", pd, []bool{false, false, true, true})
	same(t, "keys SetMakerKeysPersonalData(on) changed", ids(s.SetMakerKeysPersonalData(ctx, "bia@loja.example", true)), "key_m1,key_m2")
	pd, _ = keys()
	same(t, "keys' personal data after giving it back", pd, []bool{true, true, true, true})
	at := base.Add(time.Hour)
	revoked, err := s.RevokeMakerKeys(ctx, "bia@loja.example", at)
	same(t, "keys RevokeMakerKeys revoked", ids(revoked, err), "key_m1,key_m2")
	same(t, "revoked at", revoked[0].RevokedAt.Equal(at), true)
	_, active := keys()
	same(t, "keys active after revoking one maker's", active, []bool{false, false, false, true})
}

func testSettings(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	got, err := s.MerchantSettings(ctx)
	if err != nil || !reflect.DeepEqual(got, settings.Settings{}) {
		t.Fatalf("MerchantSettings before any save = %+v, %v; want the zero Settings", got, err)
	}
	want := settings.Settings{WebhookURL: "https://loja.example.com/hooks", WebhookSecret: "whsec_c2VjcmV0",
		FrameOrigins: []string{"https://loja.example.com", "https://www.example.com"}, UpdatedAt: base,
		Shipping: checkout.Shipping{FlatRate: 1500, FreeAbove: 20000, DeliveryDays: 5}, NotifyPersonalData: true,
		ShopperMail: map[string]bool{settings.ShopperOrderPlaced: true, settings.ShopperShipped: false}}
	must(t, s.SaveMerchantSettings(ctx, want))
	if got, err := s.MerchantSettings(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("MerchantSettings = %+v, %v; want %+v", got, err, want)
	}
	want = settings.Settings{WebhookSecret: "whsec_b3RoZXI=", UpdatedAt: base.Add(time.Hour),
		PreviousSecret: "whsec_c2VjcmV0", PreviousUntil: base.Add(25 * time.Hour)}
	must(t, s.SaveMerchantSettings(ctx, want))
	if got, err := s.MerchantSettings(ctx); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("MerchantSettings after a replacement = %+v, %v; want %+v", got, err, want)
	}
}

// message is an outbox message about o entering status at at.
func message(o *checkout.Order, typ string, at time.Time) checkout.OutboxMessage {
	return checkout.OutboxMessage{ID: "msg_" + checkout.NewID(), OrderID: o.ID, Type: typ,
		Payload: []byte(`{"type":"` + typ + `","data":{"id":"` + o.ID + `"}}`), CreatedAt: at}
}

// notifySecret signs the notifications of these tests.
const notifySecret = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ="

// hooks is a merchant's endpoint: it answers 500 to the notifications whose ids fail says
// (every time), 204 to the others, and keeps the ids it got in order.
type hooks struct {
	*httptest.Server
	mu   sync.Mutex
	got  []string
	fail map[string]bool
}

func newHooks(t *testing.T, fail ...string) *hooks {
	h := &hooks{fail: map[string]bool{}}
	for _, id := range fail {
		h.fail[id] = true
	}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(webhook.HeaderID)
		h.mu.Lock()
		h.got = append(h.got, id)
		fail := h.fail[id]
		h.mu.Unlock()
		if fail {
			http.Error(w, "oops", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hooks) ids() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string{}, h.got...)
}

// testClock is a clock the test moves, to the millisecond.
type testClock struct{ ms atomic.Int64 }

func newClock(t time.Time) *testClock {
	c := &testClock{}
	c.Set(t)
	return c
}

func (c *testClock) Now() time.Time  { return time.UnixMilli(c.ms.Load()).UTC() }
func (c *testClock) Set(t time.Time) { c.ms.Store(t.UnixMilli()) }

// notifications returns the outbox of s's notifications as the app makes it, sending to url
// (the configuration's, trusted: the test's endpoint is on loopback), or nowhere when url is
// "", on clock.
func notifications(t *testing.T, s MerchantStores, url string, clock *testClock) *outbox.Outbox {
	t.Helper()
	cfg := settings.Config{}
	if url != "" {
		cfg = settings.Config{WebhookURL: url, WebhookSecret: notifySecret}
	}
	o := notify.NotificationOptions(settings.NewManager(s, cfg, nil), nil, nil)
	o.Clock = clock.Now
	ob, err := s.Outbox(o)
	must(t, err)
	return ob
}

// deliver makes passes until one makes no attempt, and returns the attempts made.
func deliver(t *testing.T, ob *outbox.Outbox) int {
	t.Helper()
	total := 0
	for {
		n, err := ob.DeliverDue(context.Background())
		must(t, err)
		if n == 0 {
			return total
		}
		total += n
	}
}

func ids(ns []notify.Notification) []string {
	out := []string{}
	for _, n := range ns {
		out = append(out, n.ID)
	}
	return out
}

// testOutboxAtomic: messages are stored exactly when their order's update is: never with a
// refused update (stale version, forbidden transition, unknown order).
func testOutboxAtomic(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	o := mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
	a, stale := mustRead(t, s, o.ID), mustRead(t, s, o.ID)
	at := base.Add(time.Minute)
	move(a, checkout.StatusAwaitingPayment, at)
	m := message(a, "order.awaiting_payment", at)
	must(t, s.UpdateOrder(ctx, a, m))
	move(stale, checkout.StatusFailed, at)
	lost := message(stale, "order.failed", at)
	sameErr(t, "a stale UpdateOrder", s.UpdateOrder(ctx, stale, lost), checkout.ErrConflict)
	cur := mustRead(t, s, o.ID)
	move(cur, checkout.StatusPaid, at)
	must(t, s.UpdateOrder(ctx, cur))
	back := mustRead(t, s, o.ID)
	move(back, checkout.StatusAwaitingPayment, at)
	sameErr(t, "a forbidden transition", s.UpdateOrder(ctx, back, message(back, "order.awaiting_payment", at)), checkout.ErrInvalidTransition)
	missing := NewOrder("key-" + checkout.NewID())
	sameErr(t, "UpdateOrder(missing)", s.UpdateOrder(ctx, missing, message(missing, "order.paid", at)), checkout.ErrNotFound)
	// A message of another order in an order's update is refused, and nothing is stored.
	next := mustRead(t, s, o.ID)
	next.History = append(next.History, checkout.StatusChange{From: next.Status, To: next.Status, At: at, Reason: checkout.Note("note")})
	if err := s.UpdateOrder(ctx, next, message(missing, "order.paid", at)); err == nil {
		t.Error("UpdateOrder stored a message of another order")
	}
	if v := mustRead(t, s, o.ID).Version; v != cur.Version {
		t.Errorf("the refused update was stored: version %d, want %d", v, cur.Version)
	}

	all, err := notifications(t, s, "", newClock(at)).Deliveries(ctx, outbox.Filter{})
	must(t, err)
	if len(all) != 1 || all[0].MessageID != m.ID {
		t.Fatalf("outbox = %+v; want only %s (the committed update's message)", all, m.ID)
	}
	d := all[0]
	if d.RecordID != o.ID || d.RecordKind != "order" || d.Type != m.Type || !bytes.Equal(d.Body, m.Payload) ||
		!d.CreatedAt.Equal(at) || d.Status != notify.NotificationPending || d.Attempts != 0 ||
		!d.NextAttemptAt.Equal(at) || d.URL != "" {
		t.Errorf("stored message %+v; want %+v pending, due at once, to the settings' URL", d, m)
	}
}

// testOutboxSkipped: without a URL the notifications due are skipped, each with its attempt,
// and never tried again.
func testOutboxSkipped(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	t0 := base.Add(time.Minute)
	var want []string
	for range 3 {
		o := mustCreate(t, s, NewOrder("key-"+checkout.NewID()))
		cur := mustRead(t, s, o.ID)
		move(cur, checkout.StatusAwaitingPayment, t0)
		m := message(cur, "order.awaiting_payment", t0)
		must(t, s.UpdateOrder(ctx, cur, m))
		want = append(want, m.ID)
	}
	clock := newClock(t0.Add(time.Second))
	ob := notifications(t, s, "", clock)
	if n := deliver(t, ob); n != 3 {
		t.Fatalf("%d attempts, want 3 (each skipped)", n)
	}
	log := notify.NewDeliveryLog(ob)
	for _, id := range want {
		n, as, err := log.Get(ctx, id)
		if err != nil || n.Status != notify.NotificationSkipped || n.Attempts != 1 || n.LastError == "" {
			t.Errorf("notification %s: %+v, %v", id, n, err)
		}
		if len(as) != 1 || as[0].N != 1 || !as[0].At.Equal(clock.Now()) || as[0].Error == "" {
			t.Errorf("attempts of %s: %+v", id, as)
		}
	}
	// Recorded, they are claimed no more.
	clock.Set(t0.Add(time.Hour))
	if n := deliver(t, ob); n != 0 {
		t.Errorf("%d more attempts after they were skipped", n)
	}
}

// testOutboxDelivery: each order's messages go in order, one at a time, a failed one retried
// on its schedule with the next waiting behind it; the delivery log lists and filters them.
func testOutboxDelivery(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	d := &outboxDelivery{o1: mustCreate(t, s, NewOrder("key-"+checkout.NewID())), o2: mustCreate(t, s, NewOrder("key-"+checkout.NewID()))}
	update := func(o *checkout.Order, to checkout.OrderStatus, at time.Time) checkout.OutboxMessage {
		t.Helper()
		cur := mustRead(t, s, o.ID)
		move(cur, to, at)
		m := message(cur, "order."+string(to), at)
		must(t, s.UpdateOrder(ctx, cur, m))
		return m
	}
	t0 := base.Add(time.Minute)
	d.m1 = update(d.o1, checkout.StatusAwaitingPayment, t0)
	d.m2 = update(d.o1, checkout.StatusPaid, t0) // same millisecond: still after m1
	d.m3 = update(d.o2, checkout.StatusAwaitingPayment, t0.Add(time.Second))
	d.h = newHooks(t, d.m1.ID)
	d.clock = newClock(t0.Add(-time.Second))
	d.ob = notifications(t, s, d.h.URL+"/hooks?token=abc", d.clock)
	d.log = notify.NewDeliveryLog(d.ob)
	d.now = t0.Add(2 * time.Second)
	t.Run("FailedWaits", d.testFailedWaits)
	t.Run("Log", d.testLog)
	t.Run("Recovered", d.testRecovered)
}

// testOutboxConcurrentClaims: outboxes of several instances delivering at once never send one
// notification twice, and between them send every one.
func testOutboxConcurrentClaims(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	const orders = 24
	want := map[string]bool{}
	for range orders {
		o := mustRead(t, s, mustCreate(t, s, NewOrder("key-"+checkout.NewID())).ID)
		move(o, checkout.StatusAwaitingPayment, base)
		m := message(o, "order.awaiting_payment", base)
		must(t, s.UpdateOrder(ctx, o, m))
		want[m.ID] = true
	}
	h := newHooks(t)
	clock := newClock(base.Add(time.Second))
	var instances []*outbox.Outbox
	for range 4 {
		instances = append(instances, notifications(t, s, h.URL, clock))
	}
	var next atomic.Int32
	together(len(instances), func() bool {
		deliver(t, instances[next.Add(1)-1])
		return true
	})
	got := map[string]int{}
	for _, id := range h.ids() {
		got[id]++
	}
	for id, c := range got {
		if c != 1 {
			t.Errorf("notification %s sent %d times", id, c)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d notifications sent, want %d", len(got), len(want))
	}
}

// testOutboxPrune: notifications finished longer than the retention ago go with their
// attempts; younger ones and pending ones stay.
func testOutboxPrune(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	var msgs []checkout.OutboxMessage
	for i := range 5 {
		o := mustRead(t, s, mustCreate(t, s, NewOrder("key-"+checkout.NewID())).ID)
		at := base.Add(time.Duration(i) * time.Hour)
		move(o, checkout.StatusAwaitingPayment, at)
		m := message(o, "order.awaiting_payment", at)
		must(t, s.UpdateOrder(ctx, o, m))
		msgs = append(msgs, m)
	}
	// Each is delivered when it is made, but the third, which stays pending.
	h := newHooks(t, msgs[2].ID)
	clock := newClock(base)
	ob := notifications(t, s, h.URL, clock)
	for i := range msgs {
		clock.Set(base.Add(time.Duration(i) * time.Hour))
		deliver(t, ob)
	}
	first, err := ob.Deliveries(ctx, outbox.Filter{MessageID: msgs[0].ID})
	if err != nil || len(first) != 1 {
		t.Fatalf("the first notification: %+v, %v", first, err)
	}
	// Finished more than the retention ago: the first, second and fourth.
	clock.Set(base.Add(3*time.Hour + time.Minute + notify.DefaultRetention))
	if n, err := ob.Prune(ctx); err != nil || n != 3 {
		t.Fatalf("Prune = %d, %v; want 3 (the pending one stays)", n, err)
	}
	left, err := notify.NewDeliveryLog(ob).List(ctx, notify.NotificationFilter{})
	must(t, err)
	if got, want := ids(left), []string{msgs[4].ID, msgs[2].ID}; !reflect.DeepEqual(got, want) {
		t.Errorf("left after pruning = %v, want %v", got, want)
	}
	if as, err := ob.Attempts(ctx, first[0].ID); err != nil || len(as) != 0 {
		t.Errorf("attempts of a pruned notification = %v, %v; want none", as, err)
	}
	if _, as, err := notify.NewDeliveryLog(ob).Get(ctx, msgs[4].ID); err != nil || len(as) != 1 {
		t.Errorf("attempts of a kept notification = %v, %v; want 1", as, err)
	}
}

// testPruneCheckoutSessions: sessions expired before the cut-off without an order go, soonest expired
// first, in batches of at most the limit; a session with an order, and a later one, stay.
func testPruneCheckoutSessions(t *testing.T, s MerchantStores) {
	ctx := context.Background()
	mk := func(expires time.Time) string {
		t.Helper()
		sess := NewSession("")
		sess.CreatedAt, sess.ExpiresAt = expires.Add(-time.Hour), expires
		must(t, errOf2(s.CreateCheckoutSession(ctx, sess)))
		return sess.ID
	}
	cut := base
	oldest, older, old := mk(cut.Add(-72*time.Hour)), mk(cut.Add(-48*time.Hour)), mk(cut.Add(-time.Millisecond))
	atCut, later := mk(cut), mk(cut.Add(time.Hour))
	paid := mk(cut.Add(-96 * time.Hour))
	o := NewOrder("key-" + checkout.NewID())
	o.SessionID = paid
	mustCreate(t, s, o)

	if _, err := s.PruneCheckoutSessions(ctx, cut, 0); err == nil {
		t.Error("PruneCheckoutSessions with limit 0 succeeded")
	}
	exists := func(id string) bool {
		t.Helper()
		_, err := s.CheckoutSession(ctx, id)
		if err != nil && !errors.Is(err, checkout.ErrNotFound) {
			t.Fatalf("Session(%s): %v", id, err)
		}
		return err == nil
	}
	if n, err := s.PruneCheckoutSessions(ctx, cut, 2); err != nil || n != 2 {
		t.Fatalf("PruneCheckoutSessions(limit 2) = %d, %v; want 2", n, err)
	}
	if exists(oldest) || exists(older) || !exists(old) {
		t.Errorf("the first batch did not take the two soonest expired: %v %v %v", exists(oldest), exists(older), exists(old))
	}
	if n, err := s.PruneCheckoutSessions(ctx, cut, 2); err != nil || n != 1 {
		t.Fatalf("second PruneCheckoutSessions = %d, %v; want 1", n, err)
	}
	if n, err := s.PruneCheckoutSessions(ctx, cut, 2); err != nil || n != 0 {
		t.Errorf("third PruneCheckoutSessions = %d, %v; want 0", n, err)
	}
	for name, id := range map[string]string{"expiring at the cut-off": atCut, "later": later, "with an order": paid} {
		if !exists(id) {
			t.Errorf("the session %s was deleted", name)
		}
	}
}

// outboxDelivery is the state the outbox delivery's steps share: three messages of two orders
// (m1 and m2 of o1, m3 of o2), an endpoint failing m1 at first, and a clock the steps move.
type outboxDelivery struct {
	o1, o2     *checkout.Order
	m1, m2, m3 checkout.OutboxMessage
	h          *hooks
	clock      *testClock
	ob         *outbox.Outbox
	log        *notify.DeliveryLog
	now        time.Time
	first      *notify.Notification
}

// testFailedWaits: nothing goes before it is due; then each order's oldest goes, m1 fails and
// waits for its retry, and m2 waits behind it.
func (d *outboxDelivery) testFailedWaits(t *testing.T) {
	same(t, "attempts before they were due", deliver(t, d.ob), 0)
	d.clock.Set(d.now)
	if n := deliver(t, d.ob); n != 2 {
		t.Fatalf("first passes made %d attempts, want 2 (each order's oldest: m2 waits behind m1)", n)
	}
	if got := d.h.ids(); !sameSet(got, []string{d.m1.ID, d.m3.ID}) {
		t.Fatalf("the endpoint got %v, want %s and %s", got, d.m1.ID, d.m3.ID)
	}
	first, _, err := d.log.Get(context.Background(), d.m1.ID)
	must(t, err)
	d.first = first
	if first.Status != notify.NotificationPending || first.Attempts != 1 || first.LastStatusCode != 500 ||
		!strings.Contains(first.LastError, "HTTP 500: oops") {
		t.Fatalf("m1 after a 500: %+v", first)
	}
	if wait := first.NextAttemptAt.Sub(d.now); wait <= 4500*time.Millisecond || wait > 5*time.Second {
		t.Errorf("m1's retry in %s, want the schedule's 5 s less at most a tenth", wait)
	}
	d.clock.Set(d.now.Add(time.Second))
	same(t, "attempts while m1 waits for its retry (m2 must wait behind it)", deliver(t, d.ob), 0)
}

// testLog: the delivery log lists the messages newest first, by order, status and type, in pages.
func (d *outboxDelivery) testLog(t *testing.T) {
	ctx := context.Background()
	m1, m2, m3 := d.m1.ID, d.m2.ID, d.m3.ID
	for _, c := range []struct {
		name string
		f    notify.NotificationFilter
		want []string
	}{
		{"all, newest first", notify.NotificationFilter{}, []string{m3, m2, m1}},
		{"by order", notify.NotificationFilter{OrderID: d.o1.ID}, []string{m2, m1}},
		{"delivered", notify.NotificationFilter{Status: notify.NotificationDelivered}, []string{m3}},
		{"by type", notify.NotificationFilter{Type: "order.paid"}, []string{m2}},
		{"by order and status", notify.NotificationFilter{OrderID: d.o1.ID, Status: notify.NotificationDelivered}, []string{}},
		{"a page", notify.NotificationFilter{Limit: 1, Offset: 1}, []string{m2}},
		{"unstorable filter", notify.NotificationFilter{OrderID: "\xff"}, []string{}},
	} {
		ns, err := d.log.List(ctx, c.f)
		must(t, err)
		same(t, c.name, ids(ns), c.want)
	}
	for _, id := range []string{"msg_missing", "msg_\x00"} {
		_, _, err := d.log.Get(ctx, id)
		sameErr(t, fmt.Sprintf("Get(%q)", id), err, checkout.ErrNotFound)
	}
}

// testRecovered: the endpoint recovers: m1 goes at its retry, then m2; m1's attempts are kept.
func (d *outboxDelivery) testRecovered(t *testing.T) {
	if d.first == nil {
		t.Skip("m1 did not fail first")
	}
	d.h.mu.Lock()
	d.h.fail = nil
	d.h.mu.Unlock()
	d.clock.Set(d.first.NextAttemptAt)
	if n := deliver(t, d.ob); n != 2 {
		t.Fatalf("after the retry was due: %d attempts, want 2 (m1, then m2)", n)
	}
	same(t, "the endpoint's last two messages (in order)", d.h.ids()[2:], []string{d.m1.ID, d.m2.ID})
	n, attempts, err := d.log.Get(context.Background(), d.m1.ID)
	must(t, err)
	same(t, "m1's status, attempts and last status code", fmt.Sprint(n.Status, n.Attempts, n.LastStatusCode),
		fmt.Sprint(notify.NotificationDelivered, 2, 204))
	if len(attempts) != 2 {
		t.Fatalf("attempts = %+v, want 2", attempts)
	}
	a0, a1 := attempts[0], attempts[1]
	hooksURL := d.h.URL + "/hooks" // without the query, which may hold a token
	if a0.N != 1 || !a0.At.Equal(d.now) || a0.URL != hooksURL || a0.StatusCode != 500 || !strings.Contains(a0.Error, "oops") || a0.Duration <= 0 {
		t.Errorf("the first attempt = %+v", a0)
	}
	if a1.N != 2 || !a1.At.Equal(d.first.NextAttemptAt) || a1.StatusCode != 204 || a1.Error != "" {
		t.Errorf("the second attempt = %+v", a1)
	}
}
