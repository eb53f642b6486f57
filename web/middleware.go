package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/pixcheckout/pixcheckout/web/respond"
)

// MaxWebhookBytes bounds a webhook's body: a payload carries one record.
const MaxWebhookBytes = 1 << 20

// statusWriter records the status and size of a response for the access log. It unwraps to the
// underlying writer so that http.ResponseController reaches Flush and SetWriteDeadline.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Flush lets streaming handlers flush through the wrapper.
func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	http.NewResponseController(w.ResponseWriter).Flush() //nolint:errcheck // best effort, as http.Flusher
}

// Unwrap exposes the underlying writer to http.ResponseController.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests logs one access line per request through Options.Site.Log, written before the
// response's last bytes leave. Only the route is logged, never the path's ids, the query
// string, a header or the body: ids and headers are credentials, bodies carry customer data.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		status := sw.status
		if status == 0 {
			status = http.StatusOK
		}
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		// The route pattern, not the path: cart and order ids are the shoppers' credentials.
		ctx := r.Context()
		s.site.Log.LogAttrs(ctx, level, "request", slog.String("request_id", respond.RequestID(ctx)),
			slog.String("method", r.Method), slog.String("route", respond.RoutePattern(ctx)),
			slog.Int("status", status), slog.Int64("bytes", sw.bytes), slog.Duration("duration", time.Since(start)))
	})
}

// recoverPanics turns a panic into a 500 page that reveals nothing of the program; the panic
// and its stack go to the log.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler { //nolint:errorlint // the sentinel is compared as net/http does
				panic(v)
			}
			s.site.Log.ErrorContext(r.Context(), "panic", "request_id", respond.RequestID(r.Context()),
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if isAPI(r) {
				apiError(w, r, http.StatusInternalServerError, "internal", "internal error")
				return
			}
			s.site.Error(w, r, http.StatusInternalServerError)
		}()
		next.ServeHTTP(w, r)
	})
}

// securityHeaders sets the headers every response carries (a JSON answer replaces some of them:
// see respond.SetJSONHeaders); https (the public URL's scheme) adds HSTS to every answer.
func (s *Server) securityHeaders(https bool) func(http.Handler) http.Handler {
	configured := respond.ContentSecurityPolicy(s.frameAncestors)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			csp, framable := configured, len(s.frameAncestors) > 0
			if s.frameOrigins != nil {
				ancestors := s.ancestors(r)
				csp, framable = respond.ContentSecurityPolicy(ancestors), len(ancestors) > 0
			}
			h.Set("Content-Security-Policy", csp)
			h.Set("X-Content-Type-Options", "nosniff")
			// Order and cart ids are in the URLs: never leak them to another site.
			h.Set("Referrer-Policy", "no-referrer")
			h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
			h.Set("Cross-Origin-Opener-Policy", "same-origin")
			if !framable {
				// For browsers without CSP frame-ancestors. Not sent when merchants may embed the
				// checkout: X-Frame-Options cannot name several origins.
				h.Set("X-Frame-Options", "DENY")
			}
			if respond.HTTPS(r) || https {
				h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
			}
			next.ServeHTTP(w, r)
		})
	}
}

// ancestors returns the origins allowed to frame the shopper pages: the configured ones
// and those of the merchant's settings.
func (s *Server) ancestors(r *http.Request) []string {
	if s.frameOrigins == nil {
		return s.frameAncestors
	}
	extra, err := s.frameOrigins(r.Context())
	if err != nil {
		s.site.Log.WarnContext(r.Context(), "reading the frame origins of the merchant settings", "err", err)
	}
	if len(extra) == 0 {
		return s.frameAncestors
	}
	return append(append(make([]string, 0, len(s.frameAncestors)+len(extra)), s.frameAncestors...), extra...)
}

// crossOrigin refuses cross-site unsafe requests (403) on every route but the webhook receiver,
// which is called server to server and authenticated by its signature.
func (s *Server) crossOrigin(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.AddInsecureBypassPattern("POST " + WebhookPath)
	// The merchant API is authenticated by a bearer key, never by a cookie: a cross-site request
	// carries no credential, so there is nothing to forge (and its errors must stay JSON).
	cop.AddInsecureBypassPattern("/api/")
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.site.Log.WarnContext(r.Context(), "cross-origin request refused", "request_id", respond.RequestID(r.Context()), "method", r.Method)
		s.site.Error(w, r, http.StatusForbidden)
	}))
	return cop.Handler(next)
}
