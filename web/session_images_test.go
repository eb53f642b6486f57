package web_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// fakeImageHost answers the checkout's picture fetches: a JPEG, a text file, or nothing.
func fakeImageHost(t *testing.T) func(context.Context, string) (io.ReadCloser, error) {
	img := image.NewRGBA(image.Rect(0, 0, 900, 600))
	for y := range 600 {
		for x := range 900 {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var photo bytes.Buffer
	if err := jpeg.Encode(&photo, img, nil); err != nil {
		t.Fatal(err)
	}
	return func(_ context.Context, url string) (io.ReadCloser, error) {
		switch url {
		case "https://img.loja.example/camiseta.jpg":
			return io.NopCloser(bytes.NewReader(photo.Bytes())), nil
		case "https://img.loja.example/notes.txt":
			return io.NopCloser(strings.NewReader("not a picture")), nil
		}
		return nil, errors.New("HTTP 404")
	}
}

// A session's ad-hoc item may name a picture by https URL: the checkout fetches it once,
// serves its own copy (the API says where) and shows it in the session's summary; a URL that
// is not https, leads nowhere or to something that is not a picture is refused on the item's
// imageUrl, and a catalogue item takes none (it has its product's).
func TestSessionItemImageURL(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.fetchImage = fakeImageHost(t) })
	body := sessionBody()
	body["items"].([]any)[1].(map[string]any)["imageUrl"] = "https://img.loja.example/camiseta.jpg"
	res := e.api("POST", "/api/v1/checkout-sessions", body)
	if res.status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	items := res.json["items"].([]any)
	u, _ := items[1].(map[string]any)["imageUrl"].(string)
	if !strings.HasPrefix(u, "http://localhost:8080/images/") || !strings.HasSuffix(u, "-l.jpg") || items[0].(map[string]any)["imageUrl"] != nil {
		t.Fatalf("the items' imageUrl: %s", res.body)
	}
	pic := e.do("GET", strings.TrimPrefix(u, "http://localhost:8080"), nil)
	data, _ := io.ReadAll(pic.Body)
	pic.Body.Close()
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); pic.StatusCode != 200 || err != nil || cfg.Width != 640 {
		t.Errorf("the checkout's copy: %d %v %+v", pic.StatusCode, err, cfg)
	}
	_, doc := e.get("/s/" + res.json["id"].(string))
	img := doc.Find(testid("order-summary") + " " + testid("product-image"))
	if img.Length() != 1 || img.AttrOr("alt", "") != "Camiseta PIX" {
		html, _ := goquery.OuterHtml(doc.Find(testid("order-summary")))
		t.Errorf("the session's summary: %s", html)
	}

	for name, c := range map[string]struct {
		item int
		url  string
		want string
	}{
		"plain http":     {1, "http://img.loja.example/camiseta.jpg", "https"},
		"not found":      {1, "https://img.loja.example/missing.jpg", "fetched"},
		"not a picture":  {1, "https://img.loja.example/notes.txt", "JPEG, PNG or WebP"},
		"an IP address":  {1, "https://203.0.113.9/camiseta.jpg", "host name"},
		"catalogue item": {0, "https://img.loja.example/camiseta.jpg", "not_allowed"},
	} {
		b := sessionBody()
		b["items"].([]any)[c.item].(map[string]any)["imageUrl"] = c.url
		res := e.api("POST", "/api/v1/checkout-sessions", b)
		if res.status != http.StatusUnprocessableEntity || !strings.Contains(string(res.body), `imageUrl`) ||
			!strings.Contains(string(res.body), c.want) {
			t.Errorf("%s: %d %s", name, res.status, res.body)
		}
	}
}
