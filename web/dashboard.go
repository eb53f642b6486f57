package web

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/alexedwards/scs/v2"
	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// DashboardPath is where the merchant dashboard lives.
const DashboardPath = "/dashboard"

// DashboardGateway is what the dashboard reads of the gateway: its deposit and withdrawal
// lists and one deposit. *gatewayclient.Client satisfies it (the real gateway or the sandbox
// alike).
type DashboardGateway interface {
	ListDeposits(ctx context.Context, f gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error)
	GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error)
	ListWithdrawals(ctx context.Context, f gatewayclient.WithdrawalFilter) (*gatewayclient.Page[gatewayclient.Withdrawal], error)
}

// dashSections are the sections of the dashboard's navigation, in order (settings only when
// the server has the merchant settings).
var dashSections = []string{"overview", "orders", "deposits", "withdrawals", "products", "settings"}

// Session keys of the dashboard.
const (
	sessUserID      = "uid"  // the signed-in user's id
	sessFingerprint = "pwfp" // merchant.PasswordFingerprint at sign-in
	sessCSRF        = "csrf" // the token every form posts back
)

// DashboardCookie is the name of the dashboard's session cookie (path /dashboard only).
const DashboardCookie = "checkout_dashboard"

// dashboard holds the dashboard's handlers and their dependencies.
type dashboard struct {
	s        *Server
	acc      *merchant.Accounts
	gw       DashboardGateway
	sessions *scs.SessionManager
}

// userKey is the context key of the signed-in user.
type userKey struct{}

// dashUser returns the signed-in user of a dashboard request (set by requireUser).
func dashUser(r *http.Request) *merchant.User {
	u, _ := r.Context().Value(userKey{}).(*merchant.User)
	return u
}

// newDashboard sets up the dashboard's session manager on store.
func newDashboard(s *Server, store scs.Store) *dashboard {
	sm := scs.New()
	sm.Store = store
	sm.Lifetime = merchant.SessionLifetime
	sm.IdleTimeout = merchant.SessionIdleTimeout
	sm.Cookie.Name = DashboardCookie
	sm.Cookie.Path = DashboardPath
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = strings.HasPrefix(s.opts.PublicURL, "https://")
	sm.Cookie.Persist = false // gone with the browser; the server ends it after 30 min idle or 12 h anyway
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		s.log.ErrorContext(r.Context(), "dashboard session", "request_id", respond.RequestID(r.Context()), "err", err)
		s.site.Error(w, r, http.StatusInternalServerError)
	}
	return &dashboard{s: s, acc: s.opts.Accounts, gw: s.opts.Gateway, sessions: sm}
}

// dashboardRoutes mounts the dashboard under DashboardPath when the server has accounts.
// Every page but the sign-in needs a session: without one, a browser is sent to the sign-in
// page and anything else gets a 401.
func (s *Server) dashboardRoutes(r chi.Router) {
	if s.dash == nil {
		return
	}
	d := s.dash
	r.Route(DashboardPath, func(r chi.Router) {
		r.Use(d.headers, d.sessions.LoadAndSave)
		r.Get("/login", d.loginPage)
		r.Post("/login", d.login)
		r.Post("/logout", d.logout)
		r.Group(func(r chi.Router) {
			r.Use(d.requireUser, d.checkCSRF)
			r.Get("/", d.overview)
			r.Get("/orders", d.orders)
			r.Get("/orders/{id}", d.order)
			r.Get("/products", d.products)
			r.Post("/products", d.createProduct)
			r.Get("/products/{id}", d.productForm)
			r.Post("/products/{id}", d.updateProduct)
			r.Post("/products/{id}/active", d.toggleProduct)
			d.settingsRoutes(r)
			r.Get("/deposits", d.deposits)
			r.Get("/deposits.csv", d.depositsCSV)
			r.Get("/deposits/{id}", d.deposit)
			r.Get("/withdrawals", d.withdrawals)
			r.Get("/withdrawals.csv", d.withdrawalsCSV)
			r.Get("/withdrawals/{id}", d.withdrawal)
			r.NotFound(d.notFound)
			r.MethodNotAllowed(d.notFound)
		})
	})
}

// headers makes every dashboard answer unframable and uncacheable, whatever
// CHECKOUT_FRAME_ANCESTORS allows for the shopper pages: the dashboard holds the keys to the
// business (clickjacking) and its pages hold customer data (shared caches, Back after sign-out).
func (d *dashboard) headers(next http.Handler) http.Handler {
	csp := respond.ContentSecurityPolicy(nil)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// requireUser lets a request through only with a live session of an existing user whose
// password has not changed since the session began. Otherwise a browser navigating is sent
// to the sign-in page (with the page it wanted, to come back to), and any other client gets a
// 401 in the JSON error shape.
func (d *dashboard) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		id := d.sessions.GetString(ctx, sessUserID)
		u, err := d.acc.SessionUser(ctx, id, d.sessions.GetString(ctx, sessFingerprint))
		if err != nil {
			if !errors.Is(err, merchant.ErrSessionEnded) {
				d.s.site.Fail(w, r, err)
				return
			}
			if id != "" {
				// The user is gone or changed their password: end this session for good.
				_ = d.sessions.Destroy(ctx)
			}
			d.unauthenticated(w, r, id != "")
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, userKey{}, u)))
	})
}

// unauthenticated answers a request without a valid session.
func (d *dashboard) unauthenticated(w http.ResponseWriter, r *http.Request, ended bool) {
	if !wantsHTML(r) {
		d.s.site.FailJSON(w, r, &checkout.Error{Code: checkout.CodeUnauthorized, Message: "sign in to the dashboard first"})
		return
	}
	q := url.Values{}
	if r.Method == http.MethodGet {
		q.Set("next", r.URL.RequestURI())
	}
	if ended {
		q.Set("ended", "1")
	}
	target := DashboardPath + "/login"
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	respond.Redirect(w, r, target)
}

// wantsHTML reports whether the request is a browser's asking for a page.
func wantsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// checkCSRF refuses a POST whose form does not carry the session's token. It backs up the
// cross-origin protection every route has (Sec-Fetch-Site and Origin checks) for browsers
// that send neither header.
func (d *dashboard) checkCSRF(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		if !d.s.site.ParseForm(w, r) {
			return
		}
		if !d.validCSRF(r) {
			d.s.log.WarnContext(r.Context(), "dashboard form without a valid token", "request_id", respond.RequestID(r.Context()))
			d.s.site.Error(w, r, http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// validCSRF compares the posted token with the session's, in constant time.
func (d *dashboard) validCSRF(r *http.Request) bool {
	want := d.sessions.GetString(r.Context(), sessCSRF)
	got := r.PostForm.Get(views.CSRFField)
	return want != "" && subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

// newToken returns 256 random bits, URL-safe.
func newToken() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// dashLink returns a dashboard path with the request's explicit language kept.
func (d *dashboard) link(r *http.Request, path string) string { return respond.Link(r, path) }

// page returns the frame of a dashboard page.
func (d *dashboard) page(r *http.Request, section string) views.DashPage {
	p := views.DashPage{
		Page:      d.s.site.Page(r),
		Section:   section,
		LogoutURL: d.link(r, DashboardPath+"/logout"),
		ShopURL:   d.link(r, "/"),
	}
	p.HomeURL = d.link(r, DashboardPath)
	if u := dashUser(r); u != nil {
		p.User = u.Email
		p.CSRF = d.sessions.GetString(r.Context(), sessCSRF)
		for _, key := range dashSections {
			if key == "settings" && (d.s.opts.Settings == nil || d.s.opts.APIKeys == nil) {
				continue
			}
			path := DashboardPath + "/" + key
			if key == "overview" {
				path = DashboardPath
			}
			p.Nav = append(p.Nav, views.NavItem{Key: key, URL: d.link(r, path)})
		}
	}
	return p
}

// notFound is the dashboard's 404 page (behind the session check, so that a stranger learns
// nothing of the dashboard's routes).
func (d *dashboard) notFound(w http.ResponseWriter, r *http.Request) {
	d.errorPage(w, r, http.StatusNotFound, views.T(respond.Lang(r), "notfound.title"),
		views.T(respond.Lang(r), "notfound.text"), "", "")
}

// errorPage renders an error inside the dashboard's frame.
func (d *dashboard) errorPage(w http.ResponseWriter, r *http.Request, status int, title, msg, detail, back string) {
	v := views.DashErrorView{DashPage: d.page(r, ""), Status: status, Title: title, Message: msg, Detail: detail,
		BackURL: back, RequestID: respond.RequestID(r.Context())}
	d.s.site.Render(w, r, status, views.DashErrorPage(v))
}
