package dashboard_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestDashboardFormsRefuseControlAndBidiCharacters: the product and settings forms show the
// rule beside the field.
func TestDashboardFormsRefuseControlAndBidiCharacters(t *testing.T) {
	e, b := signedIn(t)
	tok := b.csrf()
	errOf := func(body url.Values, path, field string) (int, string) {
		res, doc := b.post(path, body)
		return res.StatusCode, doc.Find(`[data-testid="field-error"][data-field="` + field + `"]`).Text()
	}
	code, msg := errOf(url.Values{"csrf_token": {tok}, "title": {"Agenda\u00002027"}, "unit_price": {"39,90"}, "active": {"true"}},
		"/dashboard/products", "title")
	if code != http.StatusUnprocessableEntity || !strings.Contains(msg, "marcas invisíveis de direção") {
		t.Errorf("a product title with NUL: %d %q", code, msg)
	}
	code, msg = errOf(url.Values{"csrf_token": {tok}, "title": {"Agenda 2027"}, "description": {"capa \u202edura"}, "unit_price": {"39,90"}},
		"/dashboard/products", "description")
	if code != http.StatusUnprocessableEntity || !strings.Contains(msg, "marcas invisíveis de direção") {
		t.Errorf("a product description with U+202E: %d %q", code, msg)
	}
	code, msg = errOf(url.Values{"csrf_token": {tok}, "webhook_url": {"https://erp.example.com/\u202egnp.exe"}},
		"/dashboard/settings", "webhook_url")
	if code != http.StatusUnprocessableEntity || !strings.Contains(msg, "marcas invisíveis de direção") {
		t.Errorf("a notification URL with U+202E: %d %q", code, msg)
	}
	if ps, _ := e.svc.AllProducts(t.Context()); len(ps) > 0 {
		for _, p := range ps {
			if strings.Contains(p.Title, "Agenda") {
				t.Errorf("a refused product was stored: %q", p.Title)
			}
		}
	}
}
