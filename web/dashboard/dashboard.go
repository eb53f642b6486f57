// Package dashboard is the merchant dashboard: sign-in with its own cookie sessions and CSRF
// tokens, the overview, the shop's orders and products, the gateway's deposits and withdrawals
// (filtered by the gateway API's own parameters, exported as CSV) and the merchant settings
// (notifications, framing, API keys), the team (roles on every route, users and invitations,
// the own account, two-factor sign-in, the audit log). It is an http.Handler that the server (package web)
// mounts at Path, behind its middleware; what it answers with (pages, error pages, the JSON
// error shape, the request's language) it shares with the shopper pages through package
// web/respond. Its README.md says how it behaves.
package dashboard

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/alexedwards/scs/v2/memstore"
	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/sealed"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Path is where the merchant dashboard lives.
const Path = "/dashboard"

// Cookie is the name of the dashboard's session cookie (path /dashboard only).
const Cookie = "checkout_dashboard"

// Gateway is what the dashboard reads of the gateway: its deposit and withdrawal lists and
// one deposit. *gatewayclient.Client satisfies it (the real gateway or the sandbox alike).
type Gateway interface {
	ListDeposits(ctx context.Context, f gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error)
	GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error)
	ListWithdrawals(ctx context.Context, f gatewayclient.WithdrawalFilter) (*gatewayclient.Page[gatewayclient.Withdrawal], error)
}

// Options are the dependencies of a Dashboard. Site, Service, Accounts and Gateway are
// required.
type Options struct {
	// Site is what every page shares with the shopper pages, and the log.
	Site *respond.Site
	// Service is the shop: its orders, products and figures.
	Service *checkout.Service
	// Accounts are the dashboard's users and their sign-in.
	Accounts *team.Accounts
	// Gateway lists the gateway's deposits and withdrawals.
	Gateway Gateway
	// Settings and Keys, both set, give the settings page (notifications, framing, API keys).
	Settings *settings.Manager
	Keys     *apikeys.Keys
	// Notifications, when set, shows the latest notifications on the settings page.
	Notifications *notify.DeliveryLog
	// Audit, when set, records who changed what and gives the audit log's page.
	Audit *audit.Log
	// Sessions keeps the dashboard's sessions (default: in memory, for tests; the program
	// gives the database's, so that a restart or another instance keeps them).
	Sessions scs.Store
	// SecretKeys, when set, seal what the sessions keep of a secret (a TOTP secret being
	// enrolled), since the sessions live in the database (nil: kept as they are, for tests).
	SecretKeys *sealed.Keys
	// PublicURL is the checkout's public address; https makes the session cookie Secure.
	PublicURL string
	// Exports, when set, runs exports of more than ExportThreshold rows (default
	// DefaultExportThreshold) in the background, in workers that live as long as Context
	// (default context.Background()); without it every export streams.
	Exports         *exports.Manager
	ExportThreshold int
	// ExportBytesCap is how many bytes all exports' files may keep in the store (0:
	// maxExportBytesKept).
	ExportBytesCap int64
	Context        context.Context
	// DataDir is the data dir: the temporary files of .xlsx exports go to its subfolder
	// "tmp" (they hold personal data: never the system's temp dir). Empty: no .xlsx exports.
	DataDir string
	// Mail and MailComposer, both set, give the e-mail log (/dashboard/mail); MailConfigured
	// says whether an SMTP server sends the messages (otherwise they are kept, unsent).
	Mail           *mail.Log
	MailComposer   *mail.Composer
	MailConfigured bool
	// Alerts, when set, gives the account page its choice of e-mail alerts. ExportReady, when
	// set, makes a background export's alert, written with the job's end.
	Alerts      *team.Alerts
	ExportReady func(ctx context.Context, j *exports.Job, rows int) ([]checkout.OutboxMessage, error)
	// Displays, when set, gives the customers' displays of the point of sale: a terminal's
	// pairing code and the owners' list (/dashboard/pos/displays).
	Displays *pos.Displays
	// Charges, when set, gives the charges with due dates (/dashboard/charges).
	Charges *charges.Manager
	// Subscriptions, when set with Charges, gives the subscriptions (/dashboard/subscriptions).
	Subscriptions *subscriptions.Manager
	// POS, when set, gives the point of sale (/dashboard/pos) and its terminals.
	POS *pos.Manager
	// ReceiptMail, when set with Mail, makes a paid order's receipt e-mail to an address typed
	// at the point of sale (shopper.Announcer.Receipt): the sale's "send the receipt".
	ReceiptMail func(ctx context.Context, o *checkout.Order, to string) (checkout.OutboxMessage, error)
}

// Dashboard is the merchant dashboard, an http.Handler to mount at Path. Every page but the
// sign-in needs a session: without one, a browser is sent to the sign-in page and anything
// else gets a 401.
type Dashboard struct {
	site          *respond.Site
	svc           *checkout.Service
	accounts      *team.Accounts
	gateway       Gateway           // masked (personal.go): what every page reads
	fullGateway   Gateway           // unmasked: for an owner's unmasked export only
	settings      *settings.Manager // nil: no settings page
	keys          *apikeys.Keys
	notifications *notify.DeliveryLog // nil: none listed
	audit         *audit.Log          // nil: nothing recorded, no audit page
	// The e-mail log (nil: no e-mail page), its composer, and whether a server sends.
	mail           *mail.Log
	mailComposer   *mail.Composer
	mailConfigured bool
	alerts         *team.Alerts           // nil: no choice of alerts
	charges        *charges.Manager       // nil: no charges
	subscriptions  *subscriptions.Manager // nil: no subscriptions
	pos            *pos.Manager           // nil: no point of sale
	displays       *pos.Displays          // nil: no customers' displays
	// receiptMail makes a sale's receipt e-mail (nil: the point of sale sends none).
	receiptMail func(ctx context.Context, o *checkout.Order, to string) (checkout.OutboxMessage, error)
	// idleNow is the clock of the sessions' idle limits: the wall clock, as scs's own (the
	// shop's clock may jump, in tests, by days).
	idleNow     func() time.Time
	exportReady func(ctx context.Context, j *exports.Job, rows int) ([]checkout.OutboxMessage, error)
	publicURL   string
	sealer      *sealed.Keys // nil: session secrets kept as they are
	sessions    *scs.SessionManager
	handler     http.Handler

	// The background exports (nil: every export streams), the most rows an export streams,
	// and the life of the exports' workers.
	exports         *exports.Manager
	exportThreshold int
	// exportsRunningCap and exportBytesCap are maxRunningExportsAll and Options.ExportBytesCap.
	exportsRunningCap int
	exportBytesCap    int64
	background        context.Context
	workers           sync.WaitGroup // the background exports' workers
	exportTmp         string         // where .xlsx exports keep their temporary files ("" none)
}

// New returns the dashboard of opts.
func New(opts Options) (*Dashboard, error) {
	if opts.Site == nil || opts.Site.Log == nil || opts.Service == nil || opts.Accounts == nil || opts.Gateway == nil {
		return nil, errors.New("dashboard: Options.Site (with its Log), Service, Accounts and Gateway are required")
	}
	if opts.Sessions == nil {
		// No cleanup goroutine: it could not be stopped, and a test's sessions die with it.
		opts.Sessions = memstore.NewWithCleanupInterval(0)
	}
	d := &Dashboard{site: opts.Site, svc: opts.Service, accounts: opts.Accounts,
		gateway: maskingGateway{opts.Gateway}, fullGateway: opts.Gateway,
		notifications: opts.Notifications, audit: opts.Audit, publicURL: strings.TrimSuffix(opts.PublicURL, "/"),
		sealer: opts.SecretKeys, alerts: opts.Alerts, exportReady: opts.ExportReady, charges: opts.Charges,
		subscriptions: opts.Subscriptions, pos: opts.POS, idleNow: time.Now}
	d.displays, d.receiptMail = opts.Displays, opts.ReceiptMail
	if opts.Mail != nil && opts.MailComposer != nil {
		d.mail, d.mailComposer, d.mailConfigured = opts.Mail, opts.MailComposer, opts.MailConfigured
	}
	if opts.Settings != nil && opts.Keys != nil {
		d.settings, d.keys = opts.Settings, opts.Keys
	}
	d.exports, d.exportThreshold, d.background = opts.Exports, opts.ExportThreshold, opts.Context
	if opts.DataDir != "" {
		d.exportTmp = filepath.Join(opts.DataDir, "tmp")
	}
	d.exportsRunningCap, d.exportBytesCap = maxRunningExportsAll, opts.ExportBytesCap
	if d.exportBytesCap <= 0 {
		d.exportBytesCap = maxExportBytesKept
	}
	if d.exportThreshold <= 0 {
		d.exportThreshold = DefaultExportThreshold
	}
	if d.background == nil {
		d.background = context.Background()
	}
	sm := scs.New()
	sm.Store = opts.Sessions
	sm.Lifetime = team.SignInLifetime
	// The store keeps a session as long as the longest idle limit (a cashier's shift);
	// requireUser holds each session to its role's (idleLimit).
	sm.IdleTimeout = team.MaxSignInIdle
	sm.Cookie.Name = Cookie
	sm.Cookie.Path = Path
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = strings.HasPrefix(opts.PublicURL, "https://")
	sm.Cookie.Persist = false // gone with the browser; the server ends it after 30 min idle or 12 h anyway
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		d.site.Log.ErrorContext(r.Context(), "dashboard session", "request_id", respond.RequestID(r.Context()), "err", err)
		d.site.Error(w, r, http.StatusInternalServerError)
	}
	d.sessions = sm
	d.handler = d.routes()
	return d, nil
}

// ServeHTTP serves the dashboard's routes, below Path.
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) { d.handler.ServeHTTP(w, r) }

// routes is the dashboard's route table, below Path. The sign-in and sign-out need no
// session; everything else does (requireUser), unknown paths included, so that a stranger
// learns nothing of the routes, and every form carries the session's token (checkCSRF). Every
// route of a signed-in user is in table, with the permission it needs.
func (d *Dashboard) routes() http.Handler {
	r := chi.NewRouter()
	r.Use(d.headers, d.sessions.LoadAndSave)
	r.Get("/login", d.loginPage)
	r.Post("/login", d.login)
	r.Post("/logout", d.logout)
	r.Get("/login/2fa", d.secondFactorPage)
	r.Post("/login/2fa", d.secondFactor)
	r.Get("/invite/{token}", d.invitePage)
	r.Post("/invite/{token}", d.acceptInvitation)
	r.Get("/password-reset", d.resetRequestPage)
	r.Post("/password-reset", d.requestReset)
	r.Get("/password-reset/{token}", d.resetPage)
	r.Post("/password-reset/{token}", d.reset)
	r.Group(func(r chi.Router) {
		r.Use(d.requireUser, d.checkCSRF, d.checkParams)
		for _, rt := range d.table() {
			r.With(d.allow(rt.Permission)).Method(rt.Method, rt.Pattern, rt.handler)
		}
		r.NotFound(d.notFound)
		r.MethodNotAllowed(d.notFound)
	})
	return r
}

// Route is one route of a signed-in user and the permission (team.Permissions) it needs.
type Route struct {
	Method, Pattern string // as chi routes them, below Path
	Permission      team.Permission
	handler         http.HandlerFunc
}

// Routes lists the routes of signed-in users with the permission each needs: the route table
// itself, for its documentation and its tests.
func (d *Dashboard) Routes() []Route { return d.table() }

// table is the route table of signed-in users. A route is served only through it, so none
// can go without a permission. It is long because it is the table, a line per route with its
// permission, read in one place.
func (d *Dashboard) table() []Route {
	get, post := http.MethodGet, http.MethodPost
	rt := []Route{
		{get, "/", team.PermOrdersRead, d.overview},
		{get, "/orders", team.PermOrdersRead, d.orders},
		{get, "/orders.csv", team.PermExport, d.ordersExport},
		{get, "/orders.xlsx", team.PermExport, d.ordersExport},
		{get, "/orders/{id}", team.PermOrdersRead, d.order},
		{post, "/orders/{id}/personal-data", team.PermPersonalData, d.showPersonalData},
		{post, "/orders/{id}/ship", team.PermOrdersWrite, d.shipOrder},
		{post, "/orders/{id}/deliver", team.PermOrdersWrite, d.deliverOrder},
		{post, "/orders/{id}/cancel", team.PermOrdersWrite, d.cancelOrder},
		{post, "/orders/{id}/notes", team.PermOrdersWrite, d.noteOrder},
		{post, "/orders/{id}/refunds", team.PermOrdersWrite, d.recordRefund},
		{get, "/refunds", team.PermOrdersRead, d.refunds},
		{get, "/products", team.PermProductsRead, d.products},
		{post, "/products", team.PermProductsWrite, d.createProduct},
		{get, "/products/{id}", team.PermProductsWrite, d.productForm},
		{post, "/products/{id}", team.PermProductsWrite, d.updateProduct},
		{post, "/products/{id}/active", team.PermProductsWrite, d.toggleProduct},
		{get, "/links", team.PermProductsRead, d.links},
		{post, "/links", team.PermProductsWrite, d.createLink},
		{get, "/links/{id}", team.PermProductsRead, d.link},
		{post, "/links/{id}", team.PermProductsWrite, d.updateLink},
		{post, "/links/{id}/active", team.PermProductsWrite, d.toggleLink},
		{post, "/links/{id}/duplicate", team.PermProductsWrite, d.duplicateLink},
		{get, "/links/{id}/poster.svg", team.PermProductsRead, d.poster},
		{post, "/products/{id}/image", team.PermProductsWrite, d.uploadImage},
		{get, "/deposits", team.PermGatewayRead, d.deposits},
		{get, "/deposits.csv", team.PermExport, d.depositsCSV},
		{get, "/deposits.xlsx", team.PermExport, d.depositsCSV},
		{get, "/deposits/{id}", team.PermGatewayRead, d.deposit},
		{get, "/withdrawals", team.PermGatewayRead, d.withdrawals},
		{get, "/withdrawals.csv", team.PermExport, d.withdrawalsCSV},
		{get, "/withdrawals.xlsx", team.PermExport, d.withdrawalsCSV},
		{get, "/withdrawals/{id}", team.PermGatewayRead, d.withdrawal},
		// The reconciliation reads both the orders and the gateway: it needs both permissions.
		{get, "/reconciliation", team.PermGatewayRead, d.needs(team.PermOrdersRead, d.reconciliation)},
		{get, "/reconciliation.csv", team.PermExport, d.needs(team.PermOrdersRead, d.needs(team.PermGatewayRead, d.reconciliationExport))},
		{get, "/reconciliation.xlsx", team.PermExport, d.needs(team.PermOrdersRead, d.needs(team.PermGatewayRead, d.reconciliationExport))},
		{get, "/users", team.PermUsers, d.usersPage},
		{post, "/users", team.PermUsers, d.invite},
		{post, "/users/{id}/role", team.PermUsers, d.changeRole},
		{post, "/users/{id}/remove", team.PermUsers, d.removeUser},
		{post, "/users/invitations/{id}/withdraw", team.PermUsers, d.withdrawInvitation},
		{get, "/account", team.PermAccount, d.accountPage},
		{post, "/account/password", team.PermAccount, d.changePassword},
		{post, "/account/sessions/{id}/end", team.PermAccount, d.endSession},
		{post, "/account/2fa", team.PermAccount, d.startTOTP},
		{post, "/account/2fa/confirm", team.PermAccount, d.confirmTOTP},
		{post, "/account/2fa/disable", team.PermAccount, d.disableTOTP},
		{post, "/users/2fa-required", team.PermUsers, d.requireTOTP},
		{get, "/personal-data", team.PermPersonalData, d.subjectsPage},
		{post, "/personal-data", team.PermPersonalData, d.searchSubject},
		{post, "/personal-data/export", team.PermPersonalData, d.exportSubject},
		{post, "/personal-data/anonymise", team.PermPersonalData, d.anonymiseSubject},
	}
	if d.audit != nil {
		rt = append(rt,
			Route{get, "/audit", team.PermAudit, d.auditPage},
			Route{get, "/audit.csv", team.PermAudit, d.auditCSV},
			Route{get, "/audit.xlsx", team.PermAudit, d.auditCSV})
	}
	if d.alerts != nil {
		rt = append(rt, Route{post, "/account/alerts", team.PermAccount, d.saveAlerts})
	}
	if d.charges != nil {
		rt = append(rt,
			Route{get, "/charges", team.PermChargesRead, d.chargesPage},
			Route{post, "/charges", team.PermChargesWrite, d.createCharge},
			Route{get, "/charges.csv", team.PermExport, d.needs(team.PermChargesRead, d.chargesExport)},
			Route{get, "/charges.xlsx", team.PermExport, d.needs(team.PermChargesRead, d.chargesExport)},
			Route{get, "/charges/import", team.PermChargesWrite, d.chargeImportPage},
			Route{post, "/charges/import", team.PermChargesWrite, d.importCharges},
			Route{get, "/charges/{id}", team.PermChargesRead, d.chargePage},
			Route{post, "/charges/{id}/personal-data", team.PermPersonalData, d.showChargePersonal},
			Route{post, "/charges/{id}/whatsapp", team.PermChargesWrite, d.sendWhatsApp},
			Route{post, "/charges/{id}/cancel", team.PermChargesWrite, d.cancelCharge})
	}
	if d.subscriptions != nil && d.charges != nil {
		rt = append(rt,
			Route{get, "/subscriptions", team.PermChargesRead, d.subscriptionsPage},
			Route{post, "/subscriptions", team.PermChargesWrite, d.createSubscription},
			Route{get, "/subscriptions/{id}", team.PermChargesRead, d.subscriptionPage},
			Route{post, "/subscriptions/{id}/amount", team.PermChargesWrite, d.setSubscriptionAmount},
			Route{post, "/subscriptions/{id}/pause", team.PermChargesWrite, d.changeSubscription("paused", (*subscriptions.Manager).Pause)},
			Route{post, "/subscriptions/{id}/resume", team.PermChargesWrite, d.changeSubscription("resumed", (*subscriptions.Manager).Resume)},
			Route{post, "/subscriptions/{id}/cancel", team.PermChargesWrite, d.changeSubscription("canceled", (*subscriptions.Manager).Cancel)})
	}
	if d.pos != nil {
		rt = append(rt,
			Route{get, "/pos", team.PermPOS, d.posPage},
			Route{get, "/pos/manifest.webmanifest", team.PermPOS, d.posManifest},
			Route{post, "/pos/sales", team.PermPOS, d.createSale},
			Route{get, "/pos/sales/{id}", team.PermPOS, d.salePage},
			Route{post, "/pos/sales/{id}/cancel", team.PermPOS, d.cancelSale},
			Route{post, "/pos/sales/{id}/renew", team.PermPOS, d.renewSale},
			Route{get, "/pos/sales/{id}/receipt", team.PermPOS, d.receiptPage},
			Route{post, "/pos/sales/{id}/receipt/email", team.PermPOS, d.mailReceipt},
			Route{post, "/pos/sales/{id}/receipt/whatsapp", team.PermPOS, d.whatsAppReceipt},
			Route{get, "/pos/closing", team.PermPOS, d.closingPage},
			Route{get, "/pos/closing.csv", team.PermExport, d.needs(team.PermPOS, d.closingExport)},
			Route{get, "/pos/closing.xlsx", team.PermExport, d.needs(team.PermPOS, d.closingExport)},
			Route{get, "/pos/terminals", team.PermStore, d.terminalsPage},
			Route{post, "/pos/terminals", team.PermStore, d.createTerminal},
			Route{post, "/pos/terminals/{id}", team.PermStore, d.renameTerminal},
			Route{post, "/pos/terminals/{id}/archive", team.PermStore, d.archiveTerminal},
			Route{post, "/pos/settings", team.PermStore, d.savePOSSettings},
			Route{post, "/pos/cashiers/{id}", team.PermStore, d.saveCashierTerminals})
	}
	if d.displays != nil { // the customers' displays of the point of sale (pos_displays.go)
		rt = append(rt,
			Route{get, "/pos/displays", team.PermStore, d.displaysPage},
			Route{post, "/pos/displays/code", team.PermPOS, d.newDisplayCode},
			Route{post, "/pos/displays/{id}/revoke", team.PermStore, d.revokeDisplay})
	}
	if d.mail != nil {
		rt = append(rt,
			Route{get, "/mail", team.PermMail, d.mailPage},
			Route{get, "/mail/{id}", team.PermMail, d.mailMessage},
			Route{get, "/mail/{id}/html", team.PermPersonalData, d.mailHTML},
			Route{post, "/mail/{id}/resend", team.PermMail, d.resendMail},
			Route{post, "/mail/test", team.PermMail, d.testMail},
			Route{post, "/mail/suppressions/clear", team.PermPersonalData, d.clearSuppression})
	}
	if d.exports != nil {
		rt = append(rt,
			Route{get, "/exports", team.PermExport, d.exportsPage},
			Route{get, "/exports/{id}", team.PermExport, d.exportPage},
			Route{get, "/exports/{id}/download", team.PermExport, d.exportDownload})
	}
	if d.site.Brand != nil {
		rt = append(rt,
			Route{get, "/store", team.PermStore, d.storePage},
			Route{post, "/store", team.PermStore, d.saveStore},
			Route{post, "/store/logo", team.PermStore, d.uploadLogo},
			Route{post, "/store/logo/remove", team.PermStore, d.removeLogo},
			Route{post, "/store/preview", team.PermStore, d.previewStore},
			Route{get, "/store/preview/store.css", team.PermStore, d.storePreviewCSS},
			Route{get, "/store/preview/" + previewPix, team.PermStore, d.storePreview},
			Route{get, "/store/preview/" + previewPaid, team.PermStore, d.storePreview})
	}
	if d.settings != nil {
		rt = append(rt,
			Route{get, "/settings", team.PermSettings, d.settingsPage},
			Route{post, "/settings", team.PermSettings, d.saveSettings},
			Route{post, "/settings/ping", team.PermSettings, d.ping},
			Route{post, "/settings/shipping", team.PermSettings, d.saveShipping},
			Route{post, "/settings/shopper-mail", team.PermSettings, d.saveShopperMail},
			Route{post, "/settings/charge-reminders", team.PermSettings, d.saveChargeReminders},
			Route{post, "/settings/subscriptions", team.PermSettings, d.saveSubscriptionLead},
			Route{post, "/settings/secret", team.PermSecret, d.rotateSecret},
			Route{post, "/settings/secret/reveal", team.PermSecret, d.revealSecret},
			Route{post, "/settings/keys", team.PermKeys, d.createKey},
			Route{post, "/settings/keys/{id}/revoke", team.PermKeys, d.revokeKey})
	}
	return rt
}

// allow lets through only a user whose role has perm; anyone else gets the 403 page.
func (d *Dashboard) allow(perm team.Permission) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !can(r, perm) {
				d.forbidden(w, r)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// forbidden is the dashboard's 403 page: the user's role may not do what they asked.
func (d *Dashboard) forbidden(w http.ResponseWriter, r *http.Request) {
	lang := respond.Lang(r)
	u := userOf(r)
	d.site.Log.WarnContext(r.Context(), "dashboard request refused to the user's role", "request_id", respond.RequestID(r.Context()),
		"user", u.ID, "role", string(u.Role), "method", r.Method, "path", r.URL.Path)
	d.errorPage(w, r, http.StatusForbidden, views.T(lang, "forbidden.title"), views.T(lang, "forbidden.text"), "",
		respond.Link(r, d.start(u)))
}

// start is the dashboard's page u starts at: the overview, or a cashier's point of sale (the
// overview is refused to a role that reads no orders).
func (d *Dashboard) start(u *team.User) string {
	if !u.Role.Can(team.PermOrdersRead) && u.Role.Can(team.PermPOS) && d.pos != nil {
		return posPath
	}
	return Path
}

// can reports whether the signed-in user of r has perm.
func can(r *http.Request, perm team.Permission) bool {
	u := userOf(r)
	return u != nil && u.Role.Can(perm)
}

// sections are the sections of the dashboard's navigation, in order, each with the permission
// that shows it (settings only when the dashboard has the merchant settings).
//
// Each section belongs to a group of the navigation (views.NavItem.Group): a new section joins
// its group, next to the group's others, and the navigation stays one row on a laptop.
var sections = []struct {
	key   string
	perm  team.Permission
	group string
}{
	{"overview", team.PermOrdersRead, ""},
	{"orders", team.PermOrdersRead, "sales"}, {"refunds", team.PermOrdersRead, "sales"},
	{"products", team.PermProductsRead, "sales"}, {"links", team.PermProductsRead, "sales"},
	{"charges", team.PermChargesRead, "sales"}, {"subscriptions", team.PermChargesRead, "sales"}, {"pos", team.PermPOS, "sales"},
	{"deposits", team.PermGatewayRead, "gateway"}, {"withdrawals", team.PermGatewayRead, "gateway"},
	{"reconciliation", team.PermGatewayRead, "gateway"},
	{"store", team.PermStore, "store"}, {"settings", team.PermSettings, "store"}, {"mail", team.PermMail, "store"},
	{"users", team.PermUsers, "team"}, {"audit", team.PermAudit, "team"}, {"personal-data", team.PermPersonalData, "team"},
	{"account", team.PermAccount, ""},
}

// Session keys of the dashboard.
const (
	sessUserID      = "uid"  // the signed-in user's id
	sessFingerprint = "pwfp" // team.PasswordFingerprint at sign-in
	sessCSRF        = "csrf" // the token every form posts back
	sessID          = "sid"  // the team.SignIn of this session
	sessSeen        = "seen" // the session's last request (Unix seconds), for its role's idle limit
	// Between the password and the second factor: who, and since when (Unix seconds).
	sessPendingUser = "pending"
	sessPendingAt   = "pending_at"
	// A TOTP secret shown for enrolment, not confirmed yet, and its otpauth:// URL.
	sessEnrolment    = "totp_enrol"
	sessEnrolmentURL = "totp_enrol_url"
)

// userKey is the context key of the signed-in user.
type userKey struct{}

// userOf returns the signed-in user of a request (set by requireUser).
func userOf(r *http.Request) *team.User {
	u, _ := r.Context().Value(userKey{}).(*team.User)
	return u
}

// headers makes every dashboard answer unframable and uncacheable, whatever
// CHECKOUT_FRAME_ANCESTORS allows for the shopper pages: the dashboard holds the keys to the
// business (clickjacking) and its pages hold customer data (shared caches, Back after sign-out).
func (d *Dashboard) headers(next http.Handler) http.Handler {
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
func (d *Dashboard) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		id := d.sessions.GetString(ctx, sessUserID)
		u, err := d.accounts.SignedInUser(ctx, id, d.sessions.GetString(ctx, sessFingerprint))
		if err != nil {
			if !errors.Is(err, team.ErrSignInEnded) {
				d.site.Fail(w, r, err)
				return
			}
			if id != "" {
				// The user is gone or changed their password: end this session for good.
				_ = d.sessions.Destroy(ctx)
			}
			d.unauthenticated(w, r, id != "")
			return
		}
		if err := d.accounts.SeeSignIn(ctx, u, d.sessions.GetString(ctx, sessID)); err != nil {
			if !errors.Is(err, team.ErrSignInEnded) {
				d.site.Fail(w, r, err)
				return
			}
			// Ended from the account page, or by a password change elsewhere.
			_ = d.sessions.Destroy(ctx)
			d.unauthenticated(w, r, true)
			return
		}
		if !d.stillActive(r, u) {
			_ = d.sessions.Destroy(ctx)
			d.unauthenticated(w, r, true)
			return
		}
		if !u.TOTPEnabled() && !strings.HasPrefix(r.URL.Path, Path+"/account") {
			required, err := d.accounts.RequireTOTP(ctx)
			if err != nil {
				d.site.Fail(w, r, err)
				return
			}
			if required {
				// The owners require a second factor: the account page is all this user may
				// see until they have one.
				respond.Redirect(w, r, Path+"/account?enrol=1")
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, userKey{}, u)))
	})
}

// idleLimit is how long a session of u may stay without a request: a cashier's the point of
// sale's setting (the shift), everybody else's team.SignInIdleTimeout.
func (d *Dashboard) idleLimit(r *http.Request, u *team.User) time.Duration {
	if u.Role != team.RoleCashier || d.pos == nil {
		return team.SignInIdleTimeout
	}
	st, err := d.pos.Settings(r.Context())
	if err != nil {
		d.site.Log.WarnContext(r.Context(), "the point of sale's settings: the dashboard's idle limit applies", "err", err)
		return team.SignInIdleTimeout
	}
	return st.IdleLimit
}

// stillActive reports whether the session of u is within its idle limit, and notes this
// request as its last.
func (d *Dashboard) stillActive(r *http.Request, u *team.User) bool {
	ctx := r.Context()
	now := d.idleNow()
	if seen := d.sessions.GetInt64(ctx, sessSeen); seen > 0 && now.Sub(time.Unix(seen, 0)) > d.idleLimit(r, u) {
		return false
	}
	d.sessions.Put(ctx, sessSeen, now.Unix())
	return true
}

// unauthenticated answers a request without a valid session.
func (d *Dashboard) unauthenticated(w http.ResponseWriter, r *http.Request, ended bool) {
	if !wantsHTML(r) {
		d.site.FailJSON(w, r, &checkout.Error{Code: checkout.CodeUnauthorized, Message: "sign in to the dashboard first"})
		return
	}
	q := url.Values{}
	if r.Method == http.MethodGet {
		q.Set("next", r.URL.RequestURI())
	}
	if ended {
		q.Set("ended", "1")
	}
	target := Path + "/login"
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
func (d *Dashboard) checkCSRF(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		if !d.parseForm(w, r) {
			return
		}
		if !d.validCSRF(r) {
			d.site.Log.WarnContext(r.Context(), "dashboard form without a valid token", "request_id", respond.RequestID(r.Context()))
			d.site.Error(w, r, http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// validCSRF compares the posted token with the session's, in constant time.
func (d *Dashboard) validCSRF(r *http.Request) bool {
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

// page returns the frame of a dashboard page.
func (d *Dashboard) page(r *http.Request, section string) views.DashPage {
	return d.pageCounting(r, section, d.refundsDue)
}

// pageCounting is page with the navigation's count of refunds due from refundsDue (called
// only when the navigation shows the refunds): the overview's, which has read it already.
func (d *Dashboard) pageCounting(r *http.Request, section string, refundsDue func(*http.Request) int) views.DashPage {
	p := views.DashPage{
		Page:      d.site.Page(r),
		Section:   section,
		LogoutURL: respond.Link(r, Path+"/logout"),
		ShopURL:   respond.Link(r, "/"),
	}
	p.HomeURL = respond.Link(r, Path)
	if u := userOf(r); u != nil {
		p.User = u.Email
		p.CSRF = d.sessions.GetString(r.Context(), sessCSRF)
		p.Role = string(u.Role)
		p.Perms = map[string]bool{}
		for _, perm := range team.Permissions[u.Role] {
			p.Perms[string(perm)] = true
		}
		if gw := d.site.GatewayState(); !gw.OK {
			p.GatewayCause, p.GatewaySince = string(gw.Cause), gw.Since
		}
		for _, sec := range sections {
			if !d.shows(sec.key, sec.perm, u.Role) {
				continue
			}
			path := Path + "/" + sec.key
			if sec.key == "overview" {
				path = Path
			}
			item := views.NavItem{Key: sec.key, URL: respond.Link(r, path), Group: sec.group}
			if sec.key == "refunds" {
				item.Count = refundsDue(r)
			}
			p.Nav = append(p.Nav, item)
		}
	}
	return p
}

// shows reports whether the navigation shows the section key (needing perm) to role: the
// sections the dashboard has, which the role may open (the reconciliation needs the orders
// too).
func (d *Dashboard) shows(key string, perm team.Permission, role team.Role) bool {
	switch {
	case key == "settings" && d.settings == nil, key == "audit" && d.audit == nil, key == "mail" && d.mail == nil,
		key == "store" && d.site.Brand == nil, key == "charges" && d.charges == nil,
		key == "subscriptions" && (d.subscriptions == nil || d.charges == nil),
		key == "pos" && d.pos == nil:
		return false
	case key == "reconciliation" && !role.Can(team.PermOrdersRead):
		return false
	}
	return role.Can(perm)
}

// notFound is the dashboard's 404 page (behind the session check, so that a stranger learns
// nothing of the dashboard's routes).
func (d *Dashboard) notFound(w http.ResponseWriter, r *http.Request) {
	d.errorPage(w, r, http.StatusNotFound, views.T(respond.Lang(r), "notfound.title"),
		views.T(respond.Lang(r), "notfound.text"), "", "")
}

// checkParams refuses, with a 400 page naming the parameter, a query string that breaks the
// text rule (checkout.CheckParams): what a list or a search passes on to the store is text a
// store can hold, on either store.
func (d *Dashboard) checkParams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := checkout.CheckParams(r.URL.Query())
		var fe *checkout.ValidationError
		if !errors.As(err, &fe) {
			next.ServeHTTP(w, r)
			return
		}
		var msgs []string
		for _, v := range fe.Violations {
			msgs = append(msgs, v.Field+": "+v.Message)
		}
		slices.Sort(msgs) // by parameter: the query's map has no order
		lang := respond.Lang(r)
		d.errorPage(w, r, http.StatusBadRequest, views.T(lang, "params.bad_title"), views.T(lang, "params.bad", strings.Join(msgs, "; ")), "", "")
	})
}

// errorPage renders an error inside the dashboard's frame.
func (d *Dashboard) errorPage(w http.ResponseWriter, r *http.Request, status int, title, msg, detail, back string) {
	v := views.DashErrorView{DashPage: d.page(r, ""), Status: status, Title: title, Message: msg, Detail: detail,
		BackURL: back, RequestID: respond.RequestID(r.Context())}
	d.site.Render(w, r, status, views.DashErrorPage(v))
}
