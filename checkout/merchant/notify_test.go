package merchant_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// memOutbox is a NotificationStore in memory, with the claim rules of the SQL stores: due,
// lease lapsed, and the oldest pending notification of its order only.
type memOutbox struct {
	mu       sync.Mutex
	list     []merchant.Notification
	lease    map[string]time.Time
	attempts []merchant.DeliveryAttempt
}

func (m *memOutbox) add(n merchant.Notification) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.list = append(m.list, n)
}

func (m *memOutbox) ClaimNotifications(_ context.Context, now time.Time, lease time.Duration, limit int) ([]merchant.Notification, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.lease == nil {
		m.lease = map[string]time.Time{}
	}
	var out []merchant.Notification
	first := map[string]bool{}
	for _, n := range m.list {
		if n.Status != merchant.NotificationPending || first[n.OrderID] {
			continue
		}
		first[n.OrderID] = true
		if n.NextAttemptAt.After(now) || m.lease[n.ID].After(now) || len(out) == limit {
			continue
		}
		m.lease[n.ID] = now.Add(lease)
		out = append(out, n)
	}
	return out, nil
}

func (m *memOutbox) RecordAttempt(_ context.Context, n merchant.Notification, a merchant.DeliveryAttempt) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range m.list {
		if m.list[i].ID == n.ID {
			m.list[i] = n
		}
	}
	delete(m.lease, n.ID)
	m.attempts = append(m.attempts, a)
	return nil
}

func (m *memOutbox) Notifications(context.Context, merchant.NotificationFilter) ([]merchant.Notification, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]merchant.Notification(nil), m.list...), nil
}

func (m *memOutbox) NotificationAttempts(_ context.Context, id string) ([]merchant.DeliveryAttempt, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []merchant.DeliveryAttempt
	for _, a := range m.attempts {
		if a.NotificationID == id {
			out = append(out, a)
		}
	}
	return out, nil
}

func (m *memOutbox) Notification(_ context.Context, id string) (*merchant.Notification, error) {
	n := m.get(id)
	if n.ID == "" {
		return nil, checkout.ErrNotFound
	}
	return &n, nil
}

func (m *memOutbox) PruneNotifications(context.Context, time.Time, int) (int, error) { return 0, nil }

func (m *memOutbox) get(id string) merchant.Notification {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, n := range m.list {
		if n.ID == id {
			return n
		}
	}
	return merchant.Notification{}
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
	settings := merchant.NewSettingsManager(&memSettings{}, merchant.SettingsConfig{WebhookURL: srv.URL + "/hooks?token=abc", WebhookSecret: secret}, clock)
	out := &memOutbox{}
	d, err := merchant.NewDeliverer(merchant.DelivererOptions{Store: out, Settings: settings, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	sess := &checkout.Session{ID: "sess1", Metadata: map[string]string{"cliente": "42"}}
	n, err := merchant.NewNotification(paidOrder(now), sess, now)
	if err != nil {
		t.Fatal(err)
	}
	out.add(n)
	// A later notification of the same order waits for the first.
	later := paidOrder(now)
	later.Status = checkout.StatusRefunded
	n2, _ := merchant.NewNotification(later, sess, now)
	out.add(n2)

	if made, err := d.DeliverDue(ctx); err != nil || made != 1 {
		t.Fatalf("first pass: %d attempts, %v", made, err)
	}
	first := out.get(n.ID)
	if first.Status != merchant.NotificationPending || first.Attempts != 1 || !strings.Contains(first.LastError, "503") {
		t.Fatalf("after a 503: %+v", first)
	}
	wait := first.NextAttemptAt.Sub(now)
	if wait < 4500*time.Millisecond || wait > 5500*time.Millisecond {
		t.Errorf("first retry in %s, want 5 s ± 10%%", wait)
	}
	if made, _ := d.DeliverDue(ctx); made != 0 {
		t.Errorf("a pass before the retry is due made %d attempts", made)
	}
	advance(wait)
	d.DeliverDue(ctx)
	if second := out.get(n.ID); second.Attempts != 2 || second.Status != merchant.NotificationPending {
		t.Fatalf("second attempt: %+v", second)
	} else {
		advance(second.NextAttemptAt.Sub(now))
	}
	d.DeliverDue(ctx)
	if got := out.get(n.ID); got.Status != merchant.NotificationDelivered || got.Attempts != 3 {
		t.Fatalf("third attempt: %+v", got)
	}
	// Then the next one of the order, in order.
	d.DeliverDue(ctx)
	if got := out.get(n2.ID); got.Status != merchant.NotificationDelivered {
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
		if i < 3 && r.Header.Get(webhook.HeaderID) != n.ID {
			t.Errorf("request %d: webhook-id %q, want the same on every attempt %q", i+1, r.Header.Get(webhook.HeaderID), n.ID)
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
			t.Errorf("data is not the order as the API shows it: %v", ev.Data)
		}
	}
	if strings.Join(types, ",") != "order.paid,order.paid,order.paid,order.refunded" {
		t.Errorf("types in order: %v", types)
	}
	atts, _ := out.NotificationAttempts(ctx, n.ID)
	if len(atts) != 3 || atts[2].StatusCode != 204 || strings.Contains(atts[0].URL, "token") {
		t.Errorf("delivery log: %+v", atts)
	}
}

func TestNotificationGivenUpAfterTheSchedule(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)
	start := now
	rc := &receiver{failures: 1000}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	settings := merchant.NewSettingsManager(&memSettings{}, merchant.SettingsConfig{WebhookURL: srv.URL, WebhookSecret: "whsec_c2VjcmV0"}, nil)
	out := &memOutbox{}
	d, _ := merchant.NewDeliverer(merchant.DelivererOptions{Store: out, Settings: settings, Clock: func() time.Time { return now }})
	n, _ := merchant.NewNotification(paidOrder(now), nil, now)
	out.add(n)
	for i := 0; i < 20 && out.get(n.ID).Status == merchant.NotificationPending; i++ {
		d.DeliverDue(ctx)
		now = out.get(n.ID).NextAttemptAt
	}
	got := out.get(n.ID)
	if got.Status != merchant.NotificationDead || got.Attempts != len(merchant.RetrySchedule())+1 {
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
	store := &memSettings{s: merchant.Settings{WebhookURL: srv.URL + "/hook", WebhookSecret: "whsec_c2VjcmV0"}}
	out := &memOutbox{}
	d, _ := merchant.NewDeliverer(merchant.DelivererOptions{Store: out, Settings: merchant.NewSettingsManager(store, merchant.SettingsConfig{}, nil)})
	n, _ := merchant.NewNotification(paidOrder(time.Now()), nil, time.Now())
	out.add(n)
	d.DeliverDue(ctx)
	got := out.get(n.ID)
	if got.Status != merchant.NotificationPending || !strings.Contains(got.LastError, webhook.ErrBlockedAddress.Error()) {
		t.Errorf("a merchant's URL reached loopback: %+v", got)
	}
	if len(rc.got) != 0 {
		t.Errorf("the guarded receiver got %d requests", len(rc.got))
	}

	// Without a URL the notification is skipped, not retried forever.
	none := &memOutbox{}
	d2, _ := merchant.NewDeliverer(merchant.DelivererOptions{Store: none, Settings: merchant.NewSettingsManager(&memSettings{}, merchant.SettingsConfig{}, nil)})
	m, _ := merchant.NewNotification(paidOrder(time.Now()), nil, time.Now())
	none.add(m)
	d2.DeliverDue(ctx)
	if got := none.get(m.ID); got.Status != merchant.NotificationSkipped {
		t.Errorf("without a URL: %+v", got)
	}
}

// batchOutbox is a memOutbox that records outcomes in batches too, counting the calls of each.
type batchOutbox struct {
	memOutbox
	single, batches int
}

func (b *batchOutbox) RecordAttempt(ctx context.Context, n merchant.Notification, a merchant.DeliveryAttempt) error {
	b.single++
	return b.memOutbox.RecordAttempt(ctx, n, a)
}

func (b *batchOutbox) RecordAttempts(ctx context.Context, outs []merchant.Outcome) error {
	b.batches++
	for _, o := range outs {
		if err := b.memOutbox.RecordAttempt(ctx, o.Notification, o.Attempt); err != nil {
			return err
		}
	}
	return nil
}

// TestSkippedNotificationsRecordedInOneBatch: without a URL, the notifications of one pass
// are recorded as skipped in one call of a store that can batch them; with a URL each
// attempt is recorded on its own as it ends.
func TestSkippedNotificationsRecordedInOneBatch(t *testing.T) {
	ctx := context.Background()
	out := &batchOutbox{}
	d, err := merchant.NewDeliverer(merchant.DelivererOptions{Store: out, Settings: merchant.NewSettingsManager(&memSettings{}, merchant.SettingsConfig{}, nil)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range 5 {
		n, _ := merchant.NewNotification(paidOrder(time.Now()), nil, time.Now())
		n.OrderID = fmt.Sprintf("ord%d", i) // one order each: a claim takes each order's oldest only
		out.add(n)
		ids = append(ids, n.ID)
	}
	made, err := d.DeliverDue(ctx)
	if err != nil || made != 5 {
		t.Fatalf("DeliverDue = %d, %v; want 5", made, err)
	}
	if out.batches != 1 || out.single != 0 {
		t.Errorf("recorded in %d batches and %d single calls; want 1 batch", out.batches, out.single)
	}
	for _, id := range ids {
		if got := out.get(id); got.Status != merchant.NotificationSkipped || got.LastError == "" {
			t.Errorf("notification %s: %s, %q", id, got.Status, got.LastError)
		}
	}
	if len(out.attempts) != 5 {
		t.Errorf("%d attempts logged, want 5", len(out.attempts))
	}

	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	sent := &batchOutbox{}
	d2, _ := merchant.NewDeliverer(merchant.DelivererOptions{Store: sent, HTTPClient: srv.Client(),
		Settings: merchant.NewSettingsManager(&memSettings{s: merchant.Settings{WebhookURL: srv.URL + "/hook", WebhookSecret: "whsec_c2VjcmV0"}}, merchant.SettingsConfig{}, nil)})
	n, _ := merchant.NewNotification(paidOrder(time.Now()), nil, time.Now())
	sent.add(n)
	if made, err := d2.DeliverDue(ctx); err != nil || made != 1 {
		t.Fatalf("DeliverDue with a URL = %d, %v", made, err)
	}
	if got := sent.get(n.ID); got.Status != merchant.NotificationDelivered || sent.single != 1 || sent.batches != 0 {
		t.Errorf("with a URL: %+v, %d single, %d batches", got, sent.single, sent.batches)
	}
}
