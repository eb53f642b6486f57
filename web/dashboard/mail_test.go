package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

// keptMail makes a message to addr, kept unsent (the environment has no SMTP server), and
// returns its id in the e-mail log.
func (e *env) keptMail(addr string) string {
	e.t.Helper()
	ctx := context.Background()
	f := email.Frame{Lang: views.PtBR, StoreName: "Loja Teste", PublicURL: e.composer.PublicURL, Subject: "Pedido pago"}
	m, err := e.composer.Compose(ctx, mail.Draft{Type: "mail.test", Cause: addr, To: mail.Address{Email: addr},
		Subject: f.Subject, HTML: email.Test(f), Text: email.TestText(f), At: e.svc.Now()})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.mailLog.Enqueue(ctx, m); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.mailOutbox.DeliverDue(ctx); err != nil {
		e.t.Fatal(err)
	}
	es, err := e.mailLog.List(ctx, mail.Filter{To: addr})
	if err != nil || len(es) == 0 {
		e.t.Fatalf("kept message: %v %+v", err, es)
	}
	return strconv.FormatInt(es[0].ID, 10)
}

// TestMailLog: an owner sees every message in full (its text, its HTML as a sandboxed
// document), filters by state and recipient, pages by key, sends a test e-mail, resends one
// and clears a suppressed address; a developer sees the log with recipients and bodies masked.
// Without an SMTP server the log says so and each message says why it was not sent.
func TestMailLog(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id := e.keptMail("ana@example.com")
	for i := range 3 {
		e.keptMail("p" + strconv.Itoa(i) + "@example.com")
	}
	b := e.browser()
	csrf := b.login()

	res, doc := b.get("/dashboard/mail")
	if res.StatusCode != http.StatusOK || doc.Find(testid("mail-no-server")).Length() != 1 {
		t.Fatalf("log: %d, no-server banner %d", res.StatusCode, doc.Find(testid("mail-no-server")).Length())
	}
	if rows := doc.Find(testid("mail-row")); rows.Length() != 4 || rows.First().AttrOr("data-state", "") != "notsent" ||
		!strings.Contains(rows.First().Find(testid("mail-reason")).Text(), "não enviado: nenhum servidor SMTP configurado") {
		t.Fatalf("rows: %d %q", rows.Length(), rows.First().Text())
	}
	_, doc = b.get("/dashboard/mail?to=ana%40example.com&state=notsent")
	if rows := doc.Find(testid("mail-row")); rows.Length() != 1 || rows.AttrOr("data-id", "") != id ||
		!strings.Contains(rows.Text(), "ana@example.com") {
		t.Errorf("filtered: %q", rows.Text())
	}
	_, doc = b.get("/dashboard/mail?state=sent")
	if doc.Find(testid("mail-row")).Length() != 0 {
		t.Error("a sent filter lists unsent messages")
	}

	// The message in full, its HTML a sandboxed document of its own.
	_, doc = b.get("/dashboard/mail/" + id)
	if !strings.Contains(doc.Find(testid("mail-text")).Text(), "Tudo certo com o envio de e-mails") ||
		doc.Find(testid("mail-resend")).Length() != 1 || !strings.HasPrefix(doc.Find(testid("mail-message-id")).Text(), "<mail.test.") {
		t.Fatalf("message page: %q", doc.Find("main").Text())
	}
	res, _ = b.get("/dashboard/mail/" + id + "/html")
	if csp := res.Header.Get("Content-Security-Policy"); res.StatusCode != http.StatusOK || !strings.HasPrefix(csp, "sandbox;") ||
		!strings.Contains(csp, "style-src 'none'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("HTML: %d, CSP %q", res.StatusCode, csp)
	}

	// Resend: queued again with the same Message-ID.
	res = b.do(http.MethodPost, "/dashboard/mail/"+id+"/resend", url.Values{"csrf_token": {csrf}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("resend: %d", res.StatusCode)
	}
	if es, _ := e.mailLog.List(ctx, mail.Filter{To: "ana@example.com"}); len(es) != 1 || es[0].State != mail.Queued {
		t.Errorf("after resend: %+v", es)
	}

	// A test e-mail to the signed-in user.
	res = b.do(http.MethodPost, "/dashboard/mail/test", url.Values{"csrf_token": {csrf}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("test e-mail: %d", res.StatusCode)
	}
	if es, _ := e.mailLog.List(ctx, mail.Filter{To: dashEmail}); len(es) != 1 || es[0].Type != "mail.test" {
		t.Errorf("test e-mail: %+v", es)
	}

	// Paging by key: two a page would need the page size; the links carry before/after ids.
	_, doc = b.get("/dashboard/mail?before=" + id)
	if doc.Find(testid("mail-row")).Length() != 0 {
		t.Errorf("older than the first message: %d rows", doc.Find(testid("mail-row")).Length())
	}

	// A suppressed address is listed and cleared.
	suppress(t, e, "bounce@example.com")
	_, doc = b.get("/dashboard/mail")
	if !strings.Contains(doc.Find(testid("mail-suppressed")).Text(), "bounce@example.com") {
		t.Fatalf("suppressed: %q", doc.Find(testid("mail-suppressed")).Text())
	}
	b.do(http.MethodPost, "/dashboard/mail/suppressions/clear", url.Values{"csrf_token": {csrf}, "address": {"bounce@example.com"}})
	_, doc = b.get("/dashboard/mail?done=cleared")
	if doc.Find(testid("mail-suppressed")).Length() != 0 || doc.Find(testid("mail-notice")).Length() != 1 {
		t.Error("the address is still suppressed")
	}

	// A developer: the log, masked.
	suppress(t, e, "bounce@example.com")
	if _, err := e.dash.accounts.AddUser(ctx, "dev@loja.example", dashPassword, team.RoleDeveloper); err != nil {
		t.Fatal(err)
	}
	dev := e.browser()
	dev.loginAs("dev@loja.example", dashPassword)
	_, doc = dev.get("/dashboard/mail")
	if text := doc.Find("main").Text(); strings.Contains(text, "ana@example.com") || !strings.Contains(text, "a***@example.com") ||
		strings.Contains(text, "bounce@example.com") {
		t.Errorf("the developer's log is not masked: %q", text)
	}
	_, doc = dev.get("/dashboard/mail/" + id)
	if doc.Find(testid("mail-masked")).Length() != 1 || doc.Find(testid("mail-text")).Length() != 0 ||
		doc.Find(testid("mail-html")).Length() != 0 {
		t.Errorf("the developer sees the body: %q", doc.Find("main").Text())
	}
}

func suppress(t *testing.T, e *env, addr string) {
	t.Helper()
	if err := e.mailStore.Suppress(context.Background(), addr, "550 no such user", e.svc.Now()); err != nil {
		t.Fatal(err)
	}
}
