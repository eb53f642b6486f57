package web_test

import (
	"compress/flate"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestPagesAreGzipped: a page asked for with Accept-Encoding: gzip comes gzipped (and says it
// varies by it); one asked for without comes plain.
func TestPagesAreGzipped(t *testing.T) {
	e := newEnv(t)
	res := e.do(http.MethodGet, "/", nil, "Accept-Encoding", "gzip")
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(strings.Join(res.Header.Values("Vary"), ","), "Accept-Encoding") {
		t.Fatalf("GET / with gzip: %d, Content-Encoding %q, Vary %q", res.StatusCode, res.Header.Get("Content-Encoding"), res.Header.Values("Vary"))
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || !strings.Contains(string(body), `data-testid="product-card"`) {
		t.Fatalf("gunzipped page: %v, %.200q", err, body)
	}
	plain := e.do(http.MethodGet, "/", nil, "Accept-Encoding", "identity")
	plain.Body.Close()
	if plain.Header.Get("Content-Encoding") != "" {
		t.Errorf("a client without gzip got Content-Encoding %q", plain.Header.Get("Content-Encoding"))
	}
	// A request without Accept-Encoding at all (the compressor is skipped for it) is answered
	// plain, in full, with its length.
	req, err := http.NewRequest(http.MethodGet, e.srv.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Body.Close()
	b, err := io.ReadAll(bare.Body)
	if err != nil || bare.StatusCode != http.StatusOK || bare.Header.Get("Content-Encoding") != "" ||
		bare.ContentLength != int64(len(b)) || !strings.Contains(string(b), `data-testid="product-card"`) {
		t.Errorf("without Accept-Encoding: %d, Content-Encoding %q, length %d of %d bytes (%v)", bare.StatusCode,
			bare.Header.Get("Content-Encoding"), bare.ContentLength, len(b), err)
	}
}

// TestCompressionEncodings: a browser's usual list prefers gzip; a client that only takes
// deflate gets a deflate stream that the standard library reads back whole; JSON is compressed
// as pages are.
func TestCompressionEncodings(t *testing.T) {
	e := newEnv(t)
	res := e.do(http.MethodGet, "/", nil, "Accept-Encoding", "deflate, gzip, br, zstd")
	res.Body.Close()
	if got := res.Header.Get("Content-Encoding"); got != "gzip" {
		t.Errorf("Accept-Encoding deflate, gzip, br, zstd: Content-Encoding %q, want gzip", got)
	}
	res = e.do(http.MethodGet, "/", nil, "Accept-Encoding", "deflate")
	defer res.Body.Close()
	if got := res.Header.Get("Content-Encoding"); got != "deflate" {
		t.Fatalf("Accept-Encoding deflate: Content-Encoding %q", got)
	}
	body, err := io.ReadAll(flate.NewReader(res.Body))
	if err != nil || !strings.Contains(string(body), `data-testid="product-card"`) || !strings.HasSuffix(strings.TrimSpace(string(body)), "</html>") {
		t.Fatalf("inflated page: %v, %d bytes, ends %q", err, len(body), body[max(0, len(body)-40):])
	}
}

// TestHeadIsGetWithoutBody: HEAD / answers as GET does, without a body (not 405).
func TestHeadIsGetWithoutBody(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{"/", "/healthz"} {
		res := e.do(http.MethodHead, path, nil)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || len(body) != 0 || res.Header.Get("Content-Type") == "" {
			t.Errorf("HEAD %s: %d, %d bytes, Content-Type %q; want 200, no body, the GET's type", path, res.StatusCode, len(body), res.Header.Get("Content-Type"))
		}
	}
}
