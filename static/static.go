// Package static holds the checkout's stylesheet, scripts and images, embedded in the binary and
// served under fingerprinted names ("/static/app.3f9a1c2b.css") so browsers may cache them for a
// year: a changed file gets a new name, so no stale copy is ever used.
//
// The scripts are progressive enhancement only (every page works without them) and CSP-friendly
// (no inline code): mask.js formats CPF/CNPJ, CEP and phone inputs marked data-mask; form.js
// focuses the customer form's error summary, checks CPF/CNPJ, e-mail, phone and CEP as the
// shopper leaves each (the server's rules) and fills the address in from a CEP; pix.js runs
// the PIX page's countdown, copy button and live status (see the comment at its top for the
// data-* attributes it reads); order.js keeps the order page (receipt, canceled) live;
// pos.js and pos.css are the point of sale's (its keypad, and its sale followed through
// follow.js), loaded without app.css's dashboard companion so that its pages stay light;
// ticket.css is its receipt on a thermal printer's roll (sized by receipt.js).
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
)

// Prefix is the URL path under which Handler serves the assets.
const Prefix = "/static/"

// CacheControl is sent with every asset: fingerprinted names never change content.
const CacheControl = "public, max-age=31536000, immutable"

//go:embed files
var embedded embed.FS

// fileType returns the Content-Type of a file extension and whether a gzip copy is worth keeping
// (images such as PNG are already compressed). The list is fixed so that answers do not depend on
// the machine's MIME tables.
func fileType(ext string) (contentType string, compress bool, ok bool) {
	switch ext {
	case ".css":
		return "text/css; charset=utf-8", true, true
	case ".js":
		return "text/javascript; charset=utf-8", true, true
	case ".svg":
		return "image/svg+xml", true, true
	case ".json":
		return "application/json", true, true
	case ".txt":
		return "text/plain; charset=utf-8", true, true
	case ".png":
		return "image/png", false, true
	case ".ico":
		return "image/x-icon", false, true
	}
	return "", false, false
}

// asset is one file with its precomputed representations.
type asset struct {
	name        string // original name, "app.css"
	fingerprint string // "app.3f9a1c2b.css"
	contentType string
	body        []byte
	gzipped     []byte // nil when not worth it
	etag        string // strong ETag of body
	integrity   string // "sha256-…" for Subresource Integrity
}

// Assets is an immutable set of fingerprinted files. Build it once with New and share it: it is
// safe for concurrent use.
type Assets struct {
	byName        map[string]*asset // "app.css"
	byFingerprint map[string]*asset // "app.3f9a1c2b.css"
}

// New returns the assets embedded in this package. They are fixed when the program is built,
// so they are read, fingerprinted and compressed once per process and every caller shares that
// immutable set (a test suite builds hundreds of servers). It panics only if the embedded files
// are unreadable, which a test of this package rules out.
func New() *Assets { return embeddedAssets() }

var embeddedAssets = sync.OnceValue(func() *Assets {
	sub, err := fs.Sub(embedded, "files")
	if err != nil {
		panic(fmt.Sprintf("static: %v", err))
	}
	a, err := NewFS(sub)
	if err != nil {
		panic(fmt.Sprintf("static: %v", err))
	}
	return a
})

// NewFS fingerprints every regular file at the top level of fsys.
func NewFS(fsys fs.FS) (*Assets, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("static: reading files: %w", err)
	}
	a := &Assets{byName: map[string]*asset{}, byFingerprint: map[string]*asset{}}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		body, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("static: reading %s: %w", e.Name(), err)
		}
		as, err := newAsset(e.Name(), body)
		if err != nil {
			return nil, err
		}
		a.byName[as.name] = as
		a.byFingerprint[as.fingerprint] = as
	}
	return a, nil
}

// cssComment matches a stylesheet's comments: they explain the rules to whoever edits them and
// are not sent to browsers (a shopper on a phone pays for every byte of the first paint).
var cssComment = regexp.MustCompile(`(?s)/\*.*?\*/\n?`)

func newAsset(name string, body []byte) (*asset, error) {
	ext := path.Ext(name)
	if ext == ".css" {
		body = cssComment.ReplaceAll(body, nil)
	}
	sum := sha256.Sum256(body)
	ct, compress, ok := fileType(ext)
	if !ok {
		return nil, fmt.Errorf("static: %s: no content type known for %q", name, ext)
	}
	as := &asset{
		name:        name,
		fingerprint: strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:4]) + ext,
		contentType: ct,
		body:        body,
		etag:        `"` + hex.EncodeToString(sum[:16]) + `"`,
		integrity:   "sha256-" + base64.StdEncoding.EncodeToString(sum[:]),
	}
	if compress {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return nil, fmt.Errorf("static: gzip %s: %w", name, err)
		}
		if _, err := zw.Write(body); err != nil {
			return nil, fmt.Errorf("static: gzip %s: %w", name, err)
		}
		if err := zw.Close(); err != nil {
			return nil, fmt.Errorf("static: gzip %s: %w", name, err)
		}
		if buf.Len() < len(body) {
			as.gzipped = buf.Bytes()
		}
	}
	return as, nil
}

// Path returns the URL path of the named file with its fingerprint, such as
// "/static/app.3f9a1c2b.css". For a name it does not know it returns Prefix+name, which Handler
// answers with 404, so a typo shows up as a broken link rather than a crash.
func (a *Assets) Path(name string) string {
	if as, ok := a.byName[name]; ok {
		return Prefix + as.fingerprint
	}
	return Prefix + name
}

// Integrity returns the Subresource Integrity value ("sha256-…") of the named file, or "" if
// the file is unknown.
func (a *Assets) Integrity(name string) string {
	if as, ok := a.byName[name]; ok {
		return as.integrity
	}
	return ""
}

// Names lists the original names of every file, sorted.
func (a *Assets) Names() []string {
	names := make([]string, 0, len(a.byName))
	for n := range a.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Size returns the size in bytes of the named file and of its gzip copy (0 when none is kept).
func (a *Assets) Size(name string) (plain, gzipped int) {
	as, ok := a.byName[name]
	if !ok {
		return 0, 0
	}
	return len(as.body), len(as.gzipped)
}

// Stable serves the named file at a URL of its own that never changes (embed.js, which
// merchants' pages load from a fixed address): cached briefly (maxAge), revalidated with its
// ETag, so that a new version reaches every page within maxAge. It panics for an unknown name,
// which only a programming error can give.
func (a *Assets) Stable(name string, maxAge time.Duration) http.Handler {
	as, ok := a.byName[name]
	if !ok {
		panic("static: no file " + name)
	}
	cc := fmt.Sprintf("public, max-age=%d", int(maxAge/time.Second))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.serveAsset(w, r, as, cc)
	})
}

// Handler serves the files under their fingerprinted names, whether or not the request path
// still carries Prefix (so it may be mounted with or without http.StripPrefix). Unknown names,
// and names with an outdated fingerprint, get 404; only GET and HEAD are allowed.
func (a *Assets) Handler() http.Handler {
	return http.HandlerFunc(a.serve)
}

func (a *Assets) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, strings.TrimSuffix(Prefix, "/")), "/")
	as, ok := a.byFingerprint[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	a.serveAsset(w, r, as, CacheControl)
}

// serveAsset answers as with cacheControl, gzipped when the client accepts it.
func (a *Assets) serveAsset(w http.ResponseWriter, r *http.Request, as *asset, cacheControl string) {
	h := w.Header()
	h.Set("Content-Type", as.contentType)
	h.Set("Cache-Control", cacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	body, etag := as.body, as.etag
	if as.gzipped != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r.Header.Values("Accept-Encoding")) {
			h.Set("Content-Encoding", "gzip")
			body = as.gzipped
			// Each representation has its own validator.
			etag = strings.TrimSuffix(as.etag, `"`) + `-gz"`
		}
	}
	h.Set("ETag", etag)
	// ServeContent answers If-None-Match with 304, Range requests and HEAD.
	http.ServeContent(w, r, as.fingerprint, time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reports whether an Accept-Encoding header lists gzip (or *) with a non-zero
// quality.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "*" {
				continue
			}
			if q, ok := strings.CutPrefix(strings.ReplaceAll(strings.ToLower(params), " ", ""), "q="); ok && zeroQuality(q) {
				continue
			}
			return true
		}
	}
	return false
}

// zeroQuality reports whether a qvalue ("0", "0.0", "0.000") is zero.
func zeroQuality(q string) bool {
	return strings.Trim(strings.TrimPrefix(q, "0"), ".0") == "" && strings.HasPrefix(q, "0")
}
