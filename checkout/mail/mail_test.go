package mail_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/mailtest"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

const public = "https://loja.example.com.br"

// clock is the outbox's, moved by hand so that retries come due without waiting.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// rig is a store, an SMTP server, a sender to it and the outbox of e-mails.
type rig struct {
	store  *sqlite.Store
	smtp   *mailtest.Server
	sender *mail.Sender
	ob     *outbox.Outbox
	log    *mail.Log
	clock  *clock
	comp   *mail.Composer
}

func newRig(t *testing.T) *rig {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &rig{store: st, smtp: mailtest.Start(t), clock: &clock{now: time.Date(2026, 3, 2, 15, 4, 0, 0, time.UTC)},
		comp: &mail.Composer{PublicURL: public}}
	srv, err := mail.ParseServer(r.smtp.URL)
	if err != nil {
		t.Fatal(err)
	}
	from, _ := mail.ParseFrom("Loja Demo <loja@example.com.br>")
	r.sender, err = mail.NewSender(mail.SenderOptions{Server: srv, From: from, RootCAs: r.smtp.RootCAs, Suppressions: st,
		Clock: r.clock.Now, Timeout: 5 * time.Second,
		ReplyTo: func(context.Context) (string, error) { return "ajuda@loja.example.com.br", nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.sender.Close)
	oo := mail.OutboxOptions(r.sender, []time.Duration{time.Minute, time.Minute}, 0, nil)
	oo.Clock = r.clock.Now
	if r.ob, err = st.Outbox(oo); err != nil {
		t.Fatal(err)
	}
	r.log = mail.NewLog(r.ob, st)
	return r
}

// compose makes the test e-mail to name <to>, caused by cause, and stores it.
func (r *rig) compose(t *testing.T, cause, name, to string) checkout.OutboxMessage {
	t.Helper()
	f := email.Frame{Lang: views.PtBR, StoreName: "Loja Demo", PublicURL: public, SupportEmail: "ajuda@loja.example.com.br",
		Subject: "Teste\r\nBcc: intruso@example.net"}
	m, err := r.comp.Compose(context.Background(), mail.Draft{Type: "mail.test", Cause: cause, To: mail.Address{Name: name, Email: to},
		Subject: f.Subject, HTML: email.Test(f), Text: email.TestText(f), At: r.clock.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.store.Enqueue(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	return m
}

// pass makes one pass of the outbox: every due message gets one attempt.
func (r *rig) pass(t *testing.T) int {
	t.Helper()
	n, err := r.ob.DeliverDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (r *rig) entry(t *testing.T, to string) mail.Entry {
	t.Helper()
	es, err := r.log.List(context.Background(), mail.Filter{To: to})
	if err != nil || len(es) != 1 {
		t.Fatalf("log of %s: %v %+v", to, err, es)
	}
	return es[0]
}

// TestSendsOverSTARTTLS: a message reaches a real SMTP server over STARTTLS with AUTH PLAIN,
// once, with both parts, its Message-ID, the Reply-To, links only to the public URL, and no
// header injected through the recipient's name or the subject.
func TestSendsOverSTARTTLS(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	m := r.compose(t, "first", "Ana\r\nBcc: intruso@example.net", "ana@example.com")
	if n := r.pass(t); n != 1 {
		t.Fatalf("%d attempts", n)
	}
	got := r.smtp.Next(t, 10*time.Second)
	if !got.TLS {
		t.Error("the session was not encrypted")
	}
	if len(got.To) != 1 || got.To[0] != "ana@example.com" || got.From != "loja@example.com.br" {
		t.Errorf("envelope: from %q to %q", got.From, got.To)
	}
	h := got.Header
	if id := h.Get("Message-Id"); id != "<"+m.ID+">" {
		t.Errorf("Message-ID %q, want <%s>", id, m.ID)
	}
	head, _, _ := strings.Cut(string(got.Raw), "\r\n\r\n")
	if h.Get("Bcc") != "" || strings.Contains(head, "\nBcc:") || strings.Contains(head, "intruso@example.net>") {
		t.Errorf("a header was injected:\n%s", head)
	}
	if got.Subject != "Teste Bcc: intruso@example.net" {
		t.Errorf("subject %q", got.Subject)
	}
	if h.Get("Reply-To") != "<ajuda@loja.example.com.br>" || !strings.Contains(h.Get("From"), "loja@example.com.br") {
		t.Errorf("From %q Reply-To %q", h.Get("From"), h.Get("Reply-To"))
	}
	if h.Get("Content-Language") != "pt-BR" {
		t.Errorf("Content-Language %q", h.Get("Content-Language"))
	}
	if !strings.Contains(got.Text, "Tudo certo com o envio de e-mails") || !strings.Contains(got.HTML, "<h1>Tudo certo com o envio de e-mails</h1>") {
		t.Errorf("parts:\n%s\n---\n%s", got.Text, got.HTML)
	}
	if !strings.Contains(got.HTML, `href="`+public+`/"`) || strings.Contains(got.HTML, "style=") {
		t.Errorf("HTML:\n%s", got.HTML)
	}
	if e := r.entry(t, "ana@example.com"); e.State != mail.Sent || e.MessageID != m.ID || e.Content.Subject != got.Subject {
		t.Errorf("log entry %+v", e)
	}
	if r.sender.State() != "ok" {
		t.Errorf("state %s", r.sender.State())
	}
	// The same cause again makes the same message, which is not stored twice.
	again := r.compose(t, "first", "Ana", "ana@example.com")
	if again.ID != m.ID || r.pass(t) != 0 {
		t.Errorf("composing the same cause again: id %s (was %s)", again.ID, m.ID)
	}
}

// TestRefusalsAndOutage: a 4xx is retried and the copy that arrives has the same Message-ID; a
// 5xx to the recipient fails the message with the server's reply and suppresses the address
// until it is cleared; a server down fails the attempt (readyz: failing) and the message goes
// once it is back; a burst of messages goes over reused connections.
func TestRefusalsAndOutage(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	ctx := context.Background()

	// 451, then accepted.
	r.smtp.Fail(mailtest.Failure{At: "data", Code: 451, Message: "greylisted, try later"})
	m := r.compose(t, "grey", "", "bia@example.com")
	r.pass(t)
	if e := r.entry(t, "bia@example.com"); e.State != mail.Queued || !strings.Contains(e.Reason, "451") {
		t.Fatalf("after a 451: %+v", e)
	}
	r.clock.Advance(2 * time.Minute)
	r.pass(t)
	got := r.smtp.Next(t, 10*time.Second)
	if got.Header.Get("Message-Id") != "<"+m.ID+">" {
		t.Errorf("the retry's Message-ID %q, want <%s>", got.Header.Get("Message-Id"), m.ID)
	}
	if e := r.entry(t, "bia@example.com"); e.State != mail.Sent || e.Attempts != 2 {
		t.Errorf("after the retry: %+v", e)
	}

	// 550 to the recipient: failed for good, the address suppressed.
	r.smtp.Fail(mailtest.Failure{At: "rcpt", Code: 550, Message: "no such user here"})
	r.compose(t, "bounce", "", "Cid@Example.com")
	r.pass(t)
	e := r.entry(t, "cid@example.com")
	if e.State != mail.Failed || !strings.Contains(e.Reason, "550") || !strings.Contains(e.Reason, "no such user here") {
		t.Fatalf("after a 550: %+v", e)
	}
	if sup, err := r.log.Suppressions(ctx); err != nil || len(sup) != 1 || sup[0].Address != "cid@example.com" {
		t.Fatalf("suppressions: %v %+v", err, sup)
	}
	r.compose(t, "bounce-again", "", "cid@example.com")
	r.pass(t)
	es, _ := r.log.List(ctx, mail.Filter{To: "cid@example.com", State: mail.Failed})
	if len(es) != 2 || !es[0].Suppressed() {
		t.Fatalf("to a suppressed address: %+v", es)
	}
	if err := r.log.Unsuppress(ctx, "cid@example.com"); err != nil {
		t.Fatal(err)
	}
	if err := r.log.Resend(ctx, es[0].ID); err != nil {
		t.Fatal(err)
	}
	r.pass(t)
	if got := r.smtp.Next(t, 10*time.Second); got.To[0] != "cid@example.com" {
		t.Errorf("resent to %v", got.To)
	}

	// The server goes down: the attempt fails and /readyz would say so; back, the message goes.
	r.smtp.Stop()
	r.sender.Close() // its idle connection died with the server
	r.compose(t, "outage", "", "davi@example.com")
	r.pass(t)
	if e := r.entry(t, "davi@example.com"); e.State != mail.Queued || !strings.Contains(e.Reason, "connecting") {
		t.Fatalf("with the server down: %+v", e)
	}
	if r.sender.State() != "failing" {
		t.Errorf("state %s with the server down", r.sender.State())
	}
	r.smtp.Restart(t)
	r.clock.Advance(2 * time.Minute)
	r.pass(t)
	r.smtp.Next(t, 10*time.Second)
	if r.sender.State() != "ok" {
		t.Errorf("state %s once back", r.sender.State())
	}

	// A burst reuses connections.
	before := r.smtp.Conns()
	for i := range 30 {
		r.compose(t, fmt.Sprint("burst-", i), "", fmt.Sprintf("p%d@example.com", i))
	}
	r.pass(t)
	for range 30 {
		r.smtp.Next(t, 10*time.Second)
	}
	if opened := r.smtp.Conns() - before; opened > 2 {
		t.Errorf("30 messages opened %d connections, want at most 2", opened)
	}
}

// TestNoServerKeepsMessages: without a server a message is made, kept whole and marked not
// sent; /readyz says off.
func TestNoServerKeepsMessages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := mail.NewSender(mail.SenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ob, err := st.Outbox(mail.OutboxOptions(s, nil, 0, nil))
	if err != nil {
		t.Fatal(err)
	}
	f := email.Frame{Lang: views.En, StoreName: "Demo", PublicURL: public, Subject: "Test"}
	m, err := (&mail.Composer{PublicURL: public}).Compose(ctx, mail.Draft{Type: "mail.test", Cause: "x",
		To: mail.Address{Email: "eva@example.com"}, Lang: "en", Subject: f.Subject, HTML: email.Test(f), Text: email.TestText(f),
		At: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Enqueue(ctx, m); err != nil {
		t.Fatal(err)
	}
	if _, err := ob.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	es, err := mail.NewLog(ob, st).List(ctx, mail.Filter{})
	if err != nil || len(es) != 1 {
		t.Fatalf("%v %+v", err, es)
	}
	if e := es[0]; !e.NoServer() || !strings.Contains(e.Content.HTML, "E-mail sending works") || e.Content.Lang != "en" {
		t.Errorf("kept: %+v", e)
	}
	if s.State() != "off" {
		t.Errorf("state %s", s.State())
	}
}

// TestCopyAfterALostAnswer: when the sending stops between the server's receipt of a message
// and its 250 being recorded (a process dying there), the message is sent again, and both
// copies carry the same Message-ID: delivery is at least once.
func TestCopyAfterALostAnswer(t *testing.T) {
	t.Parallel()
	r := newRig(t)
	m := r.compose(t, "receipt", "", "gil@example.com")
	ctx, stop := context.WithCancel(context.Background())
	r.smtp.OnData(func(mailtest.Received) { stop() })
	if _, err := r.ob.DeliverDue(ctx); err == nil {
		t.Fatal("the pass did not stop")
	}
	first := r.smtp.Next(t, 10*time.Second)
	r.smtp.OnData(nil)
	if e := r.entry(t, "gil@example.com"); e.State != mail.Queued || e.Attempts != 0 {
		t.Fatalf("after the lost answer: %+v", e)
	}
	r.pass(t)
	second := r.smtp.Next(t, 10*time.Second)
	if id := "<" + m.ID + ">"; first.Header.Get("Message-Id") != id || second.Header.Get("Message-Id") != id {
		t.Errorf("copies %q and %q, want both %s", first.Header.Get("Message-Id"), second.Header.Get("Message-Id"), id)
	}
	if e := r.entry(t, "gil@example.com"); e.State != mail.Sent {
		t.Errorf("after the second copy: %+v", e)
	}
}
