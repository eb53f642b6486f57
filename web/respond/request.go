package respond

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"
	"golang.org/x/text/language"

	"github.com/pixcheckout/pixcheckout/views"
)

type ctxKey int

const (
	requestInfoKey ctxKey = iota
	clientKey             // the request's client (see Forwarded)
)

// requestInfo is what Identify works out once for every request: its id and its page
// language. Never changed after: a page asks for the language at every link it draws, and
// negotiating Accept-Language costs microseconds each time.
type requestInfo struct {
	id       string
	lang     views.Lang
	explicit bool   // lang came from ?lang=
	embed    string // ?embed= when valid (EmbedMode)
}

// requestInfoOf returns the request's requestInfo, or nil outside Identify.
func requestInfoOf(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(requestInfoKey).(*requestInfo)
	return ri
}

// Identify gives each request an id (X-Request-Id) and works out its language, once.
func Identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ri := &requestInfo{id: newRequestID()}
		ri.lang, ri.explicit = langOf(r)
		ri.embed = embedOf(r)
		w.Header().Set("X-Request-Id", ri.id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestInfoKey, ri)))
	})
}

// newRequestID returns 64 random bits in hex: enough to find one request in the logs.
func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// RequestID returns the id Identify gave the request, or "".
func RequestID(ctx context.Context) string {
	if ri := requestInfoOf(ctx); ri != nil {
		return ri.id
	}
	return ""
}

// RoutePattern is the request's route ("/pay/{orderID}"), never its path: ids in paths are the
// shoppers' credentials and stay out of the logs.
func RoutePattern(ctx context.Context) string {
	if rc := chi.RouteContext(ctx); rc != nil && rc.RoutePattern() != "" {
		return rc.RoutePattern()
	}
	return "unmatched"
}

// ClientIP is the address of the request's client: the connection's peer (the remote address
// as it is when it has no port), or, behind a trusted proxy, the client the proxy forwarded
// (see Forwarded). No forwarding header is believed from anyone else: anyone can forge one.
func ClientIP(r *http.Request) string {
	if c, ok := r.Context().Value(clientKey).(client); ok {
		return c.addr
	}
	return peerIP(r)
}

// supported are the page languages as x/text tags, in the order of views.Langs (the default
// first, which the matcher falls back to).
var supported = []language.Tag{language.BrazilianPortuguese, language.English}

// langMatcher picks the best supported language of an Accept-Language header. It is built once
// and only read.
var langMatcher = language.NewMatcher(supported)

// Values of ?embed=, which embed.js puts in the URL of the checkout session it frames: the
// session's pages then show the payment UI only (EmbedMode), and Link keeps the parameter on
// every link and redirect, so that the frame stays so from the form to the receipt.
const (
	EmbedFrame        = "1"       // the payment UI only: no header, footer, language links or order summary
	EmbedFrameSummary = "summary" // the same with the order summary
)

// embedOf returns r's ?embed= when it is one of the Embed* values, else "".
func embedOf(r *http.Request) string {
	switch v := r.URL.Query().Get("embed"); v {
	case EmbedFrame, EmbedFrameSummary:
		return v
	}
	return ""
}

// EmbedMode reports whether the request asks for a checkout session's page framed by embed.js
// (chromeless) and, if so, whether the order summary is wanted too. Only the pages of a
// checkout session honour it.
func EmbedMode(r *http.Request) (chromeless, summary bool) {
	v := embedOf(r)
	if ri := requestInfoOf(r.Context()); ri != nil {
		v = ri.embed
	}
	return v != "", v == EmbedFrameSummary
}

// EmbedLogo reports whether embed.js asked for the store's logo atop the payment UI it frames
// (?logo=1, its logo option): the merchant's page around the frame usually shows its own.
func EmbedLogo(r *http.Request) bool {
	chromeless, _ := EmbedMode(r)
	return chromeless && r.URL.Query().Get("logo") == "1"
}

// Lang is the language of the request's page (see LangOf).
func Lang(r *http.Request) views.Lang {
	l, _ := LangOf(r)
	return l
}

// LangOf returns the request's language: ?lang= when it names a supported language (explicit),
// else the best match of Accept-Language, else pt-BR. Identify works it out once; a request
// that did not go through it is worked out now.
func LangOf(r *http.Request) (l views.Lang, explicit bool) {
	if ri := requestInfoOf(r.Context()); ri != nil {
		return ri.lang, ri.explicit
	}
	return langOf(r)
}

// langOf works out the language of r (see LangOf).
func langOf(r *http.Request) (l views.Lang, explicit bool) {
	if q := r.URL.Query().Get("lang"); q != "" {
		if l, ok := views.ParseLang(q); ok {
			return l, true
		}
	}
	return acceptLanguage(r.Header.Get("Accept-Language")), false
}

// acceptLanguage matches an Accept-Language header against the supported languages.
func acceptLanguage(header string) views.Lang {
	if header == "" {
		return views.PtBR
	}
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil || len(tags) == 0 {
		return views.PtBR
	}
	_, i, conf := langMatcher.Match(tags...)
	if conf == language.No {
		return views.PtBR
	}
	return views.Langs()[i]
}

// Link returns path with ?lang= kept when the request chose its language explicitly, so that
// a shopper without cookies stays in the language they picked, and ?embed= (with ?logo=) kept
// when embed.js asked for the payment UI only (EmbedMode, EmbedLogo).
func Link(r *http.Request, path string) string {
	l, explicit := LangOf(r)
	if explicit {
		path = withParam(path, "lang", string(l))
	}
	if chromeless, summary := EmbedMode(r); summary {
		path = withParam(path, "embed", EmbedFrameSummary)
	} else if chromeless {
		path = withParam(path, "embed", EmbedFrame)
	}
	if EmbedLogo(r) {
		path = withParam(path, "logo", "1")
	}
	return path
}

// withParam adds name=value to the query of path.
func withParam(path, name, value string) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + name + "=" + url.QueryEscape(value)
}
