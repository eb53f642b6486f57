package app_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/web/alerts"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// The dashboard's users of the alerts' tests.
const (
	alertOwner    = "dona@loja.example"
	alertViewer   = "leitora@loja.example"
	alertPassword = "senha-configurada-longa"
)

// testClock is an injected clock the test moves.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) set(t time.Time) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

// saoPaulo is São Paulo's offset (UTC-3 all year since 2019): the tests' times say it.
var saoPaulo = time.FixedZone("-03", -3*60*60)

// alertApp starts the app with an SMTP server, the owner alertOwner, the scheduler's passes
// left to the test, and the options mod sets.
func alertApp(t *testing.T, srv *mailtest.Server, mod func(*app.Config)) *running {
	return start(t, func(c *app.Config) {
		c.SMTPURL, c.MailFrom, c.MailRootCAs = srv.URL, "Loja Demo <loja@example.com.br>", srv.RootCAs
		c.AdminEmail, c.AdminPassword = alertOwner, alertPassword
		c.AlertInterval = -1
		if mod != nil {
			mod(c)
		}
	})
}

// alertShopper is the customer of the orders the tests place (placeOrder), who gets the
// shopper's e-mails (the receipt) beside the team's alerts.
const alertShopper = "joao@example.com"

// nextAlert waits for the next e-mail to the team, passing over the shopper's.
func nextAlert(t *testing.T, srv *mailtest.Server) mailtest.Received {
	t.Helper()
	for {
		if got := srv.Next(t, 20*time.Second); got.To[0] != alertShopper {
			return got
		}
	}
}

// saveAlerts signs in as email and saves its alerts in "Minha conta" through the form.
func (r *running) saveAlerts(email string, form url.Values) {
	r.t.Helper()
	token := r.signIn(email, alertPassword)
	req, _ := http.NewRequest(http.MethodGet, r.app.URL()+"/dashboard/account", nil)
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	doc := r.getDoc(req)
	csrf, _ := doc.Find(`[data-testid="alerts-form"] input[name="csrf_token"]`).Attr("value")
	form.Set("csrf_token", csrf)
	req, _ = http.NewRequest(http.MethodPost, r.app.URL()+"/dashboard/account/alerts", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("saving %s's alerts: %d", email, res.StatusCode)
	}
}

// payOrder places an order, pays it on the sandbox and waits until its page says paid; it
// returns the order's id.
func (r *running) payOrder() string {
	r.t.Helper()
	pay := r.placeOrder()
	lines, body := r.stream(pay)
	defer body.Close()
	if res := r.post(pay+"/sandbox-pay", nil); res.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("sandbox-pay: %d", res.StatusCode)
	}
	if !waitData(r.t.(*testing.T), lines, `"paid"`) {
		r.t.Fatal("stream ended before paid")
	}
	return pay[strings.LastIndex(pay, "/")+1:]
}

// mailsOf lists the e-mails of type typ in the e-mail log.
func (r *running) mailsOf(typ string) []mail.Entry {
	r.t.Helper()
	all, err := r.app.MailLog().List(context.Background(), mail.Filter{Limit: 200})
	if err != nil {
		r.t.Fatal(err)
	}
	var out []mail.Entry
	for _, e := range all {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// waitSent waits until every e-mail of type typ in the log is recorded sent.
func (r *running) waitSent(typ string) {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		sent := true
		for _, e := range r.mailsOf(typ) {
			sent = sent && e.State == mail.Sent
		}
		if sent {
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the %s e-mails are not recorded sent", typ)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// tick runs a pass of the alerts' scheduler.
func (r *running) tick() {
	r.t.Helper()
	if err := r.app.Alerts().Tick(context.Background()); err != nil {
		r.t.Fatal(err)
	}
}

// TestPaidOrderAlertsPerUser: each user's choice in "Minha conta" is theirs: the owner asks
// for each paid order in English and gets one e-mail per paid order over SMTP (its link the
// order's dashboard page under the public URL), the viewer, off by default, none; once they
// swap, the next paid order reaches the viewer alone, in Portuguese.
func TestPaidOrderAlertsPerUser(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	r := alertApp(t, srv, nil)
	if _, err := r.app.Accounts().AddUser(context.Background(), alertViewer, alertPassword, team.RoleViewer); err != nil {
		t.Fatal(err)
	}
	r.saveAlerts(alertOwner, url.Values{"paid": {"each"}, "alert": {"refund_due", "gateway"}, "lang": {"en"}})

	id := r.payOrder()
	got := nextAlert(t, srv)
	o, err := r.app.Service().Order(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	link := r.app.MailComposer().PublicURL + "/dashboard/orders/" + id
	if got.To[0] != alertOwner || got.Subject != "Order "+o.Number+" paid: R$29.90" ||
		!strings.Contains(got.Text, link) || !strings.Contains(got.HTML, `href="`+link+`"`) || !strings.Contains(got.Text, "Brasília time") {
		t.Errorf("the owner's alert: to %v, %q\n%s", got.To, got.Subject, got.Text)
	}
	if n := len(r.mailsOf(alerts.TypePaid)); n != 1 {
		t.Errorf("%d paid-order alerts stored for one paid order and one user who wants them", n)
	}

	r.saveAlerts(alertOwner, url.Values{"paid": {"off"}, "lang": {"en"}})
	r.saveAlerts(alertViewer, url.Values{"paid": {"each"}, "lang": {"pt-BR"}})
	id = r.payOrder()
	got = nextAlert(t, srv)
	if got.To[0] != alertViewer || !strings.HasPrefix(got.Subject, "Pedido ") || !strings.Contains(got.Subject, "pago: R$ 29,90") ||
		!strings.Contains(got.Text, "/dashboard/orders/"+id) {
		t.Errorf("the viewer's alert: to %v, %q", got.To, got.Subject)
	}
	if n := len(r.mailsOf(alerts.TypePaid)); n != 2 {
		t.Errorf("%d paid-order alerts after two orders, one recipient each", n)
	}
}

// TestAlertsInTheSavedStoreName: the team's alerts are in the store's name, support e-mail and
// logo as last saved on the dashboard's "Loja" page, not in the configured name.
func TestAlertsInTheSavedStoreName(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	r := alertApp(t, srv, func(c *app.Config) { c.MerchantName = "Nome do Ambiente" })
	r.saveAlerts(alertOwner, url.Values{"paid": {"each"}, "lang": {"pt-BR"}})
	tok := r.signIn(alertOwner, alertPassword)
	r.saveStore(tok, url.Values{"name": {"Empório Serrano"}, "support_email": {"ajuda@emporio.example"}})
	r.uploadLogo(tok, 240, 80)
	r.payOrder()
	got := nextAlert(t, srv)
	for _, part := range []struct{ name, body string }{{"text", got.Text}, {"html", got.HTML}} {
		if !strings.Contains(part.body, "Empório Serrano") || strings.Contains(part.body, "Nome do Ambiente") {
			t.Errorf("the alert's %s part is not in the saved name:\n%s", part.name, part.body)
		}
	}
	// The store's logo heads the alert as it does the shopper's e-mails: its public picture.
	if !strings.Contains(got.HTML, `data-testid="store-logo"`) || !strings.Contains(got.HTML, `/images/store/`) {
		t.Errorf("the alert carries no store logo:\n%s", got.HTML)
	}
	if rt := got.Header.Get("Reply-To"); !strings.Contains(rt, "ajuda@emporio.example") {
		t.Errorf("Reply-To %q, want the saved support e-mail", rt)
	}
}

// TestDailySummaryAt8SaoPaulo: the summary of the São Paulo day before goes at 08:00
// Brasília on the injected clock, not at 07:59; with that day's paid order and the
// overview's money (received, refunded, fees, net); a restart composes it again and stores
// nothing; at 00:30 UTC (21:30 in São Paulo, the same day) nothing more goes, an order paid
// then is in the next day's summary at 08:00; a day without money sends none.
func TestDailySummaryAt8SaoPaulo(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	clk := &testClock{now: time.Date(2026, 11, 27, 14, 0, 0, 0, saoPaulo)}
	dir := t.TempDir()
	cfg := func(c *app.Config) { c.Clock, c.DataDir = clk.Now, dir }
	r := alertApp(t, srv, cfg)
	id := r.payOrder()

	clk.set(time.Date(2026, 11, 28, 7, 59, 0, 0, saoPaulo))
	r.tick()
	if n := len(r.mailsOf(alerts.TypeSummary)); n != 0 {
		t.Fatalf("%d summaries before 08:00", n)
	}
	clk.set(time.Date(2026, 11, 28, 8, 0, 0, 0, saoPaulo))
	r.tick()
	got := nextAlert(t, srv)
	o, err := r.app.Service().Order(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if got.To[0] != alertOwner || got.Subject != "Resumo de 27/11: 1 pedidos pagos, R$ 29,60 líquido" {
		t.Errorf("summary to %v: %q", got.To, got.Subject)
	}
	for _, want := range []string{"Recebido: R$ 29,90 · 1 pedidos", "Devolvido: R$ 0,00 · 0 pedidos", "Tarifas do gateway (em centavos, como o gateway informa): R$ 0,30", "Líquido: R$ 29,60", o.Number,
		r.app.MailComposer().PublicURL + "/dashboard/orders/" + id, "/dashboard/orders?from=2026-11-27&money=received&to=2026-11-27"} {
		if !strings.Contains(got.Text, want) {
			t.Errorf("the summary's text has no %q:\n%s", want, got.Text)
		}
	}
	if !strings.Contains(got.Text, "Tarifas do gateway") {
		t.Errorf("the summary's text has no fees:\n%s", got.Text)
	}
	if !strings.Contains(got.Text, "Conciliação com o gateway: nenhuma divergência") {
		t.Errorf("the summary does not say the day's order and deposit match:\n%s", got.Text)
	}

	// A restart at 08:05 composes the day's summary again: the same Message-ID, nothing stored.
	// (Stopped once the outbox recorded the sending: a stop between the server's 250 and that
	// record sends the same message again, which is at-least-once delivery, not this test's.)
	r.waitSent(alerts.TypeSummary)
	r.stop()
	r.app.Close()
	clk.set(time.Date(2026, 11, 28, 8, 5, 0, 0, saoPaulo))
	r = alertApp(t, srv, cfg)
	r.tick()
	// 00:30 UTC on the 29th is 21:30 on the 28th in São Paulo: an order paid now is the 28th's,
	// and no summary is due.
	clk.set(time.Date(2026, 11, 29, 0, 30, 0, 0, time.UTC))
	late := r.payOrder()
	r.tick()
	if n := len(r.mailsOf(alerts.TypeSummary)); n != 1 {
		t.Errorf("%d summaries after a restart and at 00:30 UTC, want the one of the 27th", n)
	}
	clk.set(time.Date(2026, 11, 29, 8, 0, 0, 0, saoPaulo))
	r.tick()
	got = nextAlert(t, srv)
	if got.Subject != "Resumo de 28/11: 1 pedidos pagos, R$ 29,60 líquido" || !strings.Contains(got.Text, "/dashboard/orders/"+late) {
		t.Errorf("the next day's summary: %q\n%s", got.Subject, got.Text)
	}
	// A day without money sends nothing.
	clk.set(time.Date(2026, 11, 30, 8, 0, 0, 0, saoPaulo))
	r.tick()
	ids := map[string]bool{}
	for _, m := range srv.Messages() {
		if m.To[0] != alertShopper {
			ids[m.Header.Get("Message-Id")] = true
		}
	}
	if len(ids) != 2 {
		t.Errorf("%d e-mails reached the server, want the two summaries", len(ids))
	}
}

// TestDailySummaryTellsDivergences: a deposit made and paid directly on the sandbox (not
// through the checkout) on the 27th is the day's one divergence: the summary of the 27th goes
// at 08:00 though the shop received nothing, says "1 divergência" and links to the day's
// reconciliation, which lists the deposit as paid outside the checkout.
func TestDailySummaryTellsDivergences(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	clk := &testClock{now: time.Date(2026, 11, 27, 14, 0, 0, 0, saoPaulo)}
	r := alertApp(t, srv, func(c *app.Config) { c.Clock = clk.Now })
	ctx := context.Background()
	gw := r.app.Gateway()
	tx, err := gw.CreateTransaction(ctx, gatewayclient.CreateTransactionRequest{Amount: 12345,
		PaymentMethod: gatewayclient.PaymentMethodPIX, IdempotencyKey: "fora-do-checkout-1", ExternalCode: "balcao-0001",
		Pix: &gatewayclient.PixRequest{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := gw.Do(ctx, http.MethodPost, "/sandbox/deposits/"+url.PathEscape(tx.ID)+"/pay", nil, nil); err != nil {
		t.Fatal(err)
	}

	clk.set(time.Date(2026, 11, 28, 8, 0, 0, 0, saoPaulo))
	r.tick()
	got := nextAlert(t, srv)
	link := r.app.MailComposer().PublicURL + "/dashboard/reconciliation?from=2026-11-27&to=2026-11-27"
	if got.To[0] != alertOwner || !strings.HasPrefix(got.Subject, "Resumo de 27/11: 0 pedidos pagos") {
		t.Errorf("summary to %v: %q", got.To, got.Subject)
	}
	if !strings.Contains(strings.ReplaceAll(got.Text, "\r\n", "\n"), "Conciliação com o gateway: 1 divergência\n"+link+"\n") {
		t.Errorf("the summary's text does not tell the divergence with its link:\n%s", got.Text)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(got.HTML))
	if err != nil {
		t.Fatal(err)
	}
	if a := doc.Find(`a[href="` + link + `"]`); a.Text() != "1 divergência" {
		t.Errorf("the summary's HTML links %q to the reconciliation", a.Text())
	}

	// The link leads to the day's reconciliation, where the deposit is paid outside the checkout.
	req, _ := http.NewRequest(http.MethodGet, r.app.URL()+strings.TrimPrefix(link, r.app.MailComposer().PublicURL), nil)
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: r.signIn(alertOwner, alertPassword)})
	page := r.getDoc(req)
	row := page.Find(`[data-testid="recon-row"][data-deposit="` + tx.ID + `"]`)
	if row.AttrOr("data-issues", "") != "outside" || page.Find(`[data-testid="recon-summary"]`).AttrOr("data-divergent", "") != "1" {
		t.Errorf("the linked reconciliation: the deposit's row %q, %s divergent", row.AttrOr("data-issues", "?"),
			page.Find(`[data-testid="recon-summary"]`).AttrOr("data-divergent", "?"))
	}
}

// TestDailySummaryWithTheGatewayDown: the gateway failing at 08:00 does not hold back the
// day's money: the summary goes, saying the reconciliation was not checked, with its link.
func TestDailySummaryWithTheGatewayDown(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	clk := &testClock{now: time.Date(2026, 11, 27, 14, 0, 0, 0, saoPaulo)}
	r := alertApp(t, srv, func(c *app.Config) { c.Clock, c.ReconcileInterval = clk.Now, 0 })
	r.payOrder()
	if err := r.app.Gateway().Do(context.Background(), http.MethodPost, "/sandbox/faults",
		map[string]any{"kind": "unavailable", "count": 10000}, nil); err != nil {
		t.Fatal(err)
	}
	clk.set(time.Date(2026, 11, 28, 8, 0, 0, 0, saoPaulo))
	r.tick()
	got := nextAlert(t, srv)
	if !strings.HasPrefix(got.Subject, "Resumo de 27/11: 1 pedidos pagos") ||
		!strings.Contains(got.Text, "Conciliação com o gateway: não conferida") ||
		!strings.Contains(got.Text, "/dashboard/reconciliation?from=2026-11-27&to=2026-11-27") {
		t.Errorf("the summary with the gateway down: %q\n%s", got.Subject, got.Text)
	}
}

// TestGatewayOutageAlerts: the sandbox made to fail (every request answered 503): the users
// who want it hear of it once it has failed for more than 5 minutes on the injected clock,
// once however many passes look; when it works again, they hear how long it failed.
func TestGatewayOutageAlerts(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	clk := &testClock{now: time.Date(2026, 11, 28, 6, 0, 0, 0, saoPaulo)}
	r := alertApp(t, srv, func(c *app.Config) {
		c.Clock = clk.Now
		c.GatewayProbeInterval = 100 * time.Millisecond
		c.ReconcileInterval = 0
	})
	if err := r.app.Gateway().Do(context.Background(), http.MethodPost, "/sandbox/faults",
		map[string]any{"kind": "unavailable", "count": 10000}, nil); err != nil {
		t.Fatal(err)
	}
	r.waitGateway("failing")
	r.tick() // the outage begins, for this instance, now
	clk.set(time.Date(2026, 11, 28, 6, 5, 0, 0, saoPaulo))
	r.tick()
	if n := len(r.mailsOf(alerts.TypeGateway)); n != 0 {
		t.Fatalf("%d outage alerts after 5 minutes exactly", n)
	}
	clk.set(time.Date(2026, 11, 28, 6, 6, 0, 0, saoPaulo))
	r.tick()
	r.tick()
	got := nextAlert(t, srv)
	if got.To[0] != alertOwner || !strings.Contains(got.Subject, "o gateway de pagamento está falhando") ||
		!strings.Contains(got.Text, "desde 28/11/2026 06:00") || !strings.Contains(got.Text, "erros internos") ||
		!strings.Contains(got.Text, r.app.MailComposer().PublicURL+"/dashboard/deposits") {
		t.Errorf("the outage's alert: to %v, %q\n%s", got.To, got.Subject, got.Text)
	}
	if n := len(r.mailsOf(alerts.TypeGateway)); n != 1 {
		t.Errorf("%d outage alerts after two passes", n)
	}

	if err := r.app.Gateway().Do(context.Background(), http.MethodDelete, "/sandbox/faults", nil, nil); err != nil {
		t.Fatal(err)
	}
	r.waitGateway("ok")
	clk.set(time.Date(2026, 11, 28, 6, 20, 0, 0, saoPaulo))
	r.tick()
	r.tick()
	got = nextAlert(t, srv)
	if !strings.Contains(got.Subject, "voltou a funcionar") || !strings.Contains(got.Text, "de 28/11/2026 06:00 a 28/11/2026 06:20") ||
		!strings.Contains(got.Text, "por 20 minutos") {
		t.Errorf("the recovery's alert: %q\n%s", got.Subject, got.Text)
	}
	if n := len(r.mailsOf(alerts.TypeGatewayUp)); n != 1 {
		t.Errorf("%d recovery alerts after two passes", n)
	}
}

// TestDailySummaryOnceAcrossInstances: two instances on one PostgreSQL database, on the same
// clock, both compose the day's summary: one is stored and sent.
func TestDailySummaryOnceAcrossInstances(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	dbURL := postgresDatabase(t)
	clk := &testClock{now: time.Date(2026, 11, 28, 8, 0, 0, 0, saoPaulo)}
	cfg := func(c *app.Config) { c.DatabaseURL, c.Clock = dbURL, clk.Now }
	clk.set(time.Date(2026, 11, 27, 14, 0, 0, 0, saoPaulo))
	a, b := alertApp(t, srv, cfg), alertApp(t, srv, cfg)
	a.payOrder()
	clk.set(time.Date(2026, 11, 28, 8, 0, 0, 0, saoPaulo))
	a.tick()
	b.tick()
	got := nextAlert(t, srv)
	if got.Subject != "Resumo de 27/11: 1 pedidos pagos, R$ 29,60 líquido" {
		t.Errorf("summary %q", got.Subject)
	}
	if n := len(b.mailsOf(alerts.TypeSummary)); n != 1 {
		t.Errorf("%d summaries stored by two instances", n)
	}
}
