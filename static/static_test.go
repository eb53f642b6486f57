package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

func get(t *testing.T, h http.Handler, method, target string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func readAll(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestEmbeddedFilesPresent(t *testing.T) {
	a := New()
	want := []string{"alert.svg", "app.css", "copy.js", "dashboard.css", "display.css", "display.js", "embed.js", "follow.js", "form.js", "frame.js", "icon-192.png", "icon-512.png", "logo.svg", "mask.js", "order.js", "paid.svg", "pix.js", "pix.svg", "pos.css", "pos.js", "receipt.js", "ticket.css"}
	got := a.Names()
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
}

func TestPathIsFingerprinted(t *testing.T) {
	a := New()
	re := regexp.MustCompile(`^/static/app\.[0-9a-f]{8}\.css$`)
	if p := a.Path("app.css"); !re.MatchString(p) {
		t.Fatalf("Path(app.css) = %q, want match %s", p, re)
	}
	if p := a.Path("pix.js"); !regexp.MustCompile(`^/static/pix\.[0-9a-f]{8}\.js$`).MatchString(p) {
		t.Fatalf("Path(pix.js) = %q", p)
	}
	if p := a.Path("nope.css"); p != "/static/nope.css" {
		t.Fatalf("Path(nope.css) = %q, want /static/nope.css", p)
	}
	if got := a.Integrity("app.css"); !strings.HasPrefix(got, "sha256-") || len(got) != len("sha256-")+44 {
		t.Fatalf("Integrity(app.css) = %q", got)
	}
}

func TestFingerprintFollowsContent(t *testing.T) {
	a1, err := NewFS(fstest.MapFS{"app.css": {Data: []byte("body{color:red}")}})
	if err != nil {
		t.Fatal(err)
	}
	a2, err := NewFS(fstest.MapFS{"app.css": {Data: []byte("body{color:blue}")}})
	if err != nil {
		t.Fatal(err)
	}
	p1, p2 := a1.Path("app.css"), a2.Path("app.css")
	if p1 == p2 {
		t.Fatalf("different content, same path %q", p1)
	}
	// The old name is stale for the new build: 404.
	if res := get(t, a2.Handler(), "GET", p1, nil); res.StatusCode != http.StatusNotFound {
		t.Fatalf("stale name: status %d, want 404", res.StatusCode)
	}
}

func TestUnknownExtensionRejected(t *testing.T) {
	_, err := NewFS(fstest.MapFS{"x.exe": {Data: []byte("MZ")}})
	if err == nil || !strings.Contains(err.Error(), "x.exe") {
		t.Fatalf("err = %v, want one naming x.exe", err)
	}
}

func TestHandlerServesAsset(t *testing.T) {
	a := New()
	for _, tc := range []struct{ name, ctype string }{
		{"app.css", "text/css; charset=utf-8"},
		{"pix.js", "text/javascript; charset=utf-8"},
		{"mask.js", "text/javascript; charset=utf-8"},
		{"logo.svg", "image/svg+xml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := get(t, a.Handler(), "GET", a.Path(tc.name), nil)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("status %d", res.StatusCode)
			}
			if got := res.Header.Get("Content-Type"); got != tc.ctype {
				t.Errorf("Content-Type = %q, want %q", got, tc.ctype)
			}
			if got := res.Header.Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
				t.Errorf("Cache-Control = %q", got)
			}
			if res.Header.Get("ETag") == "" {
				t.Error("no ETag")
			}
			if res.Header.Get("Content-Encoding") != "" {
				t.Error("gzip sent to a client that did not ask for it")
			}
			want, err := embedded.ReadFile("files/" + tc.name)
			if err != nil {
				t.Fatal(err)
			}
			css := strings.HasSuffix(tc.name, ".css")
			if css {
				want = cssComment.ReplaceAll(want, nil)
			}
			body := readAll(t, res.Body)
			if !bytes.Equal(body, want) {
				t.Error("body differs from the embedded file")
			}
			if css && bytes.Contains(body, []byte("/*")) {
				t.Error("a stylesheet's comment was sent to the browser")
			}
		})
	}
}

func TestHandlerWithoutPrefix(t *testing.T) {
	a := New()
	h := http.StripPrefix("/static", a.Handler())
	if res := get(t, h, "GET", a.Path("app.css"), nil); res.StatusCode != http.StatusOK {
		t.Fatalf("status %d behind StripPrefix, want 200", res.StatusCode)
	}
}

func TestHandlerNotFound(t *testing.T) {
	a := New()
	for _, target := range []string{
		"/static/app.css",          // unfingerprinted
		"/static/app.00000000.css", // stale fingerprint
		"/static/",                 // directory
		"/static/../static.go",     // escape attempt
		"/static/files/app.css",    // embed layout is not exposed
	} {
		if res := get(t, a.Handler(), "GET", target, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", target, res.StatusCode)
		}
	}
}

func TestHandlerMethods(t *testing.T) {
	a := New()
	res := get(t, a.Handler(), "POST", a.Path("app.css"), nil)
	if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
		t.Fatalf("POST: status %d Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
	res = get(t, a.Handler(), "HEAD", a.Path("app.css"), nil)
	if res.StatusCode != http.StatusOK || len(readAll(t, res.Body)) != 0 {
		t.Fatalf("HEAD: status %d, want 200 with no body", res.StatusCode)
	}
}

func TestHandlerConditional(t *testing.T) {
	a := New()
	p := a.Path("app.css")
	etag := get(t, a.Handler(), "GET", p, nil).Header.Get("ETag")
	res := get(t, a.Handler(), "GET", p, map[string]string{"If-None-Match": etag})
	if res.StatusCode != http.StatusNotModified {
		t.Fatalf("If-None-Match: status %d, want 304", res.StatusCode)
	}
	res = get(t, a.Handler(), "GET", p, map[string]string{"If-None-Match": `"other"`})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("non-matching If-None-Match: status %d, want 200", res.StatusCode)
	}
}

func TestHandlerGzip(t *testing.T) {
	a := New()
	p := a.Path("pix.js")
	plain := get(t, a.Handler(), "GET", p, nil)
	res := get(t, a.Handler(), "GET", p, map[string]string{"Accept-Encoding": "br, gzip;q=0.8"})
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding = %q, want gzip", res.Header.Get("Content-Encoding"))
	}
	if !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Errorf("Vary = %q", res.Header.Get("Vary"))
	}
	if res.Header.Get("ETag") == plain.Header.Get("ETag") {
		t.Error("gzip and identity representations share an ETag")
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(readAll(t, zr), readAll(t, plain.Body)) {
		t.Error("gunzipped body differs from the plain one")
	}
	// Revalidation of the gzip representation.
	res2 := get(t, a.Handler(), "GET", p, map[string]string{"Accept-Encoding": "gzip", "If-None-Match": res.Header.Get("ETag")})
	if res2.StatusCode != http.StatusNotModified {
		t.Errorf("gzip revalidation: status %d, want 304", res2.StatusCode)
	}
	// gzip refused explicitly.
	res3 := get(t, a.Handler(), "GET", p, map[string]string{"Accept-Encoding": "gzip;q=0, identity"})
	if res3.Header.Get("Content-Encoding") != "" {
		t.Error("gzip sent although q=0")
	}
}

func TestAcceptsGzip(t *testing.T) {
	for in, want := range map[string]bool{
		"":                  false,
		"gzip":              true,
		"GZIP":              true,
		"deflate, gzip":     true,
		"gzip;q=0":          false,
		"gzip; q=0.000":     false,
		"gzip;q=0.5":        true,
		"*":                 true,
		"br":                false,
		"x-gzip-not":        false,
		"identity, *;q=0.1": true,
	} {
		if got := acceptsGzip([]string{in}); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestScriptsAreCSPCompatible guards the strict script-src 'self' policy: the scripts must not
// evaluate strings as code.
func TestScriptsAreCSPCompatible(t *testing.T) {
	for _, name := range []string{"pix.js", "mask.js", "form.js", "receipt.js", "order.js", "follow.js"} {
		b, err := embedded.ReadFile("files/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"eval(", "new Function", "innerHTML", "document.write"} {
			if bytes.Contains(b, []byte(bad)) {
				t.Errorf("%s uses %s", name, bad)
			}
		}
	}
}

// TestSizeBudget keeps the scripts and stylesheet small (a few KB in total, as promised). The
// budget is 13 KiB since the PIX page's following of the order moved to follow.js, shared with
// the order pages: a second file compresses apart (≈ 450 bytes more than inside pix.js).
func TestSizeBudget(t *testing.T) {
	a := New()
	total := 0
	for _, name := range []string{"pix.js", "follow.js", "mask.js", "form.js", "app.css"} {
		plain, gz := a.Size(name)
		t.Logf("%s: %d bytes, %d gzip", name, plain, gz)
		if gz == 0 {
			t.Errorf("%s has no gzip copy", name)
		}
		total += gz
	}
	if total > 13*1024 {
		t.Errorf("JS+CSS gzip total %d bytes, budget 13 KiB", total)
	}
}
