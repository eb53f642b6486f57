package dashboard_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

// pngWithText is a w×h PNG, transparent but for a red square, with a tEXt chunk (a camera's
// or an editor's metadata) after its header.
func pngWithText(t *testing.T, w, h int, text string) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := h / 4; y < 3*h/4; y++ {
		for x := w / 4; x < 3*w/4; x++ {
			img.Set(x, y, color.NRGBA{200, 0, 0, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	raw := buf.Bytes()
	body := append([]byte("tEXt"), []byte("Comment\x00"+text)...)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(body)-4))
	chunk = append(chunk, body...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(body))
	const afterIHDR = 8 + 25
	return append(append(append([]byte{}, raw[:afterIHDR]...), chunk...), raw[afterIHDR:]...)
}

// A 1×1 lossless WebP.
const webp1x1 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

// TestDashboardStoreLogo: a logo uploaded on the "Loja" page (PNG, JPEG or WebP) is served, whole
// and without its metadata, at the header's, the e-mails' and the favicons' sizes under versioned
// URLs kept for a year; a file that is not a picture, or one whose decoding would take too much
// memory, is refused beside the field, in words; an upload needs the form's token; each change,
// and the removal, is audited.
func TestDashboardStoreLogo(t *testing.T) {
	e, b := signedIn(t)
	tok := b.csrf()
	_, doc := b.get("/dashboard/store")
	if doc.Find(testid("no-logo")).Length() != 1 || doc.Find(testid("logo-remove")).Length() != 0 {
		t.Error("a store without a logo: the page does not say so, or offers to remove it")
	}
	field := `[data-testid="field-error"][data-field="logo"]`
	res, doc := b.uploadAs("/dashboard/store/logo", tok, "logo", "logo.svg", []byte("<svg xmlns='http://www.w3.org/2000/svg'/>"))
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(field).Text(), "JPEG, PNG") ||
		doc.Find("#st-logo").AttrOr("aria-invalid", "") != "true" {
		t.Fatalf("an SVG: %d %q", res.StatusCode, doc.Find(field).Text())
	}
	if doc.Find("#st-name").AttrOr("value", "") != "Loja Teste" {
		t.Error("the refused upload's page lost the store's form")
	}
	res, doc = b.uploadAs("/dashboard/store/logo?lang=en", tok, "logo", "bomb.png", png16Header(6476, 6476))
	if want := "The picture is 6476 × 6476 pixels: opening it would take 320 MB"; res.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(doc.Find(field).Text(), want) {
		t.Fatalf("a decompression bomb: %d %q", res.StatusCode, doc.Find(field).Text())
	}
	big := append(pngWithText(t, 64, 64, "x"), bytes.Repeat([]byte{0}, 5<<20)...) // over the 5 MB a picture may have
	res, doc = b.uploadAs("/dashboard/store/logo", tok, "logo", "big.png", big)
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(field).Text(), "5 MB") {
		t.Fatalf("a file over 5 MB: %d %q", res.StatusCode, doc.Find(field).Text())
	}
	res, doc = b.uploadAs("/dashboard/store/logo", tok, "other", "logo.png", pngWithText(t, 64, 64, "x"))
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(field).Text(), "Escolha um arquivo") {
		t.Fatalf("no file in the field: %d %q", res.StatusCode, doc.Find(field).Text())
	}
	if res, _ := b.uploadAs("/dashboard/store/logo", "wrong-token", "logo", "logo.png", pngWithText(t, 64, 64, "x")); res.StatusCode != http.StatusForbidden {
		t.Errorf("an upload without the session's token: %d", res.StatusCode)
	}

	webp, _ := base64.StdEncoding.DecodeString(webp1x1)
	for _, c := range []struct {
		name string
		data []byte
		w, h int // the header picture's size
	}{
		{"logo.jpg", jpegOf(t, 800, 200), 384, 96},
		{"logo.webp", webp, 1, 1},
		{"logo.png", pngWithText(t, 1000, 250, "SECRET-AUTHOR GPS -23.56"), 384, 96},
	} {
		res, _ := b.uploadAs("/dashboard/store/logo", tok, "logo", c.name, c.data)
		if loc := e.location(res); loc != "/dashboard/store?done=logo" {
			t.Fatalf("%s: after the upload %d %q", c.name, res.StatusCode, loc)
		}
		_, doc = b.get("/dashboard/store?done=logo")
		img := doc.Find(testid("current-logo"))
		src := img.AttrOr("src", "")
		if !strings.HasPrefix(src, "/images/store/") || !strings.HasSuffix(src, "-h.png") || img.AttrOr("alt", "") != "Loja Teste" {
			t.Fatalf("%s: the page's logo %q alt %q", c.name, src, img.AttrOr("alt", ""))
		}
		want := map[string][2]int{"h": {c.w, c.h}, "32": {32, 32}, "180": {180, 180}, "192": {192, 192}, "512": {512, 512}}
		for size, wh := range want {
			u := strings.TrimSuffix(src, "-h.png") + "-" + size + ".png"
			res := e.do(http.MethodGet, u, nil)
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" || format != "png" || err != nil ||
				!strings.Contains(res.Header.Get("Cache-Control"), "immutable") || cfg.Width != wh[0] || cfg.Height != wh[1] {
				t.Errorf("%s: GET %s: %d %s %s %dx%d %v", c.name, u, res.StatusCode, res.Header.Get("Content-Type"),
					res.Header.Get("Cache-Control"), cfg.Width, cfg.Height, err)
			}
			if bytes.Contains(body, []byte("SECRET")) || bytes.Contains(body, []byte("tEXt")) {
				t.Errorf("%s: %s keeps the upload's metadata", c.name, u)
			}
		}
	}
	// The dashboard's header and favicon are the store's; a payment link's poster draws the logo
	// (whole, on white) and the store's colour, its QR code still black on white and readable.
	if doc.Find(testid("dash-store-icon")).Length() != 1 || !strings.HasSuffix(doc.Find(`link[rel="icon"]`).AttrOr("href", ""), "-32.png") {
		t.Error("the dashboard's header or favicon is not the store's logo")
	}
	form := storeForm(tok)
	form.Set("brand_color", "#ffff00")
	if res := b.do(http.MethodPost, "/dashboard/store", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving a yellow store: %d", res.StatusCode)
	}
	res, _ = b.post("/dashboard/links", map[string][]string{"csrf_token": {tok}, "title": {"Aula de violão"}, "kind": {"fixed"},
		"amount": {"80,00"}, "slug": {"aula-violao"}})
	link := strings.TrimSuffix(e.location(res), "?done=created")
	for _, q := range []string{"size=a4&ink=dark", "size=a6&ink=light"} {
		res := b.do(http.MethodGet, link+"/poster.svg?"+q, nil)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		svg := string(body)
		logo := doc.Find(testid("current-logo")).AttrOr("src", "")
		if !strings.Contains(svg, `<image href="`+logo+`"`) || !strings.Contains(svg, `data-testid="poster-logo"`) {
			t.Errorf("poster %s: no logo %q", q, logo)
		}
		shade := brand.Profile{BrandColor: "#ffff00"}.Palette()[0].Primary
		if strings.Contains(svg, "#ffff00") || (!strings.Contains(svg, `height="42.00" fill="`+shade+`"`) && !strings.Contains(svg, `stroke="`+shade+`"`)) {
			t.Errorf("poster %s: the brand colour is not the readable shade of yellow:\n%s", q, svg)
		}
		if got := decodePosterQR(t, body); got != "http://localhost:8080/l/aula-violao" {
			t.Errorf("poster %s: the QR code reads %q", q, got)
		}
	}

	for _, u := range []string{"/images/store/nope-h.png", "/images/store/0123456789abcdef01234567-l.png", "/images/store/x.png"} {
		if res := e.do(http.MethodGet, u, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d", u, res.StatusCode)
		}
	}

	res = b.do(http.MethodPost, "/dashboard/store/logo/remove", map[string][]string{"csrf_token": {tok}})
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/store?done=logo_removed" {
		t.Fatalf("after removing: %q", loc)
	}
	_, doc = b.get("/dashboard/store?done=logo_removed")
	if doc.Find(testid("no-logo")).Length() != 1 || doc.Find(testid("notice")).Text() != "Logo removido." {
		t.Errorf("after removing: the page %q", doc.Find(testid("notice")).Text())
	}

	es, err := e.dash.audit.Entries(context.Background(), audit.Filter{Action: audit.StoreChanged})
	if err != nil || len(es) != 5 {
		t.Fatalf("audit entries of the store: %d, %v; want 3 uploads, a save and a removal", len(es), err)
	}
	if !strings.HasPrefix(es[0].Detail, `logo: "`) || !strings.HasSuffix(es[0].Detail, `" → ""`) {
		t.Errorf("the removal's audit: %q", es[0].Detail)
	}
}
