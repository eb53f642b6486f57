package e2e

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// The page's script judges every value of checkout/testdata/fieldchecks.json as the server
// does (checkout's TestCheckFormFieldTable runs the same table through CheckFormField): leaving
// a field with a value the server refuses shows the server's message beside the field, marks it
// invalid, ties the message to it and says it politely; a value the server takes clears it.
func TestFieldChecksAsTheShopperTypes(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../checkout/testdata/fieldchecks.json")
	if err != nil {
		t.Fatal(err)
	}
	var table struct {
		Rows []struct {
			Field string `json:"field"`
			Value string `json:"value"`
			Valid bool   `json:"valid"`
		}
	}
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{})
	s.open(a.url + "/")
	form := shopIn(s).catalogue().add(physicalProduct).checkout()

	for _, r := range table.Rows {
		in := form.field(r.Field)
		s.check(in.Focus(), "focus "+r.Field)
		// The value is set as it is, without input events: the masks would reformat it, and the
		// verdict on this exact value is what the table is about.
		_, err := in.Evaluate(`(el, v) => { el.value = v; }`, r.Value)
		s.check(err, "set "+r.Field)
		s.check(form.field("name").Focus(), "leave "+r.Field)
		got := s.eval(s.page, `(name) => {
			const el = document.querySelector("[data-testid=checkout-form] [name=" + name + "]");
			const msg = document.getElementById(el.id + "-error");
			const live = document.querySelector("[data-testid=checkout-form] [aria-live=polite]:not(#cep-status)");
			return {
				invalid: el.getAttribute("aria-invalid") === "true",
				message: msg ? msg.textContent : "",
				expected: el.getAttribute("data-check-error") || "",
				textRule: document.querySelector("[data-testid=checkout-form]").getAttribute("data-text-invalid-text"),
				describedBy: (el.getAttribute("aria-describedby") || "").split(" ").includes(el.id + "-error"),
				live: live ? live.textContent : "",
			};
		}`, r.Field).(map[string]any)
		invalid := got["invalid"].(bool)
		if invalid == r.Valid {
			t.Errorf("%s %q: the page says invalid=%v, the server valid=%v", r.Field, r.Value, invalid, r.Valid)
			continue
		}
		msg := got["message"].(string)
		if r.Valid {
			if msg != "" || got["describedBy"].(bool) {
				t.Errorf("%s %q: valid, but the error %q stays", r.Field, r.Value, msg)
			}
			continue
		}
		if msg == "" || (msg != got["expected"] && msg != got["textRule"]) || !got["describedBy"].(bool) || got["live"] != msg {
			t.Errorf("%s %q: error shown %+v", r.Field, r.Value, got)
		}
	}
	s.a11y(s.page, "customer form with an error shown as the shopper typed")

	// The message is the server's own: the same words after a submit without the script's help.
	s.check(form.field("document").Fill("529.982.247-26"), "fill a wrong CPF")
	s.check(form.field("email").Focus(), "leave the document")
	typed, err := form.errorOf("document").TextContent()
	s.check(err, "document error")
	form.submit()
	s.check(s.expect.Locator(form.errorSummary()).ToBeVisible(), "error summary")
	s.check(s.expect.Locator(form.errorOf("document")).ToHaveText(typed), "the server's message is the script's")
}
