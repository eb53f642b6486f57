package app_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/mail/shopper"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// startWithSMTP starts the app sending its e-mails to srv, retrying a refused one at once.
func startWithSMTP(t *testing.T, srv *mailtest.Server, mod func(*app.Config)) *running {
	t.Helper()
	return start(t, func(c *app.Config) {
		c.SMTPURL, c.MailFrom, c.MailRootCAs = srv.URL, "Loja Demo <loja@example.com.br>", srv.RootCAs
		c.MailSchedule = []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}
		if mod != nil {
			mod(c)
		}
	})
}

// orderOf reads the order of a PIX page's path (/pay/{id}).
func (r *running) orderOf(pay string) *checkout.Order {
	r.t.Helper()
	o, err := r.app.Service().Order(context.Background(), strings.TrimPrefix(pay, "/pay/"))
	if err != nil {
		r.t.Fatal(err)
	}
	return o
}

// entryOf is the position in o's history of its first entry into state to.
func entryOf(t *testing.T, o *checkout.Order, to checkout.OrderStatus) int {
	t.Helper()
	for i, h := range o.History {
		if h.To == to {
			return i
		}
	}
	t.Fatalf("order %s never became %s: %v", o.Number, to, o.History)
	return -1
}

// mailsTo returns the e-mail log's messages to addr once none of them is queued any more (the
// server's 250 is recorded a moment after it is given).
func (r *running) mailsTo(t *testing.T, addr string) []mail.Entry {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		entries, err := r.app.MailLog().List(context.Background(), mail.Filter{To: addr})
		if err != nil {
			t.Fatal(err)
		}
		queued := slices.ContainsFunc(entries, func(e mail.Entry) bool { return e.State == mail.Queued })
		if !queued || time.Now().After(deadline) {
			return entries
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestReceiptMail: paying an order sends its shopper the receipt over SMTP (the server refuses
// the first attempt with a 4xx; the retry and a resend carry the Message-ID derived from the
// order's paid entry): to the order's e-mail, Reply-To the support address, in pt-BR, with the
// order's number, its items and total in reais, the payee, the end-to-end id, and a link to
// the order's page under the public URL, in both parts. No other e-mail is sent (the order
// placed is off by default).
func TestReceiptMail(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	srv.Fail(mailtest.Failure{At: "data", Code: 451, Message: "try again later"})
	r := startWithSMTP(t, srv, nil)
	pay := r.placeOrder()
	if res := r.post(pay+"/sandbox-pay", nil); res.StatusCode != 303 {
		t.Fatalf("sandbox pay: %d", res.StatusCode)
	}
	got := srv.Next(t, 20*time.Second)
	o := r.orderOf(pay)
	public := r.app.MailComposer().PublicURL
	host := strings.Split(strings.TrimPrefix(strings.TrimPrefix(public, "http://"), "https://"), ":")[0]
	wantID := "<" + mail.MessageID(shopper.Type(settings.ShopperPaid), shopper.Cause(o.ID, entryOf(t, o, checkout.StatusPaid)),
		"joao@example.com", host) + ">"
	if id := got.Header.Get("Message-Id"); id != wantID {
		t.Errorf("Message-ID %q, want %q (derived from the order's paid entry)", id, wantID)
	}
	if len(got.To) != 1 || got.To[0] != "joao@example.com" || !strings.Contains(got.Header.Get("To"), "joao@example.com") {
		t.Errorf("to %v, header %q", got.To, got.Header.Get("To"))
	}
	if rt := got.Header.Get("Reply-To"); !strings.Contains(rt, "ajuda@loja-demo.example") {
		t.Errorf("Reply-To %q, want the support e-mail", rt)
	}
	if want := "Recibo do pedido " + o.Number; !strings.HasPrefix(got.Subject, want) {
		t.Errorf("subject %q, want %q…", got.Subject, want)
	}
	amount := views.FormatMoney(views.PtBR, o.Amount)
	e2e := o.PaidAttempt().EndToEnd
	page := public + "/pay/" + o.ID
	for _, part := range []struct{ name, body string }{{"text", got.Text}, {"html", got.HTML}} {
		for _, want := range []string{o.Number, amount, o.Lines[0].Title, "Loja Demo PIX Ltda", "11.222.333/0001-81",
			"horário de Brasília", e2e, page} {
			if want == "" || !strings.Contains(part.body, want) {
				t.Errorf("the receipt's %s part lacks %q:\n%s", part.name, want, part.body)
			}
		}
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(got.HTML))
	if err != nil {
		t.Fatal(err)
	}
	doc.Find("[href], [src]").Each(func(_ int, s *goquery.Selection) {
		ref := s.AttrOr("href", s.AttrOr("src", ""))
		if !strings.HasPrefix(ref, public+"/") && !strings.HasPrefix(ref, "mailto:") {
			t.Errorf("a link outside the public URL: %q", ref)
		}
	})
	if doc.Find(`a[href="`+page+`"]`).Length() != 1 {
		t.Errorf("no link to the order's page %s", page)
	}

	entries := r.mailsTo(t, "joao@example.com")
	if len(entries) != 1 || entries[0].Type != shopper.Type(settings.ShopperPaid) || entries[0].Attempts != 2 || entries[0].State != mail.Sent ||
		entries[0].OrderID != o.ID {
		t.Fatalf("the log holds %+v, want the receipt alone, sent at its second attempt", entries)
	}
	if err := r.app.MailLog().Resend(context.Background(), entries[0].ID); err != nil {
		t.Fatal(err)
	}
	if again := srv.Next(t, 20*time.Second); again.Header.Get("Message-Id") != wantID {
		t.Errorf("the resent copy's Message-ID %q, want %q", again.Header.Get("Message-Id"), wantID)
	}
}

// TestShopperNewsMail: with every kind on but the delivered one, the shopper of an order of
// physical goods gets, in order, the order placed (its amount and PIX code), the receipt, and
// the shipment (carrier, tracking code, and a link under the public URL that leads to the
// carrier's page); marking it delivered sends nothing.
func TestShopperNewsMail(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	r := startWithSMTP(t, srv, nil)
	ctx := context.Background()
	on := slices.DeleteFunc(settings.ShopperMessages(), func(k string) bool { return k == settings.ShopperDelivered })
	if err := r.app.MerchantSettings().UpdateShopperMail(ctx, on); err != nil {
		t.Fatal(err)
	}
	svc := r.app.Service()
	c, err := svc.AddToCart(ctx, "", "caneca-de-ceramica", 1)
	if err != nil {
		t.Fatal(err)
	}
	o, err := svc.PlaceOrder(ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewRequestKey(c, 0), Lang: "pt-BR",
		Customer: checkout.Customer{Name: "Maria da Silva", Document: "52998224725", Email: "maria@example.com.br", Phone: "11987654321"},
		Address: &checkout.Address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1000", Neighborhood: "Bela Vista",
			City: "São Paulo", State: "SP"}})
	if err != nil {
		t.Fatal(err)
	}
	pay := "/pay/" + o.ID
	placed := srv.Next(t, 20*time.Second)
	if !strings.HasPrefix(placed.Subject, "Pedido "+o.Number+": pague com Pix") || o.QR() == nil ||
		!strings.Contains(placed.Text, o.QR().BRCode) || !strings.Contains(placed.Text, views.FormatMoney(views.PtBR, o.Amount)) {
		t.Fatalf("order placed: %q\n%s", placed.Subject, placed.Text)
	}
	if res := r.post(pay+"/sandbox-pay", nil); res.StatusCode != 303 {
		t.Fatalf("sandbox pay: %d", res.StatusCode)
	}
	if got := srv.Next(t, 20*time.Second); !strings.HasPrefix(got.Subject, "Recibo do pedido "+o.Number) {
		t.Fatalf("after the order placed, %q", got.Subject)
	}
	if _, _, err := svc.MarkShipped(ctx, o.ID, checkout.ShipInput{Carrier: "Correios", TrackingCode: "AA123456789BR"}); err != nil {
		t.Fatal(err)
	}
	shipped := srv.Next(t, 20*time.Second)
	public := r.app.MailComposer().PublicURL
	if !strings.HasPrefix(shipped.Subject, "Pedido "+o.Number+" enviado") || !strings.Contains(shipped.Text, "AA123456789BR") ||
		!strings.Contains(shipped.HTML, "Correios") {
		t.Fatalf("shipped: %q\n%s", shipped.Subject, shipped.Text)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(shipped.HTML))
	if err != nil {
		t.Fatal(err)
	}
	track := doc.Find(`a[href$="/tracking"]`).AttrOr("href", "")
	if track != public+"/pay/"+o.ID+"/tracking" {
		t.Fatalf("tracking link %q", track)
	}
	res, err := r.http.Get(r.app.URL() + strings.TrimPrefix(track, public))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != 302 || loc != checkout.TrackingURL("Correios", "AA123456789BR") {
		t.Errorf("the tracking link answers %d to %q", res.StatusCode, loc)
	}
	if _, _, err := svc.MarkDelivered(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	// A message is written with its change or not at all: once the delivery is recorded, the
	// log holds every message it will ever have of it.
	var types []string
	for _, e := range r.mailsTo(t, "maria@example.com.br") {
		types = append(types, e.Type)
	}
	if strings.Join(types, ",") != "shopper.shipped,shopper.paid,shopper.order_placed" {
		t.Errorf("the log holds %v, want no delivery e-mail (turned off)", types)
	}
}

// TestReceiptOfLinkAndSessionOrders: an order placed through a payment link and one placed
// through a checkout session get their receipt too.
func TestReceiptOfLinkAndSessionOrders(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	r := startWithSMTP(t, srv, nil)
	secret, _, err := r.app.APIKeys().Create(context.Background(), "loja", apikeys.ScopeWrite, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := r.api(secret, "POST", "/payment-links", map[string]any{"title": "Doação", "amount": 2500, "slug": "doacao"}, nil); st != 201 {
		t.Fatalf("creating a link: %d", st)
	}
	_, doc := r.get("/l/doacao")
	key := doc.Find(`input[name="request_key"]`).AttrOr("value", "")
	res := r.post("/l/doacao", url.Values{"request_key": {key}, "name": {"Bia Costa"}, "document": {"52998224725"},
		"email": {"bia@example.com"}, "phone": {"11987654321"}})
	if res.StatusCode != 303 {
		t.Fatalf("placing the link's order: %d", res.StatusCode)
	}
	if res := r.post(res.Header.Get("Location")+"/sandbox-pay", nil); res.StatusCode != 303 {
		t.Fatalf("sandbox pay: %d", res.StatusCode)
	}
	if got := srv.Next(t, 20*time.Second); got.To[0] != "bia@example.com" || !strings.HasPrefix(got.Subject, "Recibo do pedido") ||
		!strings.Contains(got.Text, "R$ 25,00") {
		t.Errorf("the link order's receipt: %v %q\n%s", got.To, got.Subject, got.Text)
	}

	var sess apijson.CheckoutSession
	if st := r.api(secret, "POST", "/checkout-sessions", map[string]any{
		"items": []any{map[string]any{"title": "Curso de fotografia", "unitPrice": 12990, "type": "DIGITAL"}},
	}, &sess); st != 201 {
		t.Fatalf("creating a session: %d", st)
	}
	res = r.post("/s/"+sess.ID, url.Values{"name": {"Caio Dias"}, "document": {"52998224725"},
		"email": {"caio@example.com"}, "phone": {"11987654321"}})
	if res.StatusCode != 303 {
		t.Fatalf("placing the session's order: %d", res.StatusCode)
	}
	if res := r.post(res.Header.Get("Location")+"/sandbox-pay", nil); res.StatusCode != 303 {
		t.Fatalf("sandbox pay: %d", res.StatusCode)
	}
	if got := srv.Next(t, 20*time.Second); got.To[0] != "caio@example.com" || !strings.Contains(got.Text, "Curso de fotografia") ||
		!strings.Contains(got.Text, "R$ 129,90") {
		t.Errorf("the session order's receipt: %v %q\n%s", got.To, got.Subject, got.Text)
	}
}

// TestReceiptInTheSavedStoreFace: the receipt is in the store's name, payee and support
// e-mail as last saved on the dashboard's "Loja" page, not as the environment first set them.
func TestReceiptInTheSavedStoreFace(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	r := startWithSMTP(t, srv, func(c *app.Config) {
		c.AdminEmail, c.AdminPassword = "dona@loja.example", "senha-configurada"
	})
	token := r.signIn("dona@loja.example", "senha-configurada")
	r.saveStore(token, url.Values{"name": {"Empório Serrano"},
		"legal_name": {"Empório Serrano Ltda"}, "document": {"11.222.333/0001-81"}, "support_email": {"ajuda@emporio.example"},
		"address": {"Rua da Serra, 5\nPetrópolis - RJ"}})
	r.uploadLogo(token, 800, 200)
	pay := r.placeOrder()
	if res := r.post(pay+"/sandbox-pay", nil); res.StatusCode != 303 {
		t.Fatalf("sandbox pay: %d", res.StatusCode)
	}
	got := srv.Next(t, 20*time.Second)
	if !strings.Contains(got.Subject, "Empório Serrano") || !strings.Contains(got.Text, "Empório Serrano Ltda") ||
		!strings.Contains(got.Header.Get("Reply-To"), "ajuda@emporio.example") {
		t.Errorf("the receipt after the store was renamed: %q, Reply-To %q\n%s", got.Subject, got.Header.Get("Reply-To"), got.Text)
	}
	// The logo at the e-mails' size, by its absolute public address; the store's address under
	// the payee.
	logo := regexp.MustCompile(`<img src="(https?://[^"]+/images/store/[0-9a-f]{24}-m\.png)" alt="Empório Serrano" width="200" height="50"`).FindStringSubmatch(got.HTML)
	if logo == nil || !strings.Contains(strings.ReplaceAll(got.Text, "\r\n", "\n"), "Rua da Serra, 5\n  Petrópolis - RJ") || !strings.Contains(got.HTML, "Petrópolis - RJ") {
		t.Fatalf("the receipt's logo or address:\n%s\n%s", got.HTML, got.Text)
	}
	if res, _ := r.get(strings.TrimPrefix(logo[1], r.app.MailComposer().PublicURL)); res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/png" {
		t.Errorf("the e-mail's logo %s: %d", logo[1], res.StatusCode)
	}
}

// placeOrderIn places an order of the e-book through the shopper's pages from a browser whose
// language is acceptLanguage, and returns its PIX page's path.
func (r *running) placeOrderIn(acceptLanguage string) string {
	r.t.Helper()
	send := func(method, path string, form url.Values) *http.Response {
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, r.app.URL()+path, body)
		req.Header.Set("Accept-Language", acceptLanguage)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		res, err := r.http.Do(req)
		if err != nil {
			r.t.Fatal(err)
		}
		return res
	}
	res := send(http.MethodPost, "/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}})
	res.Body.Close()
	cart := res.Header.Get("Location")
	res = send(http.MethodGet, cart+"/checkout", nil)
	doc, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		r.t.Fatal(err)
	}
	res = send(http.MethodPost, cart+"/checkout", url.Values{"request_key": {doc.Find(`input[name="request_key"]`).AttrOr("value", "")},
		"name": {"João Souza"}, "document": {"52998224725"}, "email": {"joao@example.com"}, "phone": {"11987654321"}})
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("placing an order in %s: %d", acceptLanguage, res.StatusCode)
	}
	return res.Header.Get("Location")
}

// TestShopperMailInTheOrdersLanguage: the shopper's e-mail is in the order's language, the
// one of the browser it was placed from: an order placed in English gets an English receipt
// over SMTP (subject, both parts, money and time written the English way, Content-Language
// en), one placed in Portuguese a Portuguese one, from the same store at the same time.
func TestShopperMailInTheOrdersLanguage(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	r := startWithSMTP(t, srv, nil)
	en, pt := r.placeOrderIn("en-US,en;q=0.9"), r.placeOrderIn("pt-BR,pt;q=0.9")
	enOrder, ptOrder := r.orderOf(en), r.orderOf(pt)
	if enOrder.Lang != "en" || ptOrder.Lang != "pt-BR" {
		t.Fatalf("the orders' languages: %q and %q", enOrder.Lang, ptOrder.Lang)
	}
	for _, pay := range []string{en, pt} {
		if res := r.post(pay+"/sandbox-pay", nil); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox pay: %d", res.StatusCode)
		}
	}
	got := map[string]mailtest.Received{}
	for range 2 {
		m := srv.Next(t, 20*time.Second)
		for _, o := range []*checkout.Order{enOrder, ptOrder} {
			if strings.Contains(m.Subject, o.Number) {
				got[o.Lang] = m
			}
		}
	}
	for _, c := range []struct {
		lang, subject, money, zone string
		not                        []string
	}{
		{"en", "Receipt for order " + enOrder.Number, "R$29.90", "Brasília time", []string{"Recibo", "horário", "R$ 29,90"}},
		{"pt-BR", "Recibo do pedido " + ptOrder.Number, "R$ 29,90", "horário de Brasília", []string{"Receipt", "Brasília time", "R$29.90"}},
	} {
		m, ok := got[c.lang]
		if !ok {
			t.Errorf("no receipt of the %s order (received %d)", c.lang, len(got))
			continue
		}
		if !strings.HasPrefix(m.Subject, c.subject) || m.Header.Get("Content-Language") != c.lang {
			t.Errorf("the %s receipt: subject %q, Content-Language %q", c.lang, m.Subject, m.Header.Get("Content-Language"))
		}
		for _, part := range []struct{ name, body string }{{"text", m.Text}, {"html", m.HTML}} {
			if !strings.Contains(part.body, c.money) || !strings.Contains(part.body, c.zone) {
				t.Errorf("the %s receipt's %s part lacks %q or %q:\n%s", c.lang, part.name, c.money, c.zone, part.body)
			}
			for _, other := range c.not {
				if strings.Contains(part.body, other) {
					t.Errorf("the %s receipt's %s part says %q of the other language", c.lang, part.name, other)
				}
			}
		}
	}
}
