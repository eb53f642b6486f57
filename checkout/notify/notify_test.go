package notify_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sqlmigrate"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"

	_ "modernc.org/sqlite"
)

// notifyEnv is the notifications' path as the app wires it, on a new SQLite database: the
// Announcer's messages stored as the order's store stores them, the outbox made with
// NotificationOptions, and the delivery log.
type notifyEnv struct {
	db  *sql.DB
	ob  *outbox.Outbox
	log *notify.DeliveryLog
	ann *notify.Announcer
}

func newNotifyEnv(t *testing.T, sm *settings.Manager, clock func() time.Time, mod func(*outbox.Options)) *notifyEnv {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "notify.db")+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // the stores' one writer
	t.Cleanup(func() { db.Close() })
	if err := sqlmigrate.Apply(context.Background(), db, "", outbox.Plan(outbox.SQLite)); err != nil {
		t.Fatal(err)
	}
	o := notify.NotificationOptions(sm, nil, nil)
	o.DB, o.Clock = db, clock
	if mod != nil {
		mod(&o)
	}
	ob, err := outbox.New(o)
	if err != nil {
		t.Fatal(err)
	}
	sessions := sessionsOf{byID: map[string]*checkout.CheckoutSession{"sess1": {ID: "sess1", Metadata: map[string]string{"cliente": "42"}}}}
	return &notifyEnv{db: db, ob: ob, log: notify.NewDeliveryLog(ob), ann: &notify.Announcer{Order: orderData, Sessions: sessions, Clock: clock}}
}

// announce stores the notification of o having moved from `from` to its status, as the
// order's store does with the change, and returns its id.
func (e *notifyEnv) announce(t *testing.T, o *checkout.Order, from checkout.OrderStatus) string {
	t.Helper()
	ms, err := e.ann.Announce(context.Background(), o, []checkout.StatusChange{{From: from, To: o.Status, At: o.UpdatedAt}})
	if err != nil || len(ms) != 1 {
		t.Fatalf("Announce = %v, %v", ms, err)
	}
	ins := notify.InsertNotification(ms[0])
	if _, err := e.db.Exec(ins.SQL, ins.Args...); err != nil {
		t.Fatal(err)
	}
	return ms[0].ID
}

func (e *notifyEnv) get(t *testing.T, id string) notify.Notification {
	t.Helper()
	n, _, err := e.log.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return *n
}

// receiver is a merchant's endpoint that fails its first `failures` requests.
type receiver struct {
	mu       sync.Mutex
	failures int
	got      []*http.Request
	bodies   [][]byte
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.got = append(rc.got, r)
	rc.bodies = append(rc.bodies, b)
	if len(rc.got) <= rc.failures {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func paidOrder(now time.Time) *checkout.Order {
	return &checkout.Order{ID: "ord1", Number: "PX-TEST0001", Status: checkout.StatusPaid, Amount: 2990,
		Lines:    []checkout.OrderLine{{ProductID: "p", Title: "Livro", UnitPrice: 2990, Quantity: 1}},
		Customer: checkout.Customer{Name: "Maria"}, CreatedAt: now, UpdatedAt: now, PaidAt: now,
		SessionID: "sess1", MerchantReference: "pedido-0001"}
}

func TestNotificationRetriedUntilDelivered(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	var clockMu sync.Mutex
	clock := func() time.Time { clockMu.Lock(); defer clockMu.Unlock(); return now }
	advance := func(d time.Duration) { clockMu.Lock(); now = now.Add(d); clockMu.Unlock() }

	rc := &receiver{failures: 2}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	const secret = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ="
	sm := settings.NewManager(&memSettings{}, settings.Config{WebhookURL: srv.URL + "/hooks?token=abc", WebhookSecret: secret}, clock)
	e := newNotifyEnv(t, sm, clock, nil)
	n := e.announce(t, paidOrder(now), checkout.StatusAwaitingPayment)
	// A later notification of the same order waits for the first.
	later := paidOrder(now)
	later.Status = checkout.StatusRefunded
	n2 := e.announce(t, later, checkout.StatusPaid)

	if made, err := e.ob.DeliverDue(ctx); err != nil || made != 1 {
		t.Fatalf("first pass: %d attempts, %v", made, err)
	}
	first := e.get(t, n)
	if first.Status != notify.NotificationPending || first.Attempts != 1 || !strings.Contains(first.LastError, "503") {
		t.Fatalf("after a 503: %+v", first)
	}
	wait := first.NextAttemptAt.Sub(now)
	if wait <= 4500*time.Millisecond || wait > 5*time.Second {
		t.Errorf("first retry in %s, want 5 s less at most a tenth", wait)
	}
	if made, _ := e.ob.DeliverDue(ctx); made != 0 {
		t.Errorf("a pass before the retry is due made %d attempts", made)
	}
	advance(wait)
	e.ob.DeliverDue(ctx)
	if second := e.get(t, n); second.Attempts != 2 || second.Status != notify.NotificationPending {
		t.Fatalf("second attempt: %+v", second)
	} else {
		advance(second.NextAttemptAt.Sub(now))
	}
	e.ob.DeliverDue(ctx)
	if got := e.get(t, n); got.Status != notify.NotificationDelivered || got.Attempts != 3 {
		t.Fatalf("third attempt: %+v", got)
	}
	// Then the next one of the order, in order.
	e.ob.DeliverDue(ctx)
	if got := e.get(t, n2); got.Status != notify.NotificationDelivered {
		t.Fatalf("the order's second notification: %+v", got)
	}

	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.got) != 4 {
		t.Fatalf("the receiver got %d requests, want 4", len(rc.got))
	}
	var types []string
	for i, r := range rc.got {
		// Verified as the receiver would at the moment it got it.
		sent, _ := strconv.ParseInt(r.Header.Get(webhook.HeaderTimestamp), 10, 64)
		v := webhook.Verifier{Secret: secret, Now: func() time.Time { return time.Unix(sent, 0) }}
		if err := v.Verify(r.Header, rc.bodies[i]); err != nil {
			t.Errorf("request %d does not verify with the secret: %v", i+1, err)
		}
		if i < 3 && r.Header.Get(webhook.HeaderID) != n {
			t.Errorf("request %d: webhook-id %q, want the same on every attempt %q", i+1, r.Header.Get(webhook.HeaderID), n)
		}
		if ua := r.Header.Get("User-Agent"); ua != notify.UserAgent {
			t.Errorf("request %d: User-Agent %q", i+1, ua)
		}
		var ev struct {
			Type string
			Data map[string]any
		}
		if err := json.Unmarshal(rc.bodies[i], &ev); err != nil {
			t.Fatal(err)
		}
		types = append(types, ev.Type)
		if ev.Data["id"] != "ord1" || ev.Data["externalCode"] != "pedido-0001" || ev.Data["metadata"].(map[string]any)["cliente"] != "42" {
			t.Errorf("data is not the order made by the Announcer's Order: %v", ev.Data)
		}
	}
	if strings.Join(types, ",") != "order.paid,order.paid,order.paid,order.refunded" {
		t.Errorf("types in order: %v", types)
	}
	_, atts, err := e.log.Get(ctx, n)
	if err != nil || len(atts) != 3 || atts[2].StatusCode != 204 || strings.Contains(atts[0].URL, "token") || atts[0].URL != srv.URL+"/hooks" {
		t.Errorf("delivery log: %+v, %v", atts, err)
	}
}

func TestNotificationGivenUpAfterTheSchedule(t *testing.T) {
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	start := now
	rc := &receiver{failures: 1000}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	sm := settings.NewManager(&memSettings{}, settings.Config{WebhookURL: srv.URL, WebhookSecret: "whsec_c2VjcmV0"}, nil)
	e := newNotifyEnv(t, sm, func() time.Time { return now }, nil)
	n := e.announce(t, paidOrder(now), checkout.StatusAwaitingPayment)
	for i := 0; i < 20 && e.get(t, n).Status == notify.NotificationPending; i++ {
		e.ob.DeliverDue(context.Background())
		now = e.get(t, n).NextAttemptAt
	}
	got := e.get(t, n)
	if got.Status != notify.NotificationDead || got.Attempts != len(notify.RetrySchedule())+1 {
		t.Fatalf("%+v", got)
	}
	if span := now.Sub(start); span < 24*time.Hour {
		t.Errorf("retries spanned %s, want more than a day", span)
	}
}

func TestNotificationToAMerchantURLPassesTheSSRFGuard(t *testing.T) {
	ctx := context.Background()
	rc := &receiver{}
	srv := httptest.NewServer(rc) // on loopback: what a merchant's host name resolving to 127.0.0.1 would reach
	defer srv.Close()
	store := &memSettings{s: settings.Settings{WebhookURL: srv.URL + "/hook", WebhookSecret: "whsec_c2VjcmV0"}}
	e := newNotifyEnv(t, settings.NewManager(store, settings.Config{}, nil), nil, nil)
	n := e.announce(t, paidOrder(time.Now()), checkout.StatusAwaitingPayment)
	e.ob.DeliverDue(ctx)
	got := e.get(t, n)
	if got.Status != notify.NotificationPending || !strings.Contains(got.LastError, webhook.ErrBlockedAddress.Error()) {
		t.Errorf("a merchant's URL reached loopback: %+v", got)
	}
	if len(rc.got) != 0 {
		t.Errorf("the guarded receiver got %d requests", len(rc.got))
	}

	// Without a URL the notification is skipped, not retried forever.
	none := newNotifyEnv(t, settings.NewManager(&memSettings{}, settings.Config{}, nil), nil, nil)
	m := none.announce(t, paidOrder(time.Now()), checkout.StatusAwaitingPayment)
	none.ob.DeliverDue(ctx)
	if got := none.get(t, m); got.Status != notify.NotificationSkipped {
		t.Errorf("without a URL: %+v", got)
	}
}

// TestSkippedNotificationsInOnePass: without a URL, the notifications of one pass are all
// skipped, each with its attempt in the log; with a URL each is sent.
func TestSkippedNotificationsInOnePass(t *testing.T) {
	ctx := context.Background()
	e := newNotifyEnv(t, settings.NewManager(&memSettings{}, settings.Config{}, nil), nil, nil)
	var ids []string
	for i := range 5 {
		o := paidOrder(time.Now())
		o.ID = fmt.Sprintf("ord%d", i) // one order each: a claim takes each order's oldest only
		ids = append(ids, e.announce(t, o, checkout.StatusAwaitingPayment))
	}
	made, err := e.ob.DeliverDue(ctx)
	if err != nil || made != 5 {
		t.Fatalf("DeliverDue = %d, %v; want 5", made, err)
	}
	for _, id := range ids {
		got, as, err := e.log.Get(ctx, id)
		if err != nil || got.Status != notify.NotificationSkipped || got.LastError == "" || len(as) != 1 || as[0].Error == "" {
			t.Errorf("notification %s: %+v, %+v, %v", id, got, as, err)
		}
	}

	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	sent := newNotifyEnv(t, settings.NewManager(&memSettings{s: settings.Settings{WebhookURL: srv.URL + "/hook",
		WebhookSecret: "whsec_c2VjcmV0"}}, settings.Config{}, nil), nil, func(o *outbox.Options) { o.HTTPClient = srv.Client() })
	n := sent.announce(t, paidOrder(time.Now()), checkout.StatusAwaitingPayment)
	if made, err := sent.ob.DeliverDue(ctx); err != nil || made != 1 {
		t.Fatalf("DeliverDue with a URL = %d, %v", made, err)
	}
	if got := sent.get(t, n); got.Status != notify.NotificationDelivered || len(rc.got) != 1 {
		t.Errorf("with a URL: %+v, %d requests", got, len(rc.got))
	}
}

// TestSecretRotationOverlap: after a rotation, notifications carry a signature by the new
// secret and one by the old, so the merchant's server accepts them with either; once the
// overlap is over only the new secret signs. A rotation of a settings without a secret has no
// overlap.
func TestSecretRotationOverlap(t *testing.T) {
	ctx := context.Background()
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	oldSecret, _ := webhook.NewSecret()
	now := time.Now()
	store := &memSettings{s: settings.Settings{WebhookURL: srv.URL + "/hook", WebhookSecret: oldSecret}}
	sm := settings.NewManager(store, settings.Config{}, func() time.Time { return now })
	e := newNotifyEnv(t, sm, nil, func(o *outbox.Options) { o.HTTPClient = srv.Client() })
	eff, err := sm.RotateSecret(ctx)
	if err != nil {
		t.Fatal(err)
	}
	newSecret := eff.WebhookSecret
	if newSecret == oldSecret || !eff.Overlap || !eff.PreviousUntil.Equal(now.UTC().Add(settings.RotationOverlap)) {
		t.Fatalf("after the rotation: %+v", eff)
	}
	deliver := func(id string) (*http.Request, []byte) {
		t.Helper()
		o := paidOrder(time.Now())
		o.ID = id
		e.announce(t, o, checkout.StatusAwaitingPayment)
		if made, err := e.ob.DeliverDue(ctx); err != nil || made != 1 {
			t.Fatalf("DeliverDue = %d, %v", made, err)
		}
		rc.mu.Lock()
		defer rc.mu.Unlock()
		return rc.got[len(rc.got)-1], rc.bodies[len(rc.bodies)-1]
	}
	req, body := deliver("ord1")
	if sigs := strings.Fields(req.Header.Get(webhook.HeaderSignature)); len(sigs) != 2 {
		t.Errorf("during the overlap: %d signatures, want 2", len(sigs))
	}
	for name, secret := range map[string]string{"old": oldSecret, "new": newSecret} {
		if err := (webhook.Verifier{Secret: secret}).Verify(req.Header, body); err != nil {
			t.Errorf("during the overlap, a server on the %s secret refuses: %v", name, err)
		}
	}
	now = now.Add(settings.RotationOverlap + time.Second)
	req, body = deliver("ord2")
	if err := (webhook.Verifier{Secret: newSecret}).Verify(req.Header, body); err != nil {
		t.Errorf("after the overlap, the new secret: %v", err)
	}
	if err := (webhook.Verifier{Secret: oldSecret}).Verify(req.Header, body); !errors.Is(err, webhook.ErrSignature) {
		t.Errorf("after the overlap, the old secret still signs: %v", err)
	}

	fresh := settings.NewManager(&memSettings{}, settings.Config{}, nil)
	if eff, err := fresh.RotateSecret(ctx); err != nil || eff.Overlap || eff.Signing != eff.WebhookSecret {
		t.Errorf("a first secret: %+v, %v", eff, err)
	}
}

// memSettings is a settings.Store in memory.
type memSettings struct{ s settings.Settings }

func (m *memSettings) MerchantSettings(context.Context) (settings.Settings, error) { return m.s, nil }
func (m *memSettings) SaveMerchantSettings(_ context.Context, s settings.Settings) error {
	m.s = s
	return nil
}
