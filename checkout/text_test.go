package checkout_test

import (
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

func TestCheckText(t *testing.T) {
	for _, ok := range []string{"", "São Paulo", "Ação ✓ № 5", "Кафе Москва", "مقهى القاهرة", "👩‍💻 café", "a\u200db", "tab‐less"} {
		if err := checkout.CheckText(ok); err != nil {
			t.Errorf("CheckText(%q) = %v; want accepted", ok, err)
		}
	}
	for bad, says := range map[string]string{
		"Caneca\x00":           "control characters (it holds U+0000)",
		"Caneca\a":             "control characters (it holds U+0007)",
		"linha\nquebrada":      "control characters (it holds U+000A)",
		"com\ttab":             "control characters (it holds U+0009)",
		"del\x7f":              "control characters (it holds U+007F)",
		"c1\u0085":             "control characters (it holds U+0085)",
		"gpj.\u202eexe":        "invisible text-direction marks (it holds U+202E)",
		"\u202aembedded":       "invisible text-direction marks (it holds U+202A)",
		"isolate\u2066x\u2069": "invisible text-direction marks (it holds U+2066)",
		"mark\u200f":           "invisible text-direction marks (it holds U+200F)",
		"arabic\u061cmark":     "invisible text-direction marks (it holds U+061C)",
		"line\u2028sep":        "line breaks (it holds U+2028)",
		"bad\xffutf8":          "valid UTF-8",
	} {
		err := checkout.CheckText(bad)
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("CheckText(%q) = %v; want it to say %q", bad, err, says)
		}
	}
}

func TestCheckProductRefusesControlAndBidi(t *testing.T) {
	fe := checkout.CheckProduct(checkout.ProductInput{Title: "Caneca\x00", Description: "Linda \u202eazul", UnitPrice: 2990})
	if fe == nil || fe.Code(checkout.FieldTitle) != checkout.CodeText || fe.Code(checkout.FieldDescription) != checkout.CodeText {
		t.Fatalf("CheckProduct = %v; want the text rule on title and description", fe)
	}
}
