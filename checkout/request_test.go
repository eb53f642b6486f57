package checkout

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestStoredRequest: an attempt with a stored request gets exactly it back whatever the current
// settings; one stored before requests were kept gets it rebuilt from the current settings.
func TestStoredRequest(t *testing.T) {
	t.Parallel()
	o := &Order{ID: "o1", Number: "PX-ABCDEFGH", ExternalCode: "PX-ABCDEFGH", Amount: 2990,
		Customer: Customer{Name: "Maria da Silva", Document: "52998224725", Email: "maria@example.com.br"},
		Lines:    []OrderLine{{ProductID: "ebook", Title: "E-book", UnitPrice: 2990, Quantity: 1}}}
	a := &Attempt{ID: "a1", N: 1, IdempotencyKey: "idem-key-0001"}
	before := NewService(nil, nil, ServiceOptions{PublicURL: "https://loja.example.com.br", ExpirationSeconds: 1800})
	after := NewService(nil, nil, ServiceOptions{PublicURL: "https://nova.example.com.br", ExpirationSeconds: 600})

	want := before.request(t.Context(), o, a)
	b, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	a.Request = b
	got, err := after.storedRequest(t.Context(), o, a)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stored request\n got %+v\nwant %+v", got, want)
	}

	a.Request = nil
	got, err = after.storedRequest(t.Context(), o, a)
	if err != nil {
		t.Fatal(err)
	}
	if rebuilt := after.request(t.Context(), o, a); !reflect.DeepEqual(got, rebuilt) || got.WebhookURL != "https://nova.example.com.br/webhooks/gateway" {
		t.Errorf("attempt without a stored request: got %+v, want it rebuilt from the current settings", got)
	}

	a.Request = []byte("{not json")
	if _, err := after.storedRequest(t.Context(), o, a); err == nil {
		t.Error("a corrupt stored request was accepted")
	}
}
