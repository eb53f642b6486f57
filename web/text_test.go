package web_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestAPIRefusesControlAndBidiCharacters: texts no order can store (NUL, which PostgreSQL
// refuses), other control characters and the direction overrides that disguise text are a 422
// naming each field, never a 201 whose order fails later.
func TestAPIRefusesControlAndBidiCharacters(t *testing.T) {
	e := newEnv(t)
	body := sessionBody()
	body["items"] = []any{
		map[string]any{"title": "Caneca\u0000azul", "unitPrice": 2990, "quantity": 1, "type": "DIGITAL"},
		map[string]any{"title": "Campainha", "description": "Toca \a alto", "unitPrice": 990, "quantity": 1, "type": "DIGITAL"},
	}
	body["externalCode"] = "pedido-\u202e321"
	body["metadata"] = map[string]any{"nota": "linha\u2066um", "ok": "sim"}
	body["customer"] = map[string]any{"name": "Maria \u202eavliS", "email": "maria@example.com", "document": "529.982.247-25",
		"address": map[string]any{"zipCode": "01310-100", "city": "São\u0085Paulo"}}
	res := e.api("POST", "/api/v1/checkout-sessions", body)
	if res.status != http.StatusUnprocessableEntity {
		t.Fatalf("%d %s; want 422", res.status, res.body)
	}
	got := strings.Join(res.fields(), "\n")
	for _, want := range []string{"items[0].title text", "items[1].description text", "externalCode text",
		"metadata.nota text", "customer.name text", "customer.address.city text"} {
		if !strings.Contains("\n"+got+"\n", "\n"+want+"\n") {
			t.Errorf("missing violation %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "metadata.ok") {
		t.Errorf("a clean metadata value was refused:\n%s", got)
	}
	if !strings.Contains(string(res.body), "U+0000") || !strings.Contains(string(res.body), "U+202E") {
		t.Errorf("the messages do not name the characters: %s", res.body)
	}
	// A bad metadata key is reported on metadata.
	res = e.api("POST", "/api/v1/checkout-sessions", map[string]any{"items": []any{map[string]any{"productId": "ebook-receitas-do-cerrado"}},
		"metadata": map[string]any{"chave\u0007": "v"}})
	if res.status != http.StatusUnprocessableEntity || strings.Join(res.fields(), ",") != "metadata text" {
		t.Errorf("a key with BEL: %d %s", res.status, res.body)
	}
}

// TestCustomerFormRefusesControlAndBidiCharacters: the shopper's form shows the rule beside
// the field, and nothing reaches the gateway.
func TestCustomerFormRefusesControlAndBidiCharacters(t *testing.T) {
	for field, value := range map[string]string{"name": "Maria \u202eavliS", "street": "Avenida\u0000Paulista", "city": "São\aPaulo"} {
		e := newEnv(t)
		cart := e.newCart("caneca-de-ceramica", "1")
		_, doc := e.get(cart + "/checkout")
		form := customer(requestKey(t, doc))
		form.Set(field, value)
		res, doc := e.post(cart+"/checkout", form)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("%s %q: status %d, want 422", field, value, res.StatusCode)
		}
		msg := strings.TrimSpace(doc.Find(`[name="` + field + `"]`).Closest(".field").Find(testid("field-error")).Text())
		if !strings.Contains(msg, "caracteres de controle ou as marcas invisíveis de direção") {
			t.Errorf("%s %q: error beside the field %q", field, value, msg)
		}
		if n := doc.Find(testid("field-error")).Length(); n != 1 {
			t.Errorf("%s: %d field errors, want only its own", field, n)
		}
		if e.gw.creates.Load() != 0 {
			t.Errorf("%s: the text reached the gateway", field)
		}
	}
}
