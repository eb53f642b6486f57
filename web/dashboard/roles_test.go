package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// Who may use each dashboard route, written from the description of the roles (not
// from team.Permissions, so that a wrong entry there fails here). A route the router serves
// that is missing here fails the test: a new route must say who may use it.
var (
	everyone   = []team.Role{team.RoleOwner, team.RoleDeveloper, team.RoleOperator, team.RoleViewer}
	shopStaff  = []team.Role{team.RoleOwner, team.RoleOperator}
	integrator = []team.Role{team.RoleOwner, team.RoleDeveloper}
	ownersOnly = []team.Role{team.RoleOwner}
	// Every role, the cashier too, has its own account; the point of sale is the shop's
	// staff's and the cashier's; the cashier has nothing else.
	allRoles = append(slices.Clone(everyone), team.RoleCashier)
	sellers  = []team.Role{team.RoleOwner, team.RoleOperator, team.RoleCashier}
)

// publicRoutes need no session.
var publicRoutes = []string{"GET /login", "POST /login", "POST /logout", "GET /invite/{token}", "POST /invite/{token}",
	"GET /login/2fa", "POST /login/2fa", "GET /password-reset", "POST /password-reset", "GET /password-reset/{token}",
	"POST /password-reset/{token}"}

// routeCase is one route: who may use it, and the form an allowed user posts.
type routeCase struct {
	allowed []team.Role
	form    func(f *roleFixture) url.Values
	// unprocessable: an allowed role's URL-encoded form gets 422 (the route takes what such a
	// body cannot carry, a file), which still says the role got past the permission check.
	unprocessable bool
}

var routeCases = map[string]routeCase{
	"GET /":                    {allowed: everyone},
	"GET /orders":              {allowed: everyone},
	"GET /orders/{id}":         {allowed: everyone},
	"GET /products":            {allowed: everyone},
	"GET /deposits":            {allowed: everyone},
	"GET /deposits/{id}":       {allowed: everyone},
	"GET /deposits.csv":        {allowed: everyone},
	"GET /withdrawals":         {allowed: everyone},
	"GET /withdrawals/{id}":    {allowed: everyone},
	"GET /withdrawals.csv":     {allowed: everyone},
	"GET /withdrawals.xlsx":    {allowed: everyone},
	"GET /deposits.xlsx":       {allowed: everyone},
	"GET /orders.csv":          {allowed: everyone},
	"GET /orders.xlsx":         {allowed: everyone},
	"GET /reconciliation":      {allowed: everyone},
	"GET /reconciliation.csv":  {allowed: everyone},
	"GET /reconciliation.xlsx": {allowed: everyone},
	"POST /orders/{id}/personal-data": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{}
	}},
	"POST /products": {allowed: shopStaff, form: func(*roleFixture) url.Values {
		return url.Values{checkout.FieldTitle: {"Caneca"}, checkout.FieldUnitPrice: {"39,90"}, "active": {"true"}}
	}},
	"GET /products/{id}": {allowed: shopStaff},
	"POST /products/{id}": {allowed: shopStaff, form: func(*roleFixture) url.Values {
		return url.Values{checkout.FieldTitle: {"E-book novo"}, checkout.FieldUnitPrice: {"19,90"}, "active": {"true"}}
	}},
	"POST /products/{id}/active": {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{"active": {"false"}} }},
	"GET /links":                 {allowed: everyone},
	"GET /links/{id}":            {allowed: everyone},
	"GET /links/{id}/poster.svg": {allowed: everyone},
	"POST /links": {allowed: shopStaff, form: func(*roleFixture) url.Values {
		return url.Values{"title": {"Aula de violão"}, "kind": {"fixed"}, "amount": {"80,00"}}
	}},
	"POST /links/{id}": {allowed: shopStaff, form: func(*roleFixture) url.Values {
		return url.Values{"title": {"Doação"}, "kind": {"custom"}, "slug": {"doacao"}}
	}},
	"POST /links/{id}/active":    {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{"active": {"false"}} }},
	"POST /links/{id}/duplicate": {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /products/{id}/image":  {allowed: shopStaff, unprocessable: true},
	"POST /settings/shipping": {allowed: integrator, form: func(*roleFixture) url.Values {
		return url.Values{"flat_rate": {"15,00"}, "free_above": {""}, "delivery_days": {"5"}}
	}},
	"POST /settings/subscriptions": {allowed: integrator, form: func(*roleFixture) url.Values {
		return url.Values{"subscription_lead_days": {"7"}}
	}},
	"POST /settings/shopper-mail": {allowed: integrator, form: func(*roleFixture) url.Values {
		return url.Values{"message": {"paid", "shipped"}}
	}},
	"POST /settings/charge-reminders": {allowed: integrator, form: func(*roleFixture) url.Values {
		return url.Values{"reminder_issued": {"true"}, "reminder_before": {"3"}, "reminder_due": {"true"}, "reminder_after": {"1, 3, 7"}}
	}},
	"GET /store": {allowed: ownersOnly},
	"POST /store": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{brand.FieldName: {"Loja Nova"}, brand.FieldDocument: {"11.222.333/0001-81"}}
	}},
	"POST /store/logo":        {allowed: ownersOnly, unprocessable: true},
	"POST /store/logo/remove": {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /store/preview": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{brand.FieldName: {"Loja Nova"}, brand.FieldBrandColor: {"#ffff00"}}
	}},
	"GET /store/preview/pix":       {allowed: ownersOnly},
	"GET /store/preview/paid":      {allowed: ownersOnly},
	"GET /store/preview/store.css": {allowed: ownersOnly},
	"GET /settings":                {allowed: integrator},
	"POST /settings": {allowed: integrator, form: func(*roleFixture) url.Values {
		return url.Values{settings.FieldWebhookURL: {"https://loja.example.com/hooks"}, settings.FieldFrameOrigins: {""}}
	}},
	"POST /settings/secret": {allowed: integrator, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /settings/ping":   {allowed: integrator, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /settings/secret/reveal": {allowed: integrator, form: func(*roleFixture) url.Values {
		return url.Values{"current_password": {dashPassword}}
	}},
	"POST /settings/keys":             {allowed: integrator, form: func(*roleFixture) url.Values { return url.Values{"name": {"ERP"}} }},
	"POST /settings/keys/{id}/revoke": {allowed: integrator, form: func(*roleFixture) url.Values { return url.Values{} }},
	"GET /users":                      {allowed: ownersOnly},
	"POST /users": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{"email": {"nova@loja.example"}, "role": {"operator"}}
	}},
	"POST /users/{id}/role":                 {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{"role": {"viewer"}} }},
	"POST /users/{id}/remove":               {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /users/invitations/{id}/withdraw": {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{} }},
	"GET /audit":                            {allowed: integrator},
	"GET /personal-data":                    {allowed: ownersOnly},
	"POST /personal-data": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{"subject": {"529.982.247-25"}}
	}},
	"POST /personal-data/export": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{"subject": {"529.982.247-25"}, "format": {"json"}}
	}},
	"POST /personal-data/anonymise": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{"subject": {"maria@example.com.br"}, "confirm": {"yes"}}
	}},
	"POST /users/2fa-required": {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{"required": {"false"}} }},
	"GET /account":             {allowed: allRoles},
	"POST /account/password": {allowed: allRoles, form: func(*roleFixture) url.Values {
		return url.Values{"current_password": {dashPassword}, "new_password": {"uma-senha-nova-bem-longa"},
			"password_confirm": {"uma-senha-nova-bem-longa"}}
	}},
	"POST /account/alerts": {allowed: allRoles, form: func(*roleFixture) url.Values {
		return url.Values{"paid": {"each"}, "alert": {"gateway"}, "lang": {"en"}}
	}},
	"POST /account/sessions/{id}/end": {allowed: allRoles, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /account/2fa":               {allowed: allRoles, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /account/2fa/confirm": {allowed: allRoles, form: func(f *roleFixture) url.Values {
		_, doc := f.b.get("/dashboard/account")
		return url.Values{"code": {totpCode(f.e.t, doc.Find(testid("totp-secret")).Text(), f.e.sb.Now())}}
	}},
	"POST /account/2fa/disable": {allowed: allRoles, form: func(*roleFixture) url.Values {
		return url.Values{"current_password": {dashPassword}}
	}},
	"GET /audit.csv":  {allowed: integrator},
	"GET /audit.xlsx": {allowed: integrator},
	"GET /refunds":    {allowed: everyone},
	"POST /orders/{id}/ship": {allowed: shopStaff, form: func(*roleFixture) url.Values {
		return url.Values{"carrier": {"Correios"}, "trackingCode": {"AA123456789BR"}}
	}},
	"POST /orders/{id}/deliver": {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /orders/{id}/cancel":  {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{"confirm": {"yes"}} }},
	"POST /orders/{id}/notes": {allowed: shopStaff, form: func(*roleFixture) url.Values {
		return url.Values{"key": {"nota-1"}, "note": {"Ligar antes de entregar"}}
	}},
	"POST /orders/{id}/refunds": {allowed: shopStaff, form: func(f *roleFixture) url.Values {
		return url.Values{"refundDate": {saoPauloDay(f.e.sb.Now())}, "refundAmount": {"1,00"},
			"endToEnd": {"D12345678202603141300abcdefghijk"}}
	}},
	// A background export is its user's (and owners'): the test gives each role one of its own.
	"GET /exports":               {allowed: everyone},
	"GET /exports/{id}":          {allowed: everyone},
	"GET /exports/{id}/download": {allowed: everyone},
	"GET /charges":               {allowed: everyone},
	"GET /charges/{id}":          {allowed: everyone},
	"GET /charges.csv":           {allowed: everyone},
	"GET /charges.xlsx":          {allowed: everyone},
	"GET /charges/import":        {allowed: shopStaff},
	// A URL-encoded form carries no file: the import names the missing file (422).
	"POST /charges/import": {allowed: shopStaff, unprocessable: true},
	"POST /charges": {allowed: shopStaff, form: func(f *roleFixture) url.Values {
		return url.Values{"customer.name": {"Maria da Silva"}, "customer.document": {"529.982.247-25"},
			"customer.email": {"maria@example.com"}, "amount": {"150,00"}, "description": {"Mensalidade"},
			"dueDate": {saoPauloDay(f.e.sb.Now())}}
	}},
	"POST /charges/{id}/cancel":        {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{"confirm": {"yes"}} }},
	"POST /charges/{id}/whatsapp":      {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /charges/{id}/personal-data": {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{} }},
	"GET /subscriptions":               {allowed: everyone},
	"GET /subscriptions/{id}":          {allowed: everyone},
	"POST /subscriptions": {allowed: shopStaff, form: func(f *roleFixture) url.Values {
		return url.Values{"customer.name": {"Maria da Silva"}, "customer.document": {"529.982.247-25"},
			"customer.email": {"maria@example.com"}, "amount": {"150,00"}, "description": {"Mensalidade"},
			"dayOfMonth": {"10"}, "startDate": {saoPauloDay(f.e.sb.Now())}}
	}},
	"POST /subscriptions/{id}/amount": {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{"amount": {"200,00"}} }},
	"POST /subscriptions/{id}/pause":  {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /subscriptions/{id}/resume": {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /subscriptions/{id}/cancel": {allowed: shopStaff, form: func(*roleFixture) url.Values { return url.Values{"confirm": {"yes"}} }},
	"GET /mail":                       {allowed: integrator},
	"GET /mail/{id}":                  {allowed: integrator},
	"GET /mail/{id}/html":             {allowed: ownersOnly},
	"POST /mail/{id}/resend":          {allowed: integrator, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /mail/test":                 {allowed: integrator, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /mail/suppressions/clear": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{"address": {"bounce@example.com"}}
	}},
	"GET /pos":                      {allowed: sellers},
	"GET /pos/manifest.webmanifest": {allowed: sellers},
	"GET /pos/sales/{id}":           {allowed: sellers},
	"POST /pos/sales/{id}/cancel":   {allowed: sellers, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /pos/sales/{id}/renew":    {allowed: sellers, form: func(*roleFixture) url.Values { return url.Values{} }},
	"GET /pos/sales/{id}/receipt":   {allowed: sellers},
	"POST /pos/sales/{id}/receipt/email": {allowed: sellers, form: func(*roleFixture) url.Values {
		return url.Values{"email": {"cliente@example.com"}}
	}},
	"POST /pos/sales/{id}/receipt/whatsapp": {allowed: sellers, form: func(*roleFixture) url.Values { return url.Values{} }},
	"GET /pos/closing":                      {allowed: sellers},
	// The closing's export needs both the point of sale and the exports.
	"GET /pos/closing.csv":  {allowed: shopStaff},
	"GET /pos/closing.xlsx": {allowed: shopStaff},
	"POST /pos/sales": {allowed: sellers, form: func(*roleFixture) url.Values {
		return url.Values{"amount": {"12,34"}, "terminal": {pos.FirstTerminal}, "sale_key": {checkout.NewID()}}
	}},
	"GET /pos/terminals":  {allowed: ownersOnly},
	"POST /pos/terminals": {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{"name": {"Caixa Nova"}} }},
	"POST /pos/terminals/{id}": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{"name": {"Balcão"}}
	}},
	"POST /pos/terminals/{id}/archive": {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{} }},
	"POST /pos/settings": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{"qr_minutes": {"5"}, "idle_hours": {"12"}}
	}},
	"POST /pos/cashiers/{id}": {allowed: ownersOnly, form: func(*roleFixture) url.Values {
		return url.Values{"terminal": {pos.FirstTerminal}}
	}},
	"GET /pos/displays": {allowed: ownersOnly},
	"POST /pos/displays/code": {allowed: sellers, form: func(*roleFixture) url.Values {
		return url.Values{"terminal": {pos.FirstTerminal}}
	}},
	"POST /pos/displays/{id}/revoke": {allowed: ownersOnly, form: func(*roleFixture) url.Values { return url.Values{} }},
}

// roleFixture is a checkout with a user of each role and a record of each kind, so that every
// route has something to show.
type roleFixture struct {
	e   *env
	b   *browser          // the signed-in user's
	ids map[string]string // {id} of each route pattern
}

// The checkout runs on clock, or the wall clock when it is nil.
func newRoleFixture(t *testing.T, clock *sandbox.ManualClock) *roleFixture {
	mods := []func(*envOptions){}
	var now func() time.Time
	if clock != nil {
		mods, now = append(mods, withClock(clock)), clock.Now
	}
	hook := receiverAt(t, now, http.StatusNoContent, "", nil)
	e := newEnv(t, append(mods, func(o *envOptions) {
		o.merchant = settings.Config{WebhookURL: hook.URL, WebhookSecret: testSecret}
	})...)
	ctx := context.Background()
	for _, r := range allRoles {
		if _, err := e.dash.accounts.AddUser(ctx, string(r)+"@loja.example", dashPassword, r); err != nil {
			t.Fatal(err)
		}
	}
	e.seed(2, 2)
	deps, err := e.client.ListDeposits(ctx, gatewayclient.DepositFilter{})
	if err != nil || len(deps.Data) == 0 {
		t.Fatalf("deposits: %v", err)
	}
	wds, err := e.client.ListWithdrawals(ctx, gatewayclient.WithdrawalFilter{})
	if err != nil || len(wds.Data) == 0 {
		t.Fatalf("withdrawals: %v", err)
	}
	_, key, err := e.keys.Create(ctx, "loja online", apikeys.ScopeWrite, nil)
	if err != nil {
		t.Fatal(err)
	}
	extra, err := e.dash.accounts.AddUser(ctx, "extra@loja.example", dashPassword, team.RoleViewer)
	if err != nil {
		t.Fatal(err)
	}
	viewer, err := e.dash.accounts.UserByEmail(ctx, "viewer@loja.example")
	if err != nil {
		t.Fatal(err)
	}
	_, inv, err := e.dash.accounts.Invite(ctx, "convidada@loja.example", team.RoleViewer, dashEmail)
	if err != nil {
		t.Fatal(err)
	}
	link, _, err := e.svc.CreateLink(ctx, checkout.LinkInput{Title: "Doação", Slug: "doacao",
		CustomAmount: &checkout.CustomAmount{}})
	if err != nil {
		t.Fatal(err)
	}
	order := orderID(e.placeOrder())
	paidPhysical, shipped := e.placePhysical(), e.placePhysical()
	e.payCurrent(paidPhysical)
	e.payCurrent(shipped)
	if _, _, err := e.svc.MarkShipped(ctx, shipped, checkout.ShipInput{Carrier: "Correios", TrackingCode: "AA000000000BR"}); err != nil {
		t.Fatal(err)
	}
	mailID := e.keptMail("ana@example.com")
	charge := e.newCharge("(11) 98765-4321")
	cashier, err := e.dash.accounts.UserByEmail(ctx, "cashier@loja.example")
	if err != nil {
		t.Fatal(err)
	}
	two, err := e.pos.CreateTerminal(ctx, "Caixa 2")
	if err != nil {
		t.Fatal(err)
	}
	three, err := e.pos.CreateTerminal(ctx, "Caixa 3")
	if err != nil {
		t.Fatal(err)
	}
	paidSale := e.sale(cashier.ID)
	e.payCurrent(paidSale)
	f := &roleFixture{e: e, ids: map[string]string{
		"/pos/sales/{id}":                  e.sale(cashier.ID),
		"/pos/sales/{id}/receipt":          paidSale,
		"/pos/sales/{id}/receipt/email":    paidSale,
		"/pos/sales/{id}/receipt/whatsapp": paidSale,
		"/pos/sales/{id}/cancel":           e.sale(cashier.ID),
		"/pos/sales/{id}/renew":            e.sale(cashier.ID),
		"/pos/terminals/{id}":              two.ID,
		"/pos/terminals/{id}/archive":      three.ID,
		"/pos/cashiers/{id}":               cashier.ID,
		"/pos/displays/{id}/revoke":        e.pairedDisplay(),
		"/charges/{id}":                    charge,
		"/charges/{id}/cancel":             e.newCharge(""),
		"/charges/{id}/whatsapp":           charge,
		"/charges/{id}/personal-data":      charge,
		"/subscriptions/{id}":              e.newSubscription(false),
		"/subscriptions/{id}/amount":       e.newSubscription(false),
		"/subscriptions/{id}/pause":        e.newSubscription(false),
		"/subscriptions/{id}/resume":       e.newSubscription(true),
		"/subscriptions/{id}/cancel":       e.newSubscription(false),
		"/mail/{id}":                       mailID,
		"/mail/{id}/html":                  mailID,
		"/mail/{id}/resend":                mailID,
		"/links/{id}":                      link.ID,
		"/links/{id}/active":               link.ID,
		"/links/{id}/duplicate":            link.ID,
		"/links/{id}/poster.svg":           link.ID,
		"/orders/{id}/personal-data":       order,
		"/orders/{id}":                     order,
		"/orders/{id}/ship":                paidPhysical,
		"/orders/{id}/deliver":             shipped,
		"/orders/{id}/cancel":              orderID(e.placeOrder()),
		"/orders/{id}/notes":               orderID(e.placeOrder()),
		"/orders/{id}/refunds":             e.canceledPaid().ID,
		"/products/{id}":                   "ebook-receitas-do-cerrado",
		"/products/{id}/active":            "ebook-receitas-do-cerrado",
		"/products/{id}/image":             "ebook-receitas-do-cerrado",
		"/deposits/{id}":                   deps.Data[0].ID,
		"/withdrawals/{id}":                wds.Data[0].ID,
		"/settings/keys/{id}/revoke":       key.ID,
		"/users/{id}/role":                 viewer.ID,
		"/users/{id}/remove":               extra.ID,
		"/users/invitations/{id}/withdraw": inv.ID,
	}}
	return f
}

// giveExport makes a ready background export of the user id the {id} of the export routes:
// a job is only its user's (and owners').
func (f *roleFixture) giveExport(user string) {
	job := f.e.readyExport(user, "deposits", "id;amountBRL\r\nx;1,00\r\n")
	f.ids["/exports/{id}"], f.ids["/exports/{id}/download"] = job, job
}

// path is the URL of a route pattern with its {id} filled in.
func (f *roleFixture) path(pattern string) string {
	p := pattern
	if id, ok := f.ids[pattern]; ok {
		p = strings.Replace(pattern, "{id}", url.PathEscape(id), 1)
	}
	return strings.TrimSuffix("/dashboard"+p, "/")
}

// served lists the routes the dashboard's router serves, as "METHOD /pattern".
func served(t *testing.T, d *dashboard.Dashboard) []string {
	var out []string
	err := dashboard.WalkRoutes(d, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		out = append(out, method+" "+route)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestRolesOnEveryRoute walks every route the router serves with a user of each role: an
// allowed route answers 2xx (303 after a form), a refused one 403 with the dashboard's error
// page; every page an allowed user sees is searched for links and forms to routes the role
// may not use, which must not be there. The roles take turns at 02:30Z and 03:30Z (23:30 and
// 00:30 in São Paulo), so that a date sent in a form is read as the product reads it.
func TestRolesOnEveryRoute(t *testing.T) {
	for i, role := range allRoles {
		t.Run(string(role), func(t *testing.T) {
			f := newRoleFixture(t, sandbox.NewManualClock(latestUTC([]string{"02:30", "03:30"}[i%2])))
			b := f.e.browser()
			f.b = b
			csrf := b.loginAs(string(role)+"@loja.example", dashPassword)
			// Another session of the user, for the account page to end.
			u, _ := f.e.dash.accounts.UserByEmail(context.Background(), string(role)+"@loja.example")
			other, err := f.e.dash.accounts.StartSignIn(context.Background(), u, "198.51.100.7", "another browser")
			if err != nil {
				t.Fatal(err)
			}
			f.ids["/account/sessions/{id}/end"] = other
			f.giveExport(u.ID)
			routes := served(t, f.e.board)
			if len(routes) < len(routeCases)+len(publicRoutes) {
				t.Fatalf("the router serves only %d routes: %v", len(routes), routes)
			}
			// The forms last: they change what the pages show (a product deactivated, a key
			// revoked); the password change very last, as it ends the user's other sessions.
			rank := func(route string) string {
				if route == "POST /account/password" {
					return "~"
				}
				return route[:strings.Index(route, " ")]
			}
			slices.SortStableFunc(routes, func(a, b string) int { return strings.Compare(rank(a), rank(b)) })
			for _, route := range routes {
				if slices.Contains(publicRoutes, route) {
					continue
				}
				rc, ok := routeCases[route]
				if !ok {
					t.Errorf("%s is served but this test does not say which roles may use it", route)
					continue
				}
				method, pattern, _ := strings.Cut(route, " ")
				path := f.path(pattern)
				allowed := slices.Contains(rc.allowed, role)
				var res *http.Response
				var doc *goquery.Document
				if method == http.MethodPost {
					form := url.Values{}
					if rc.form != nil {
						form = rc.form(f)
					}
					form.Set("csrf_token", csrf)
					res, doc = b.post(path, form)
				} else {
					res, doc = b.get(path)
				}
				switch {
				case allowed && rc.unprocessable && res.StatusCode == http.StatusUnprocessableEntity:
				case allowed && (res.StatusCode < 200 || res.StatusCode > 299) && res.StatusCode != http.StatusSeeOther:
					t.Errorf("%s %s as %s: %d, want it allowed: %.300s", method, path, role, res.StatusCode, doc.Find("main").Text())
				case !allowed && res.StatusCode != http.StatusForbidden:
					t.Errorf("%s %s as %s: %d, want 403", method, path, role, res.StatusCode)
				case !allowed && !strings.Contains(doc.Find("h1").Text(), "Acesso negado"):
					t.Errorf("%s %s as %s: 403 without the dashboard's error page: %.300s", method, path, role, doc.Text())
				case allowed && method == http.MethodGet && strings.HasPrefix(res.Header.Get("Content-Type"), "text/html"):
					f.noRefusedControls(t, role, path, doc)
				}
			}
		})
	}
}

// noRefusedControls fails when a page shows role a link or form to a route it may not use.
func (f *roleFixture) noRefusedControls(t *testing.T, role team.Role, page string, doc *goquery.Document) {
	t.Helper()
	check := func(method, target string) {
		u, err := url.Parse(target)
		if err != nil || !strings.HasPrefix(u.Path, "/dashboard") {
			return
		}
		pattern := dashboard.MatchRoute(f.e.board, method, strings.TrimPrefix(u.Path, "/dashboard"))
		rc, ok := routeCases[method+" "+pattern]
		if ok && !slices.Contains(rc.allowed, role) {
			t.Errorf("%s shows %s a control to %s %s, which the role may not use", page, role, method, u.Path)
		}
	}
	doc.Find("a[href]").Each(func(_ int, s *goquery.Selection) { check(http.MethodGet, s.AttrOr("href", "")) })
	doc.Find("form[action]").Each(func(_ int, s *goquery.Selection) {
		check(strings.ToUpper(s.AttrOr("method", "get")), s.AttrOr("action", ""))
	})
}

// TestPermissionTable holds team.Permissions to the words for what a role may not
// do.
func TestPermissionTable(t *testing.T) {
	for _, tc := range []struct {
		role team.Role
		not  []team.Permission
	}{
		{team.RoleOwner, nil},
		{team.RoleDeveloper, []team.Permission{team.PermOrdersWrite, team.PermProductsWrite, team.PermUsers,
			team.PermPersonalData, team.PermStore, team.PermChargesWrite, team.PermPOS}},
		{team.RoleOperator, []team.Permission{team.PermKeys, team.PermSettings, team.PermSecret, team.PermUsers,
			team.PermAudit, team.PermPersonalData, team.PermMail, team.PermStore}},
		{team.RoleViewer, []team.Permission{team.PermOrdersWrite, team.PermProductsWrite, team.PermKeys,
			team.PermSettings, team.PermSecret, team.PermUsers, team.PermAudit, team.PermPersonalData, team.PermMail, team.PermStore,
			team.PermChargesWrite, team.PermPOS}},
		// A cashier: the point of sale and its own account, nothing else.
		{team.RoleCashier, slices.DeleteFunc(slices.Clone(team.Permissions[team.RoleOwner]), func(p team.Permission) bool {
			return p == team.PermPOS || p == team.PermAccount
		})},
	} {
		for _, p := range team.Permissions[team.RoleOwner] {
			if got, want := tc.role.Can(p), !slices.Contains(tc.not, p); got != want {
				t.Errorf("%s can %s: %v, want %v", tc.role, p, got, want)
			}
		}
	}
	if team.Role("admin").Can(team.PermOrdersRead) {
		t.Error("an unknown role has a permission")
	}
}

// TestAuditActionsNamed: the audit page names every action in words, in both languages.
func TestAuditActionsNamed(t *testing.T) {
	for _, a := range audit.Actions {
		if !views.HasKey("audit_action." + a) {
			t.Errorf("the catalogue has no name for the audit action %q", a)
		}
	}
	for _, d := range audit.DetailCodes {
		if !views.HasKey("audit_detail." + d) {
			t.Errorf("the catalogue has no words for the audit detail %q", d)
		}
	}
}

// pairedDisplay pairs a customer's display with Caixa 1 and returns its id.
func (e *env) pairedDisplay() string {
	e.t.Helper()
	ctx := context.Background()
	code, _, err := e.displays.NewCode(ctx, &team.User{ID: "owner", Role: team.RoleOwner}, pos.FirstTerminal)
	if err != nil {
		e.t.Fatal(err)
	}
	d, _, err := e.displays.Pair(ctx, code)
	if err != nil {
		e.t.Fatal(err)
	}
	return d.ID
}
