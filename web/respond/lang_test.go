package respond

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/pixcheckout/pixcheckout/views"
)

// TestRequestLanguage: ?lang= naming a supported language wins; otherwise the best supported
// language of Accept-Language by its q-values; otherwise pt-BR.
func TestRequestLanguage(t *testing.T) {
	for _, tc := range []struct {
		query, accept string
		want          views.Lang
	}{
		{"", "", views.PtBR},
		{"en", "", views.En},
		{"EN-us", "pt-BR", views.En},
		{"pt-BR", "en", views.PtBR},
		{"fr", "en-GB,en;q=0.8", views.En}, // unsupported query: the header decides
		{"", "en-US,en;q=0.9,pt;q=0.8", views.En},
		{"", "pt-BR,pt;q=0.9,en;q=0.8", views.PtBR},
		{"", "fr-FR, en;q=0.5, pt;q=0.7", views.PtBR},
		{"", "de, fr", views.PtBR},
		{"", "en;q=0, pt;q=0.1", views.PtBR},
		{"", "en;q=bad", views.PtBR},
	} {
		r := httptest.NewRequest(http.MethodGet, "/?lang="+url.QueryEscape(tc.query), nil)
		if tc.accept != "" {
			r.Header.Set("Accept-Language", tc.accept)
		}
		if got := Lang(r); got != tc.want {
			t.Errorf("Lang(?lang=%q, Accept-Language %q) = %q, want %q", tc.query, tc.accept, got, tc.want)
		}
	}
}
