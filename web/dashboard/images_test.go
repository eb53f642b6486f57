package dashboard_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// upload posts a file to the product picture form as a browser does (multipart, same-origin,
// with the session's token).
func (b *browser) upload(path, token, filename string, data []byte) (*http.Response, *goquery.Document) {
	b.e.t.Helper()
	return b.uploadAs(path, token, "image", filename, data)
}

// uploadAs posts a file in field as a browser does.
func (b *browser) uploadAs(path, token, field, filename string, data []byte) (*http.Response, *goquery.Document) {
	b.e.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("csrf_token", token)
	fw, _ := mw.CreateFormFile(field, filename)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, err := http.NewRequest(http.MethodPost, b.e.srv.URL+path, &body)
	if err != nil {
		b.e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Origin", b.e.srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := b.hc.Do(req)
	if err != nil {
		b.e.t.Fatal(err)
	}
	return res, b.e.parse(res)
}

// jpegOf is a w×h JPEG.
func jpegOf(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// png16Header is a PNG whose header claims w × h pixels of 16-bit RGBA, with an empty IDAT and
// IEND: enough for its size to be read, nothing to decode.
func png16Header(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	for _, c := range []struct {
		typ  string
		data []byte
	}{{"IHDR", binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)}, {"IDAT", nil}, {"IEND", nil}} {
		if c.typ == "IHDR" {
			c.data = append(c.data, 16, 6, 0, 0, 0) // depth, colour type RGBA, compression, filter, interlace
		}
		b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(c.data))))
		body := append([]byte(c.typ), c.data...)
		b.Write(body)
		b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(body)))
	}
	return b.Bytes()
}

// TestProductPicture: a picture uploaded on a product's page is served under fingerprinted
// URLs with a year of caching, and the catalogue shows it with srcset, its size and the
// product's title as alt text; a file that is not a picture, or one whose decoding would take
// too much memory, is refused beside the field, in words.
func TestProductPicture(t *testing.T) {
	e, b := signedIn(t)
	tok := b.csrf()
	page := "/dashboard/products/caneca-de-ceramica"
	res, doc := b.upload(page+"/image", tok, "notes.txt", []byte("these are not the pixels you are looking for"))
	if res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(doc.Find(`[data-field="image"]`).Text(), "JPEG, PNG") {
		t.Fatalf("a text file: %d %q", res.StatusCode, doc.Find(`[data-field="image"]`).Text())
	}
	// A 16-bit RGBA PNG of 6476 × 6476 (320 MB decoded): refused before decoding, in words.
	for _, c := range []struct{ query, want string }{
		{"", "A foto tem 6476 × 6476 pixels: abri-la ocuparia 320 MB de memória, mais que o limite de 100 MB"},
		{"?lang=en", "The picture is 6476 × 6476 pixels: opening it would take 320 MB of memory, more than the limit of 100 MB"},
	} {
		res, doc = b.upload(page+"/image"+c.query, tok, "caneca.png", png16Header(6476, 6476))
		if got := doc.Find(`[data-field="image"]`).Text(); res.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(got, c.want) {
			t.Errorf("a 16-bit PNG of 6476 × 6476%s: %d %q, want %q", c.query, res.StatusCode, got, c.want)
		}
	}
	res, _ = b.upload(page+"/image", "wrong-token", "caneca.jpg", jpegOf(t, 800, 600))
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("an upload without the session's token: %d", res.StatusCode)
	}
	res, _ = b.upload(page+"/image", tok, "caneca.jpg", jpegOf(t, 800, 600))
	if loc := e.location(res); loc != page+"?done=image" {
		t.Fatalf("after the upload: %d %q", res.StatusCode, loc)
	}
	_, doc = b.get(page + "?done=image")
	if doc.Find(`[data-testid="image-form"] img`).Length() != 1 {
		t.Error("the product's page does not show its picture")
	}

	_, doc = e.get("/")
	img := doc.Find(`[data-product-id="caneca-de-ceramica"] img[data-testid="product-image"]`)
	src, srcset := img.AttrOr("src", ""), img.AttrOr("srcset", "")
	if img.Length() != 1 || img.AttrOr("alt", "") != "Caneca de cerâmica" || img.AttrOr("width", "") != "640" ||
		img.AttrOr("height", "") != "480" || !strings.Contains(srcset, " 320w") || !strings.Contains(srcset, " 640w") {
		html, _ := goquery.OuterHtml(img)
		t.Fatalf("the catalogue's picture: %s", html)
	}
	for _, u := range []string{src, strings.Fields(strings.Split(srcset, ",")[1])[0]} {
		res := e.do(http.MethodGet, u, nil)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/jpeg" || format != "jpeg" || err != nil ||
			!strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("GET %s: %d %s %v %v", u, res.StatusCode, res.Header.Get("Content-Type"), format, err)
		}
		if want := map[bool]int{true: 320, false: 640}[strings.Contains(u, "-s.")]; cfg.Width != want {
			t.Errorf("%s is %d px wide, want %d", u, cfg.Width, want)
		}
	}
	if res := e.do(http.MethodGet, "/images/nope-s.jpg", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown picture: %d", res.StatusCode)
	}
}
