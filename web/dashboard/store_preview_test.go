package dashboard_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

// TestDashboardStorePreview: "Preview" draws the PIX page and the paid page with the values
// typed, saved or not, in sandboxed frames of routes that only this origin may frame; their
// stylesheet carries the typed colour; nothing is saved; a URL tampered with, or signed in
// another session, is a 404; a wrong value is shown beside its field, with no preview.
func TestDashboardStorePreview(t *testing.T) {
	e, b := signedIn(t)
	_, doc := b.get("/dashboard/store")
	if src := doc.Find(testid("preview-pix")).AttrOr("src", ""); !strings.HasPrefix(src, "/dashboard/store/preview/pix?") {
		t.Fatalf("the saved store's preview frame: %q", src)
	}
	tok := b.csrf()
	form := storeForm(tok)
	form.Set("name", "Empório Ñandu")
	form.Set("legal_name", "Ñandu Prévia Ltda")
	form.Del("no_accent_color")
	res, doc := b.post("/dashboard/store/preview", form)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("preview: %d", res.StatusCode)
	}
	if doc.Find("#st-name").AttrOr("value", "") != "Empório Ñandu" || doc.Find(testid("notice")).Length() != 1 {
		t.Errorf("the form after a preview: name %q, notice %q", doc.Find("#st-name").AttrOr("value", ""), doc.Find(testid("notice")).Text())
	}
	frames := map[string]*goquery.Selection{"pix": doc.Find(testid("preview-pix")), "paid": doc.Find(testid("preview-paid"))}
	want, _ := brand.Profile{BrandColor: "#c2185b", AccentColor: "#000000"}.Stylesheet()
	for page, f := range frames {
		if f.AttrOr("sandbox", "x") != "allow-same-origin" || f.AttrOr("title", "") == "" {
			t.Errorf("the %s frame: sandbox %q, title %q", page, f.AttrOr("sandbox", "x"), f.AttrOr("title", ""))
		}
		src := f.AttrOr("src", "")
		res, inner := b.get(src)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("the %s preview: %d", page, res.StatusCode)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self'") ||
			strings.Contains(csp, "unsafe-inline") || res.Header.Get("X-Frame-Options") != "SAMEORIGIN" {
			t.Errorf("the %s preview's framing: CSP %q, X-Frame-Options %q", page, csp, res.Header.Get("X-Frame-Options"))
		}
		text := strings.Join(strings.Fields(inner.Text()), " ")
		if !strings.Contains(inner.Find("title").Text(), "Empório Ñandu") || !strings.Contains(text, "Ñandu Prévia Ltda") {
			t.Errorf("the %s preview does not show the typed name and payee: %q / %.300s", page, inner.Find("title").Text(), text)
		}
		if inner.Find(`style, [style]`).Length() != 0 {
			t.Errorf("the %s preview has inline style", page)
		}
		css := ""
		inner.Find(`link[rel="stylesheet"]`).Each(func(_ int, l *goquery.Selection) {
			if href := l.AttrOr("href", ""); strings.HasPrefix(href, "/dashboard/store/preview/store.css?") {
				css = href
			}
		})
		res = b.do(http.MethodGet, css, nil)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/css") || string(body) != want {
			t.Errorf("the %s preview's stylesheet %q: %d %s\n%s\nwant\n%s", page, css, res.StatusCode, res.Header.Get("Content-Type"), body, want)
		}
		// Tampered with: the values changed, the signature kept.
		u, _ := url.Parse(src)
		q := u.Query()
		q.Set("p", strings.ToUpper(q.Get("p")))
		if res := b.do(http.MethodGet, u.Path+"?"+q.Encode(), nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("a tampered %s preview: %d", page, res.StatusCode)
		}
		// Another session of the same user: its token signs nothing of this one's.
		other := e.browser()
		other.login()
		if res := other.do(http.MethodGet, src, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("the %s preview in another session: %d", page, res.StatusCode)
		}
		// Signed out: the sign-in, never the page.
		if res := e.do(http.MethodGet, src, nil); res.StatusCode == http.StatusOK {
			t.Errorf("the %s preview without a session: %d", page, res.StatusCode)
		}
	}
	if _, shop := e.get("/"); strings.Contains(shop.Find("title").Text(), "Ñandu") {
		t.Error("the preview saved the store")
	}

	bad := storeForm(tok)
	bad.Set("brand_color", "vermelho")
	res, doc = b.post("/dashboard/store/preview", bad)
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid="field-error"][data-field="brand_color"]`).Length() != 1 ||
		doc.Find(testid("store-preview")).Length() != 0 {
		t.Errorf("a preview of a wrong colour: %d, %d previews", res.StatusCode, doc.Find(testid("store-preview")).Length())
	}
	if res := b.do(http.MethodPost, "/dashboard/store/preview", storeForm("wrong-token")); res.StatusCode != http.StatusForbidden {
		t.Errorf("a preview without the session's token: %d", res.StatusCode)
	}
}
