package checkout

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

func TestWebhookURL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://loja.example.com.br":    "https://loja.example.com.br/webhooks/gateway",
		"https://loja.example.com/":      "https://loja.example.com/webhooks/gateway",
		"https://example.com/checkout":   "https://example.com/checkout/webhooks/gateway",
		"http://loja.example.com":        "", // https mandatory
		"http://localhost:8080":          "",
		"https://localhost:8443":         "", // no TLD
		"https://loja.example.com/#frag": "",
		"":                               "",
	} {
		if got := WebhookURL(in); got != want {
			t.Errorf("WebhookURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormField(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{
		"customer.name": FieldName, "customer.document": FieldDocument, "customer.email": FieldEmail,
		"customer.mobilePhone": FieldPhone, "address": FieldAddress, "address.zipCode": FieldZipCode,
		"address.number": FieldNumber, "address.state": FieldState, "amount": FieldCart,
		"items[3].unitPrice": FieldCart, "idempotencyKey": FieldRequestKey, "webhookUrl": FieldForm, "": FieldForm,
	} {
		if got := FormField(path); got != want {
			t.Errorf("FormField(%q) = %q, want %q", path, got, want)
		}
	}
	fe := fieldErrors([]gatewayclient.Violation{{Field: "customer.document", Code: "document", Message: "must be a valid CPF or CNPJ"},
		{Field: "webhookUrl", Message: "must use https"}})
	if byField := FormViolations(fe); byField[FieldDocument] == nil || byField[FieldForm] == nil || !errors.Is(fe, gatewayclient.ErrValidation) {
		t.Errorf("fieldErrors = %+v", byField)
	}
	if msg := fe.Error(); !strings.Contains(msg, "document: must be a valid CPF or CNPJ") || !strings.Contains(msg, "webhookUrl: must use https") {
		t.Errorf("Error() = %q", msg)
	}
	if fieldErrors(nil) != nil {
		t.Error("fieldErrors(nil) != nil")
	}
}

// The broker delivers an order's versions once each and never an older one after a newer one:
// the writer's event and the feed's of one change come in either order.
func TestBrokerDeliversEachVersionOnceForward(t *testing.T) {
	t.Parallel()
	b := newBroker()
	ch, stop := b.subscribe("a")
	defer stop()
	other, stopOther := b.subscribe("b")
	defer stopOther()
	for _, v := range []int{2, 2, 4, 3, 4, 5} {
		b.publish(OrderEvent{OrderID: "a", Version: v})
	}
	b.publish(OrderEvent{OrderID: "b", Version: 1})
	var got []int
	for len(ch) > 0 {
		got = append(got, (<-ch).Version)
	}
	if !slices.Equal(got, []int{2, 4, 5}) {
		t.Errorf("versions delivered %v, want [2 4 5]", got)
	}
	if len(other) != 1 {
		t.Errorf("order b's subscriber got %d events, want 1 (each order its own versions)", len(other))
	}
}

func TestBrokerDropsForSlowSubscribers(t *testing.T) {
	t.Parallel()
	b := newBroker()
	slow, stopSlow := b.subscribe("o1")
	other, stopOther := b.subscribe("o2")
	defer stopOther()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Far more events than the buffer holds: publish never blocks.
	for v := range 100 {
		b.publish(OrderEvent{OrderID: "o1", Status: StatusPaid, At: at, Version: v + 1})
	}
	if n := len(slow); n != cap(slow) {
		t.Errorf("slow subscriber holds %d events, want its buffer full (%d)", n, cap(slow))
	}
	if len(other) != 0 {
		t.Error("a subscriber of another order got an event")
	}
	stopSlow()
	stopSlow() // idempotent
	b.publish(OrderEvent{OrderID: "o1", Status: StatusPaid, At: at, Version: 101})
	b.mu.Lock()
	_, left := b.subs["o1"]
	b.mu.Unlock()
	if left {
		t.Error("the order's subscriber set was not dropped after the last unsubscribe")
	}
}

func TestNewIDAndNumber(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		if len(id) != 26 || strings.Trim(id, "abcdefghijklmnopqrstuvwxyz234567") != "" || seen[id] {
			t.Fatalf("NewID() = %q (len %d, duplicate %v)", id, len(id), seen[id])
		}
		seen[id] = true
		n := newOrderNumber()
		if len(n) != 11 || !strings.HasPrefix(n, "PX-") || strings.ContainsAny(n[3:], "ILOU") {
			t.Fatalf("order number %q", n)
		}
	}
}

func TestKeyedMutexHonoursContext(t *testing.T) {
	t.Parallel()
	k := newKeyedMutex()
	unlock, err := k.lock(t.Context(), "a")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := k.lock(ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("lock on a held key with a cancelled context: %v", err)
	}
	if u2, err := k.lock(t.Context(), "b"); err != nil {
		t.Errorf("another key blocked: %v", err)
	} else {
		u2()
	}
	unlock()
	if u3, err := k.lock(t.Context(), "a"); err != nil {
		t.Errorf("relock after unlock: %v", err)
	} else {
		u3()
	}
	if len(k.locks) != 0 {
		t.Errorf("%d locks left", len(k.locks))
	}
}
