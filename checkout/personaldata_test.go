package checkout_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestScrubPersonalData: every customer object keeps only its document, masked; every address
// goes; amounts and everything else stay exactly as written.
func TestScrubPersonalData(t *testing.T) {
	in := `{"amount":10000000,"price":12.50,"idempotencyKey":"k-1",` +
		`"customer":{"name":"Maria","document":"52998224725","email":"m@example.com","mobilePhone":"11987654321","ip":"203.0.113.7"},` +
		`"address":{"street":"Avenida Paulista"},"data":{"customer":{"name":"Maria","address":{"city":"São Paulo"}},` +
		`"items":[{"title":"E-book","customer":{"document":"12.345.678/0001-95"}}],` +
		`"payer":{"type":"PF","name":"Maria","document":"52998224725","pix":{"key":"m@example.com"}}}}`
	out, err := checkout.ScrubPersonalData([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"Maria", "52998224725", "m@example", "98765", "203.0.113.7", "Paulista", "São Paulo", "address"} {
		if strings.Contains(string(out), gone) {
			t.Errorf("%q is still in %s", gone, out)
		}
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	for _, kept := range []string{`"amount":10000000`, `"price":12.50`, `"idempotencyKey":"k-1"`, `"customer":{"document":"***.982.247-**"}`,
		`"title":"E-book"`, `"customer":{"document":"12.345.***/****-95"}`, `"payer":{"document":"***.982.247-**"}`, `"data":{"customer":{}`} {
		if !strings.Contains(string(out), kept) {
			t.Errorf("%s lost %s", out, kept)
		}
	}
	if _, err := checkout.ScrubPersonalData([]byte(`{"customer":`)); err == nil {
		t.Error("a body that is not JSON was scrubbed without an error")
	}
}

// TestParseSubject: a CPF or CNPJ masked or not, or an e-mail; anything else is an error on
// the subject's field; the masked form never shows the whole document or e-mail.
func TestParseSubject(t *testing.T) {
	for typed, want := range map[string]checkout.Subject{
		" 529.982.247-25 ":     {Document: "52998224725"},
		"12.ABC.345/01DE-35":   {Document: "12ABC34501DE35"},
		"Maria@Example.com.br": {Email: "maria@example.com.br"},
	} {
		got, err := checkout.ParseSubject(typed)
		if err != nil || got != want {
			t.Errorf("ParseSubject(%q) = %+v, %v; want %+v", typed, got, err, want)
		}
	}
	if s, _ := checkout.ParseSubject("52998224725"); s.Masked() != "***.982.247-**" {
		t.Errorf("masked %q", s.Masked())
	}
	if s, _ := checkout.ParseSubject("maria@example.com.br"); s.Masked() != "m***@example.com.br" {
		t.Errorf("masked %q", s.Masked())
	}
	for _, bad := range []string{"", "123.456.789-00", "maria@", "Maria da Silva"} {
		_, err := checkout.ParseSubject(bad)
		var fe *checkout.ValidationError
		if !errors.As(err, &fe) || !fe.Has(checkout.FieldSubject) {
			t.Errorf("ParseSubject(%q) = %v, want an error on %s", bad, err, checkout.FieldSubject)
		}
	}
}
