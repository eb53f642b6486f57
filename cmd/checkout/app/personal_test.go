package app_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// TestNotificationsCarryPersonalDataOnlyWhenEnabled: on a new install the merchant's
// notifications carry the order without the shopper's personal data; once the merchant enables
// it in the settings, they carry name, document, e-mail and phone. A read key of the API reads
// the order's document and phone masked, a write key in full. The whole program's logs (the
// API, the shopper's form, the notifications' deliveries) hold none of that data.
func TestNotificationsCarryPersonalDataOnlyWhenEnabled(t *testing.T) {
	t.Parallel()
	rc := newReceiver(0)
	hooks := httptest.NewServer(rc)
	defer hooks.Close()
	logs := &lockedBuffer{}
	r := start(t, func(c *app.Config) {
		c.LogOutput = logs
		c.ReconcileInterval = 0
		c.MerchantWebhookURL, c.MerchantWebhookSecret = hooks.URL+"/pix", testSecret
		c.NotificationSchedule = []time.Duration{100 * time.Millisecond, time.Hour}
	})
	ctx := context.Background()
	write, _, err := r.app.APIKeys().Create(ctx, "loja", apikeys.ScopeWrite, nil)
	if err != nil {
		t.Fatal(err)
	}
	read, _, err := r.app.APIKeys().Create(ctx, "relatórios", apikeys.ScopeRead, nil)
	if err != nil {
		t.Fatal(err)
	}
	order := func() {
		t.Helper()
		var sess apijson.CheckoutSession
		if st := r.api(write, "POST", "/checkout-sessions", map[string]any{
			"items":       []any{map[string]any{"title": "Curso", "unitPrice": 1990, "type": "DIGITAL"}},
			"embedOrigin": "https://loja.example.com",
		}, &sess); st != http.StatusCreated {
			t.Fatalf("session: %d", st)
		}
		res := r.post("/s/"+sess.ID, url.Values{"name": {"João Souza"}, "document": {"52998224725"},
			"email": {"joao@example.com"}, "phone": {"11987654321"}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("placing the order: %d", res.StatusCode)
		}
	}
	order()
	first := rc.wait(t, 1)[0].order
	if first.Customer != (apijson.Customer{}) {
		t.Errorf("a new install's notification carries the customer: %+v", first.Customer)
	}
	var asRead, asWrite apijson.Order
	r.api(read, "GET", "/orders/"+first.ID, nil, &asRead)
	r.api(write, "GET", "/orders/"+first.ID, nil, &asWrite)
	if asRead.Customer.Document != "***.982.247-**" || asRead.Customer.Phone != "(11) *****-4321" {
		t.Errorf("a read key reads %+v", asRead.Customer)
	}
	if asWrite.Customer.Document != "52998224725" || asWrite.Customer.Phone == "" || asWrite.Customer.Phone == asRead.Customer.Phone {
		t.Errorf("a write key reads %+v", asWrite.Customer)
	}

	if _, err := r.app.MerchantSettings().Update(ctx, settings.Input{NotifyPersonalData: true}); err != nil {
		t.Fatal(err)
	}
	order()
	second := rc.wait(t, 2)[1].order
	if c := second.Customer; c.Name != "João Souza" || c.Document != "52998224725" || c.Email != "joao@example.com" || c.Phone == "" {
		t.Errorf("with personal data enabled the notification carries %+v", c)
	}
	out := logs.String()
	if !strings.Contains(out, "order placed") {
		t.Fatalf("the logs do not hold the flow: %s", out)
	}
	for _, s := range []string{"João", "Souza", "52998224725", "529.982.247-25", "joao@example", "98765", "987654321"} {
		if strings.Contains(out, s) {
			t.Errorf("the logs hold the shopper's %q", s)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for the program's concurrent loggers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
