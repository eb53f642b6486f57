package sandbox

import (
	"net/http"
	"strings"
	"testing"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestTransactionSeller: the transaction's seller is validated as the spec says (name:
// international alphanumeric text, document: a valid CPF or CNPJ, both required; each problem
// named by its path) and counts for idempotency: the same key with another seller is refused.
func TestTransactionSeller(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	body := func(key, seller string) string {
		return `{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"` + key + `","pix":{},"seller":` + seller + `}`
	}
	if st, _, b := e.do("POST", "/transaction", tok, body("seller-ok-01", `{"name":"Ñandu Comércio de Café Ltda","document":"11.222.333/0001-81"}`)); st != http.StatusCreated {
		t.Fatalf("a valid seller: %d %s", st, b)
	}
	if st, _, b := e.do("POST", "/transaction", tok, body("seller-cpf-01", `{"name":"Silva & Filhos (Matriz)","document":"52998224725"}`)); st != http.StatusCreated {
		t.Fatalf("a seller with a CPF: %d %s", st, b)
	}
	for name, tc := range map[string]struct {
		seller string
		kind   gc.UnprocessableKind
		want   []string // the fields named, in order
	}{
		"markup in the name": {`{"name":"Loja <b>","document":"11.222.333/0001-81"}`, gc.KindValidation, []string{"seller.name"}},
		"wrong check digits": {`{"name":"Loja","document":"11.222.333/0001-80"}`, gc.KindValidation, []string{"seller.document"}},
		"empty":              {`{"name":"","document":""}`, gc.KindValidation, []string{"seller.name", "seller.document"}},
		"missing":            {`{}`, gc.KindInvalidData, []string{"seller.name", "seller.document"}},
		"a number as name":   {`{"name":12,"document":"11.222.333/0001-81"}`, gc.KindInvalidData, []string{"seller.name"}},
	} {
		t.Run(name, func(t *testing.T) {
			st, _, b := e.do("POST", "/transaction", tok, body("seller-bad-01", tc.seller))
			if st != http.StatusUnprocessableEntity {
				t.Fatalf("status %d %s", st, b)
			}
			eb := decodeErr(t, b)
			if eb.Error != string(tc.kind) {
				t.Errorf("kind %q, want %q (%s)", eb.Error, tc.kind, b)
			}
			var got []string
			for _, m := range eb.messages(t) {
				got = append(got, strings.SplitN(m, ":", 2)[0])
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("fields %v, want %v (%s)", got, tc.want, b)
			}
		})
	}
	st, _, b := e.do("POST", "/transaction", tok, body("seller-ok-01", `{"name":"Outra Loja Ltda","document":"11.222.333/0001-81"}`))
	if st != http.StatusUnprocessableEntity || !strings.Contains(string(b), "idempotencyKey") {
		t.Errorf("the same key with another seller: %d %s", st, b)
	}
}
