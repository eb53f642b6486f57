package dashboard_test

import (
	"net/http"
	"testing"
)

// TestProductListThumbnails: the dashboard's product list shows each product's picture as a
// thumbnail, its alt text the product's title, served from the pictures' own path; a product
// without a picture shows none.
func TestProductListThumbnails(t *testing.T) {
	e, b := signedIn(t)
	tok := b.csrf()
	const page = "/dashboard/products/caneca-de-ceramica"
	if res, _ := b.upload(page+"/image", tok, "caneca.jpg", jpegOf(t, 800, 600)); e.location(res) != page+"?done=image" {
		t.Fatal("the upload failed")
	}
	_, doc := b.get("/dashboard/products")
	rows := doc.Find(testid("product-row"))
	if rows.Length() < 2 {
		t.Fatalf("%d product rows", rows.Length())
	}
	img := rows.Filter(`[data-id="caneca-de-ceramica"]`).Find(`img[data-testid="product-image"]`)
	if img.Length() != 1 || img.AttrOr("alt", "") != "Caneca de cerâmica" || !img.HasClass("thumb") {
		t.Fatalf("the thumbnail of the mug: %d, alt %q, class %q", img.Length(), img.AttrOr("alt", ""), img.AttrOr("class", ""))
	}
	res := e.do(http.MethodGet, img.AttrOr("src", ""), nil)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/jpeg" {
		t.Errorf("GET %s: %d %s", img.AttrOr("src", ""), res.StatusCode, res.Header.Get("Content-Type"))
	}
	if n := rows.Not(`[data-id="caneca-de-ceramica"]`).Find("img").Length(); n != 0 {
		t.Errorf("%d pictures on the rows of products without one", n)
	}
}
