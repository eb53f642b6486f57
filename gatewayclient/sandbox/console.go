package sandbox

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// The console (GET {base}/sandbox/) is for a person with a browser, who cannot send a bearer
// header. It signs in with the client's id and secret (a form), then carries the same kind
// of access token in a cookie: HttpOnly, SameSite=Strict, Secure over TLS, scoped by the
// browser to the console's path. Its buttons are forms POSTing to console endpoints guarded
// by http.CrossOriginProtection, which call the same functions as the control API. A bearer
// header with the sandbox:control scope also opens it.

// consoleCookie holds the console's access token.
const consoleCookie = "sandbox_console"

// consoleCSS is the console's style sheet, served at sandbox/console.css: a file of the
// console's own origin, which its Content-Security-Policy (style-src 'self') allows.
//
//go:embed console.css
var consoleCSS []byte

// consoleCSSVersion fingerprints consoleCSS, so that pages can let browsers keep it for good.
var consoleCSSVersion = func() string {
	sum := sha256.Sum256(consoleCSS)
	return hex.EncodeToString(sum[:6])
}()

// consoleCSSPath is the style sheet's URL relative to the console's directory.
var consoleCSSPath = "console.css?v=" + consoleCSSVersion

// consoleCSP is the Content-Security-Policy of every console page: no scripts, styles from
// the console's own style sheet only, forms to itself, never framed.
const consoleCSP = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'"

// consoleView is the view model of the console page.
type consoleView struct {
	Loc         consoleLocale
	Base        string // the console's directory relative to the page's URL ("" at the console itself)
	ClientID    string
	Now         string
	Error       string
	Deposits    []depositRow
	Withdrawals []withdrawalRow
}

// depositRow is one deposit of the console.
type depositRow struct {
	ID, CreatedAt, Amount, Origin, Status string
	Actions                               []consoleAction
	Deliveries                            []deliveryRow
}

// consoleAction is a button: the control path, an optional outcome and the label.
type consoleAction struct{ Path, Outcome, Label string }

// withdrawalRow is one withdrawal of the console.
type withdrawalRow struct {
	ID, CreatedAt, Amount, Status string
	Next                          []string
	Deliveries                    []deliveryRow
}

// deliveryRow is one webhook delivery of the console, with every attempt.
type deliveryRow struct {
	Type, URL, Status string
	Attempts          int
	Next              string // when the next attempt is due, for a pending delivery tried before
	Log               []attemptRow
}

// attemptRow is one delivery attempt of the console.
type attemptRow struct {
	At         string
	StatusCode int    // 0 when no answer came
	Error      string // "" for a delivered attempt
	Duration   string
}

// consoleRoutes adds the console to mux.
func (s *Sandbox) consoleRoutes(mux *http.ServeMux) {
	cop := http.NewCrossOriginProtection()
	post := func(h http.HandlerFunc) http.Handler { return cop.Handler(h) }
	mux.HandleFunc("GET /sandbox/{$}", s.handleConsole)
	mux.HandleFunc("GET /sandbox/console.css", handleConsoleCSS)
	mux.HandleFunc("GET /sandbox", func(w http.ResponseWriter, r *http.Request) {
		relativeRedirect(w, "sandbox/", http.StatusMovedPermanently)
	})
	mux.Handle("POST /sandbox/login", post(s.handleConsoleLogin))
	mux.Handle("POST /sandbox/logout", post(s.handleConsoleLogout))
	mux.Handle("POST /sandbox/console/deposits/{id}/{action}", post(s.consoleAction(func(ctx context.Context, p principal, r *http.Request) error {
		_, err := s.ControlDeposit(ctx, p.clientID, r.PathValue("id"), DepositAction(r.PathValue("action")),
			DepositControl{Outcome: r.PostFormValue("outcome")})
		return err
	}, "../../../")))
	mux.Handle("POST /sandbox/console/withdrawals/{id}/{status}", post(s.consoleAction(func(ctx context.Context, p principal, r *http.Request) error {
		_, err := s.MoveWithdrawal(ctx, p.clientID, r.PathValue("id"), gc.WithdrawalStatus(strings.ToUpper(r.PathValue("status"))), "")
		return err
	}, "../../../")))
	mux.Handle("POST /sandbox/console/withdrawals", post(s.consoleAction(func(ctx context.Context, p principal, r *http.Request) error {
		amt, err := strconv.ParseInt(r.PostFormValue("amount"), 10, 64)
		if err != nil {
			return violation(gc.KindInvalidData, "amount", gc.CodeInteger, "must be an integer number of cents")
		}
		_, err = s.CreateWithdrawal(ctx, p.clientID, NewWithdrawal{Amount: gc.Cents(amt)})
		return err
	}, "../")))
	mux.Handle("POST /sandbox/console/clock", post(s.consoleAction(func(ctx context.Context, _ principal, r *http.Request) error {
		secs, err := strconv.ParseInt(r.PostFormValue("seconds"), 10, 64)
		if err != nil {
			return violation(gc.KindInvalidData, "seconds", gc.CodeInteger, "must be an integer")
		}
		return s.AdvanceClock(ctx, secondsToAdvance(secs))
	}, "../")))
}

// localeOf is the console's language for r (see consoleLangOf).
func localeOf(r *http.Request) consoleLocale {
	l, explicit := consoleLangOf(r)
	return consoleLocale{Lang: l, Explicit: explicit}
}

// consolePrincipal authenticates a console request by bearer header or cookie.
func (s *Sandbox) consolePrincipal(r *http.Request) (principal, bool) {
	if r.Header.Get("Authorization") != "" {
		p, err := s.authenticate(r, ScopeSandboxControl)
		return p, err == nil
	}
	c, err := r.Cookie(consoleCookie)
	if err != nil {
		return principal{}, false
	}
	p, err := s.verifyToken(c.Value)
	if err != nil {
		return principal{}, false
	}
	for _, sc := range p.scopes {
		if sc == ScopeSandboxControl {
			return p, true
		}
	}
	return principal{}, false
}

// handleConsole is GET sandbox/: the console, or the sign-in form.
func (s *Sandbox) handleConsole(w http.ResponseWriter, r *http.Request) {
	p, ok := s.consolePrincipal(r)
	if !ok {
		s.renderConsole(w, r, http.StatusOK, consoleLogin(localeOf(r), "", ""))
		return
	}
	s.renderConsolePage(w, r, p, http.StatusOK, "", "")
}

// handleConsoleCSS is GET sandbox/console.css.
func handleConsoleCSS(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/css; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.URL.Query().Get("v") == consoleCSSVersion {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	_, _ = w.Write(consoleCSS)
}

// renderConsolePage renders the console for p, with an error message when not empty. base
// is as in consoleView.
func (s *Sandbox) renderConsolePage(w http.ResponseWriter, r *http.Request, p principal, status int, errMsg, base string) {
	v, err := s.consoleView(r.Context(), p)
	if err != nil {
		s.log.Error("sandbox: console", "err", err)
		http.Error(w, localeOf(r).t("error.internal"), http.StatusInternalServerError)
		return
	}
	v.Error, v.Base, v.Loc = errMsg, base, localeOf(r)
	s.renderConsole(w, r, status, consolePage(v))
}

// renderConsole writes a page with headers that keep it out of frames and caches.
func (s *Sandbox) renderConsole(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := c.Render(r.Context(), w); err != nil {
		s.log.Error("sandbox: render console", "err", err)
	}
}

// handleConsoleLogin is POST sandbox/login.
func (s *Sandbox) handleConsoleLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	loc := localeOf(r)
	id, secret := r.PostFormValue("client_id"), r.PostFormValue("client_secret")
	// Failed sign-ins are counted per remote address and, for a client that exists, per
	// client (so guesses spread over many addresses are slowed too). Past the limit the
	// secret is not even checked. POST /auth/token counts in the same buckets.
	keys := s.loginKeys(r, id)
	if wait, blocked := s.loginBlocked(keys); blocked {
		secs := retryAfterSeconds(wait)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.renderConsole(w, r, http.StatusTooManyRequests,
			consoleLogin(loc, loc.t("signin.throttled", secs), ""))
		return
	}
	c, ok := s.checkCredentials(id, secret)
	if !ok {
		s.loginFailed(keys)
		s.renderConsole(w, r, http.StatusUnauthorized, consoleLogin(loc, loc.t("signin.wrong"), ""))
		return
	}
	tok, err := s.signToken(c.ID, c.Scopes)
	if err != nil {
		s.log.Error("sandbox: console token", "err", err)
		http.Error(w, loc.t("error.internal"), http.StatusInternalServerError)
		return
	}
	// No Path attribute: the browser scopes the cookie to this directory, the console's own,
	// wherever the sandbox is mounted.
	http.SetCookie(w, &http.Cookie{Name: consoleCookie, Value: tok.AccessToken, MaxAge: int(s.tokenTTL / time.Second),
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	relativeRedirect(w, loc.back("./"), http.StatusSeeOther)
}

// handleConsoleLogout is POST sandbox/logout.
func (s *Sandbox) handleConsoleLogout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: consoleCookie, Value: "", MaxAge: -1, HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	relativeRedirect(w, localeOf(r).back("./"), http.StatusSeeOther)
}

// consoleAction wraps a console form action: authenticate, act, then go back to the console
// (back is the relative URL of the console page), or show the console with the error.
func (s *Sandbox) consoleAction(act func(context.Context, principal, *http.Request) error, back string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		loc := localeOf(r)
		p, ok := s.consolePrincipal(r)
		if !ok {
			s.renderConsole(w, r, http.StatusUnauthorized, consoleLogin(loc, loc.t("signin.first"), back))
			return
		}
		if err := act(r.Context(), p, r); err != nil {
			var ae *apiError
			var ve *gc.ValidationError
			switch {
			case errors.As(err, &ae):
				s.renderConsolePage(w, r, p, ae.status, fmt.Sprint(ae.message), back)
			case errors.As(err, &ve):
				s.renderConsolePage(w, r, p, http.StatusUnprocessableEntity, strings.TrimPrefix(ve.Error(), "gatewayclient: "), back)
			default:
				s.log.Error("sandbox: console action", "path", r.URL.Path, "err", err)
				s.renderConsolePage(w, r, p, http.StatusInternalServerError, loc.t("error.internal"), back)
			}
			return
		}
		relativeRedirect(w, loc.back(back), http.StatusSeeOther)
	}
}

// loginKeys are the buckets a sign-in attempt of client id counts in: its remote address,
// and the client when it exists (unknown ids would otherwise fill the limiter).
func (s *Sandbox) loginKeys(r *http.Request, id string) []string {
	keys := []string{"addr:" + remoteHost(r)}
	if _, known := s.clients[id]; known {
		keys = append(keys, "client:"+id)
	}
	return keys
}

// loginBlocked reports whether any of keys has no failed attempt left, and how long until
// it has one.
func (s *Sandbox) loginBlocked(keys []string) (time.Duration, bool) {
	for _, k := range keys {
		if blocked, wait := s.logins.blocked(k); blocked {
			return wait, true
		}
	}
	return 0, false
}

// loginFailed counts a failed attempt against keys.
func (s *Sandbox) loginFailed(keys []string) {
	for _, k := range keys {
		s.logins.allow(k)
	}
}

// tooManyAttempts is the 429 of a throttled sign-in, with its Retry-After.
func tooManyAttempts(wait time.Duration) *apiError {
	secs := retryAfterSeconds(wait)
	return &apiError{status: http.StatusTooManyRequests, retryAfter: secs,
		message: fmt.Sprintf("too many failed attempts: retry after %d seconds", secs)}
}

// remoteHost is the address a request came from, without its port. Forwarding headers are
// not trusted: anyone could send them.
func remoteHost(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// checkCredentials checks a client id and secret in constant time.
func (s *Sandbox) checkCredentials(id, secret string) (ClientConfig, bool) {
	c, ok := s.clients[id]
	want := c.Secret
	if !ok {
		want = "\x00unknown-client"
	}
	if subtle.ConstantTimeCompare([]byte(want), []byte(secret)) != 1 || !ok {
		return ClientConfig{}, false
	}
	return c, true
}

// consoleRecent is how many records of each kind the console lists.
const consoleRecent = 20

// consoleView builds the console's view model for p.
func (s *Sandbox) consoleView(ctx context.Context, p principal) (consoleView, error) {
	if err := s.expireDue(ctx); err != nil {
		return consoleView{}, err
	}
	now := s.clock.Now()
	v := consoleView{ClientID: p.clientID, Now: gc.FormatTime(now)}
	// total is given as a full page: the console shows the newest records, never a count.
	docs, err := s.listDocs(ctx, "deposits", depositWhere(p.clientID, gc.DepositFilter{}), consoleRecent, 1, consoleRecent)
	if err != nil {
		return v, err
	}
	for _, doc := range docs {
		var d gc.Deposit
		if err := json.Unmarshal(doc, &d); err != nil {
			return v, fmt.Errorf("sandbox: decode deposit: %w", err)
		}
		row := depositRow{ID: d.ID, CreatedAt: gc.FormatTime(d.CreatedAt), Amount: formatBRL(d.Amount),
			Origin: string(d.DepositOrigin), Status: string(d.Status), Actions: depositActions(&d)}
		if row.Deliveries, err = s.deliveryRows(ctx, d.ID); err != nil {
			return v, err
		}
		v.Deposits = append(v.Deposits, row)
	}
	docs, err = s.listDocs(ctx, "withdrawals", withdrawalWhere(p.clientID, gc.WithdrawalFilter{}), consoleRecent, 1, consoleRecent)
	if err != nil {
		return v, err
	}
	for _, doc := range docs {
		var wd gc.Withdrawal
		if err := json.Unmarshal(doc, &wd); err != nil {
			return v, fmt.Errorf("sandbox: decode withdrawal: %w", err)
		}
		row := withdrawalRow{ID: wd.ID, CreatedAt: gc.FormatTime(wd.CreatedAt), Amount: formatBRL(wd.Amount), Status: string(wd.Status)}
		for _, to := range withdrawalTransitions[wd.Status] {
			row.Next = append(row.Next, string(to))
		}
		if row.Deliveries, err = s.deliveryRows(ctx, wd.ID); err != nil {
			return v, err
		}
		v.Withdrawals = append(v.Withdrawals, row)
	}
	return v, nil
}

// deliveryRows returns the console rows of a record's webhook deliveries.
func (s *Sandbox) deliveryRows(ctx context.Context, recordID string) ([]deliveryRow, error) {
	ds, err := s.hooks.ob.Deliveries(ctx, outbox.Filter{RecordID: recordID, Limit: 10})
	if err != nil {
		return nil, fmt.Errorf("sandbox: deliveries: %w", err)
	}
	out := make([]deliveryRow, 0, len(ds))
	for _, d := range ds {
		row := deliveryRow{Type: d.Type, URL: d.URL, Status: d.Status, Attempts: d.Attempts}
		if d.Status == outbox.StatusPending && d.Attempts > 0 {
			row.Next = gc.FormatTime(d.NextAttemptAt)
		}
		as, err := s.hooks.ob.Attempts(ctx, d.ID)
		if err != nil {
			return nil, fmt.Errorf("sandbox: attempts: %w", err)
		}
		for _, a := range as {
			row.Log = append(row.Log, attemptRow{At: gc.FormatTime(a.At), StatusCode: a.StatusCode, Error: a.Error,
				Duration: a.Duration.Round(time.Millisecond).String()})
		}
		out = append(out, row)
	}
	return out, nil
}

// depositActions lists the controls that may act on d now.
func depositActions(d *gc.Deposit) []consoleAction {
	var out []consoleAction
	for _, c := range depositControls {
		if c.allowed(d) {
			out = append(out, consoleAction{Path: string(c.action), Outcome: c.outcome, Label: c.label})
		}
	}
	return out
}

// formatBRL formats cents as "R$ 1.234,56".
func formatBRL(c gc.Cents) string {
	neg := c < 0
	if neg {
		c = -c
	}
	whole := strconv.FormatInt(int64(c/100), 10)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(r)
	}
	s := fmt.Sprintf("R$ %s,%02d", b.String(), int64(c%100))
	if neg {
		s = "-" + s
	}
	return s
}

// relativeRedirect answers with a relative Location, which the browser resolves against the
// URL it asked for. (http.Redirect would make it absolute from the path the handler sees,
// which lacks the prefix the sandbox is mounted under.)
func relativeRedirect(w http.ResponseWriter, location string, status int) {
	w.Header().Set("Location", location)
	w.WriteHeader(status)
}
