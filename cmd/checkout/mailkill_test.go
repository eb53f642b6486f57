package main

import (
	"context"
	"database/sql"
	"net/http"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/postgres/pgtest"
)

// TestReceiptSurvivesSIGKILL runs the program as a process of its own with a real SMTP server,
// pays an order, and kills the process with SIGKILL while the server holds its answer to the
// receipt (the payment committed, the 250 not yet seen); started again on the same data, the
// program sends the receipt, and every copy the server saw has the same Message-ID. On SQLite
// and on PostgreSQL.
func TestReceiptSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" || runtime.GOOS == "ios" {
		// The child trusts the test server's certificate through SSL_CERT_FILE, which Go reads
		// only where it keeps the roots itself.
		t.Skip("SSL_CERT_FILE is not read on " + runtime.GOOS)
	}
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "data")
		receiptSurvivesSIGKILL(t, dir, "sqlite", filepath.Join(dir, "checkout.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		db := pgtest.Database(t, "checkout_kill_test_")
		receiptSurvivesSIGKILL(t, filepath.Join(t.TempDir(), "data"), "pgx", db, "CHECKOUT_DATABASE_URL="+db)
	})
}

func receiptSurvivesSIGKILL(t *testing.T, dataDir, driver, dsn string, env ...string) {
	smtp := mailtest.Start(t)
	env = append(env, "CHECKOUT_SMTP_URL="+smtp.URL, "CHECKOUT_MAIL_FROM=Loja Demo <loja@example.com.br>",
		"SSL_CERT_FILE="+smtp.CAFile(t))
	const shopper = "joao.souza@example.com"
	toShopper := func(r mailtest.Received) bool { return len(r.To) == 1 && r.To[0] == shopper }

	// The server keeps the receipt and holds its answer until the process is dead.
	held, dead := make(chan mailtest.Received, 1), make(chan struct{})
	var once sync.Once
	smtp.OnData(func(r mailtest.Received) {
		if toShopper(r) {
			once.Do(func() { held <- r })
			<-dead
		}
	})
	proc, shop := startProgram(t, dataDir, env...)
	pay := placeOrderOver(t, shop, shopper)
	postForm(t, shop+pay+"/sandbox-pay", nil)
	var first mailtest.Received
	select {
	case first = <-held:
	case <-time.After(60 * time.Second):
		t.Fatal("no receipt reached the SMTP server within a minute of the payment")
	}
	if err := proc.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = proc.Wait()
	smtp.OnData(nil)
	close(dead) // the 250 goes to a closed connection

	// The dead process's lease on the receipt lapses 70 s after it took it (the outbox waits
	// that long, in case the process were only slow); the test ends it as time would.
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.ExecContext(context.Background(), `UPDATE webhook_deliveries SET lease_until = 0 WHERE status = 'pending'`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}

	startProgram(t, dataDir, env...)
	// Next returns the server's messages in order, the held copy first.
	for seen := 0; seen < 2; {
		if toShopper(smtp.Next(t, 60*time.Second)) {
			seen++
		}
	}
	id := first.Header.Get("Message-Id")
	copies := 0
	for _, r := range smtp.Messages() {
		if toShopper(r) {
			copies++
			if got := r.Header.Get("Message-Id"); got != id || r.Subject != first.Subject {
				t.Errorf("a copy with Message-ID %q, subject %q; the first had %q, %q", got, r.Subject, id, first.Subject)
			}
		}
	}
	if copies < 2 || id == "" {
		t.Errorf("%d copies to the shopper, Message-ID %q", copies, id)
	}
	if !strings.HasPrefix(first.Subject, "Recibo do pedido PX-") || !strings.Contains(first.Text, pay) {
		t.Errorf("not the receipt of order %s: %q\n%s", pay, first.Subject, first.Text)
	}
}

// placeOrderOver buys the e-book as a shopper with e-mail email, over HTTP, and returns the PIX
// page's path.
func placeOrderOver(t *testing.T, shop, email string) string {
	t.Helper()
	cart := postForm(t, shop+"/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}}).Header.Get("Location")
	res, err := http.Get(shop + cart + "/checkout")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	key, _ := doc.Find(`input[name="request_key"]`).Attr("value")
	res = postForm(t, shop+cart+"/checkout", url.Values{"request_key": {key}, "name": {"João Souza"},
		"document": {"52998224725"}, "email": {email}, "phone": {"11987654321"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("placing an order: %d", res.StatusCode)
	}
	return res.Header.Get("Location")
}

// postForm posts form without following a redirect.
func postForm(t *testing.T, u string, form url.Values) *http.Response {
	t.Helper()
	c := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode >= 400 {
		t.Fatalf("POST %s: %d", u, res.StatusCode)
	}
	return res
}
