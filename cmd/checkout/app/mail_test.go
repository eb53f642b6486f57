package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

// TestMailWiring: with CHECKOUT_SMTP_URL a message enqueued through the app's composer and log
// reaches the SMTP server, /readyz says mail ok, and the banner names the server without its
// password; without it /readyz says off and the banner says where the messages are kept.
func TestMailWiring(t *testing.T) {
	t.Parallel()
	srv := mailtest.Start(t)
	var banner strings.Builder
	r := start(t, func(c *app.Config) {
		c.SMTPURL, c.MailFrom, c.MailRootCAs, c.Stdout = srv.URL, "Loja Demo <loja@example.com.br>", srv.RootCAs, &banner
	})
	if _, body := r.readyz(); body["mail"] != "ok" {
		t.Errorf("/readyz %v, want mail ok", body)
	}
	if out := banner.String(); !strings.Contains(out, "e-mail:") || strings.Contains(out, mailtest.Password) ||
		strings.Contains(out, "s3nh") {
		t.Errorf("banner %q", out)
	}
	f := email.Frame{Lang: views.PtBR, StoreName: "Loja Demo", PublicURL: r.app.MailComposer().PublicURL, Subject: "Teste"}
	m, err := r.app.MailComposer().Compose(context.Background(), mail.Draft{Type: "mail.test", Cause: "wiring",
		To: mail.Address{Email: "ana@example.com"}, Subject: f.Subject, HTML: email.Test(f), Text: email.TestText(f), At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.app.MailLog().Enqueue(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	if got := srv.Next(t, 20*time.Second); got.Header.Get("Message-Id") != "<"+m.ID+">" || !got.TLS {
		t.Errorf("received %v (TLS %v)", got.Header, got.TLS)
	}

	var plain strings.Builder
	off := start(t, func(c *app.Config) { c.Stdout = &plain })
	if _, body := off.readyz(); body["mail"] != "off" {
		t.Errorf("/readyz without SMTP %v, want mail off", body)
	}
	if !strings.Contains(plain.String(), "/dashboard/mail") {
		t.Errorf("banner without SMTP %q does not say where the messages are", plain.String())
	}
}
