package checkout_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// FieldCheck is one row of testdata/fieldchecks.json, the table of values the server and the
// page's script (e2e's TestFieldChecksAsTheShopperTypes) must judge alike.
type fieldCheck struct {
	Field string `json:"field"`
	Value string `json:"value"`
	Valid bool   `json:"valid"`
}

func TestCheckFormFieldTable(t *testing.T) {
	raw, err := os.ReadFile("testdata/fieldchecks.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct{ Rows []fieldCheck }
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	if len(table.Rows) < 40 {
		t.Fatalf("only %d rows", len(table.Rows))
	}
	for _, r := range table.Rows {
		code := checkout.CheckFormField(r.Field, r.Value)
		if got := code == ""; got != r.Valid {
			t.Errorf("%s %q: server says valid=%v (code %q), the table says %v", r.Field, r.Value, got, code, r.Valid)
		}
	}
}

// The base order CheckFormField varies one field of is valid: an empty value of a required
// field is refused for that field alone, and an optional one passes empty.
func TestCheckFormFieldBase(t *testing.T) {
	for _, f := range append(checkout.CustomerFields(), checkout.AddressFields()...) {
		code := checkout.CheckFormField(f, "")
		if f == checkout.FieldComplement {
			if code != "" {
				t.Errorf("complement empty: code %q, want none", code)
			}
			continue
		}
		if code != checkout.CodeRequired {
			t.Errorf("%s empty: code %q, want %q", f, code, checkout.CodeRequired)
		}
	}
}
