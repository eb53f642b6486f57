package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/mail/shopper"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/views"
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

// TestReceiptMail: paying an order sends its shopper the receipt over SMTP (the server refuses
// the first attempt with a 4xx; the retry and a resend carry the Message-ID derived from the
// order's paid entry): to the order's e-mail, Reply-To the support address, in pt-BR, with the
// order's number, its items and total in reais, the payee, the end-to-end id, and a link to
// the order's page under the public URL, in both parts. No other e-mail is sent (the order
// placed is off by default).
func TestReceiptMail(t *testing.T) {
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
	wantID := "<" + mail.MessageID(shopper.Type(merchant.ShopperPaid), shopper.Cause(o.ID, entryOf(t, o, checkout.StatusPaid)),
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

	entries, err := r.app.MailLog().List(context.Background(), mail.Filter{To: "joao@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Type != shopper.Type(merchant.ShopperPaid) || entries[0].Attempts != 2 ||
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
