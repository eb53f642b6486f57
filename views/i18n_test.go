package views

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// verbs counts the fmt verbs of a message, so both languages take the same arguments.
var verbRe = regexp.MustCompile(`%[-+# 0]*[0-9]*[vdsqxf]`)

func TestCatalogueComplete(t *testing.T) {
	for _, key := range keys() {
		e := messages[key]
		for i, s := range e {
			if strings.TrimSpace(s) == "" {
				t.Errorf("%s: empty text in language %d", key, i)
			}
		}
		pt, en := verbRe.FindAllString(e[0], -1), verbRe.FindAllString(e[1], -1)
		if strings.Join(pt, ",") != strings.Join(en, ",") {
			t.Errorf("%s: verbs %v in pt-BR but %v in en", key, pt, en)
		}
	}
}

// TestEveryUsedKeyExists reads the views' sources for literal keys and checks each one is in the
// catalogue; the keys built at run time (field., hint., status.) are checked from their lists.
func TestEveryUsedKeyExists(t *testing.T) {
	files, err := filepath.Glob("*.templ")
	if err != nil || len(files) == 0 {
		t.Fatalf("no templ files: %v", err)
	}
	goFiles, _ := filepath.Glob("*.go")
	for _, f := range goFiles {
		if !strings.HasSuffix(f, "_test.go") && !strings.HasSuffix(f, "_templ.go") {
			files = append(files, f)
		}
	}
	re := regexp.MustCompile(`(?:\bt|\bT\([^,()]+,)\(?\s*"([a-z_]+\.[a-z_.]+)"`)
	found := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			found++
			if !HasKey(m[1]) {
				t.Errorf("%s uses missing key %q", f, m[1])
			}
		}
	}
	for _, k := range gatewayCauseKeys {
		if !HasKey(k) {
			t.Errorf("gateway cause key %q is missing", k)
		}
	}
	if found < 50 {
		t.Fatalf("found only %d keys in the sources: the pattern is broken", found)
	}
	for _, f := range append(customerFields(), addressFields()...) {
		if !HasKey("field." + f.Name) {
			t.Errorf("missing field.%s", f.Name)
		}
		if f.Hint && !HasKey("hint."+f.Name) {
			t.Errorf("missing hint.%s", f.Name)
		}
	}
	// The handlers' messages are keys too, with their own wording in each language.
	for _, k := range handlerMessages() {
		pt, en := T(PtBR, k), T(En, k)
		if !HasKey(k) || pt == en {
			t.Errorf("handler message %q: %q / %q", k, pt, en)
		}
	}
	if len(handlerMessages()) != 6 {
		t.Errorf("%d handler messages, want 6", len(handlerMessages()))
	}
	for _, s := range append(checkout.OrderStatuses(), "unknown") {
		if !HasKey("status." + string(s)) {
			t.Errorf("missing status.%s", s)
		}
	}
}

func TestTranslate(t *testing.T) {
	if got := T(PtBR, "cart.checkout"); got != "Continuar para pagamento" {
		t.Errorf("pt-BR: %q", got)
	}
	if got := T(En, "cart.checkout"); got != "Continue to payment" {
		t.Errorf("en: %q", got)
	}
	if got := T("", "cart.checkout"); got != "Continuar para pagamento" {
		t.Errorf("default language: %q", got)
	}
	if got := T(En, "pix.qr_alt", "R$59.00"); got != "PIX QR code to pay R$59.00" {
		t.Errorf("with args: %q", got)
	}
	if got := T(En, "no.such.key"); got != "no.such.key" {
		t.Errorf("missing key: %q", got)
	}
}

// allCodes are the violation codes of gatewayclient.
func allCodes() []string {
	return []string{checkout.CodeJSON, checkout.CodeRequired, checkout.CodeType,
		checkout.CodeInteger, checkout.CodeMin, checkout.CodeMax, checkout.CodeMinLength,
		checkout.CodeMaxLength, checkout.CodeEnum, checkout.CodeFormat, checkout.CodeDocument,
		checkout.CodeURL, checkout.CodeHTTPS, checkout.CodeDuplicate, checkout.CodeRange,
		checkout.CodeUUID, checkout.CodePixKey, checkout.CodeFuture, ""}
}

func TestFieldMessageForEveryFieldAndCode(t *testing.T) {
	fields := []string{checkout.FieldQuantity}
	for _, f := range append(customerFields(), addressFields()...) {
		fields = append(fields, f.Name)
	}
	for _, field := range fields {
		for _, code := range allCodes() {
			pt, en := FieldMessage(PtBR, field, code), FieldMessage(En, field, code)
			if pt == "" || en == "" || pt == en || strings.HasPrefix(pt, "err.") || strings.HasPrefix(en, "err.") {
				t.Errorf("FieldMessage(%s, %q) = %q / %q", field, code, pt, en)
			}
			// Each field has its own wording, not the catch-all.
			if pt == T(PtBR, "err.invalid") || pt == T(PtBR, "err.required") {
				t.Errorf("FieldMessage(%s, %q) is the generic %q", field, code, pt)
			}
		}
	}
	for _, tc := range []struct{ field, code, pt, en string }{
		{checkout.FieldDocument, checkout.CodeDocument, "Informe um CPF ou CNPJ válido.", "Enter a valid CPF or CNPJ."},
		{checkout.FieldDocument, checkout.CodeRequired, "Informe seu CPF ou CNPJ.", "Enter your CPF or CNPJ."},
		{checkout.FieldStreet, checkout.CodeMaxLength, "A rua deve ter no máximo 200 caracteres.", "The street must have at most 200 characters."},
		{checkout.FieldZipCode, checkout.CodeFormat, "Informe um CEP válido, como 01310-100.", "Enter a valid CEP, like 01310-100."},
	} {
		if got := FieldMessage(PtBR, tc.field, tc.code); got != tc.pt {
			t.Errorf("pt-BR %s/%s = %q, want %q", tc.field, tc.code, got, tc.pt)
		}
		if got := FieldMessage(En, tc.field, tc.code); got != tc.en {
			t.Errorf("en %s/%s = %q, want %q", tc.field, tc.code, got, tc.en)
		}
	}
}

func TestStatusText(t *testing.T) {
	if got := StatusText(PtBR, checkout.StatusAwaitingPayment); got != "Aguardando pagamento" {
		t.Errorf("%q", got)
	}
	if got := StatusText(En, checkout.StatusPaid); got != "Payment confirmed" {
		t.Errorf("%q", got)
	}
	if got := StatusText(En, "weird"); got != T(En, "status.unknown") {
		t.Errorf("unknown status: %q", got)
	}
}

// TestJoinCataloguesRefusesDuplicates: two parts of the catalogue may not define one key.
func TestJoinCataloguesRefusesDuplicates(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a key defined twice was accepted")
		}
	}()
	joinCatalogues(map[string][2]string{"a": {"x", "x"}}, map[string][2]string{"a": {"y", "y"}})
}

// TestChargeFormWords: every field of the new-charge form has its label.
func TestChargeFormWords(t *testing.T) {
	for _, f := range ChargeFormFields {
		if !HasKey(chargeFieldKey(f)) {
			t.Errorf("no label for the charge form's %s", f)
		}
	}
}
