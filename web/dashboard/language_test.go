package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestDashboardSpeaksTheReadersLanguage: on the real path (an order placed and paid through the
// sandbox, its notification skipped for want of a URL, the sandbox's deposits and withdrawals),
// every dashboard page in pt-BR says nothing in English and no page, in either language, shows
// a code as the gateway or the store spells it, or a CPF, CNPJ, phone or PIX key unpunctuated.
func TestDashboardSpeaksTheReadersLanguage(t *testing.T) {
	e, b := signedIn(t)
	ctx := context.Background()
	o := e.waitStatus(orderID(e.placeOrder()), "awaiting_payment")
	depID := o.CurrentAttempt().TransactionID
	if err := (payer{e.client}).Pay(ctx, depID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.RefreshFromGateway(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	e.waitStatus(o.ID, "paid")
	if _, err := e.outbox.DeliverDue(ctx); err != nil {
		t.Fatal(err)
	}
	// A physical order too: its address has a CEP.
	cart := e.newCart("caneca-de-ceramica", "1")
	_, form := e.get(cart + "/checkout")
	physical := orderID(e.location(e.do(http.MethodPost, cart+"/checkout", url.Values{
		"request_key": {form.Find(`input[name="request_key"]`).AttrOr("value", "")}, "name": {"Maria da Silva"},
		"document": {"529.982.247-25"}, "email": {"maria@example.com.br"}, "phone": {"(11) 98765-4321"},
		"zip_code": {"01310100"}, "street": {"Avenida Paulista"}, "number": {"1000"}, "neighborhood": {"Bela Vista"},
		"city": {"São Paulo"}, "state": {"SP"}, "country": {"Brasil"},
	})))
	e.seed(12, 12)
	_, doc := b.get("/dashboard/withdrawals")
	wdID := doc.Find(`tr[data-testid="withdrawal-row"]`).First().AttrOr("data-id", "")
	_, doc = b.get("/dashboard/deposits?status=PAID")
	seededDep := doc.Find(`tr[data-testid="deposit-row"]`).Last().AttrOr("data-id", "")
	if wdID == "" || seededDep == "" {
		t.Fatal("the sandbox's records are not listed")
	}
	pages := []string{"/dashboard", "/dashboard/orders", "/dashboard/orders/" + o.ID, "/dashboard/orders/" + physical, "/dashboard/deposits",
		"/dashboard/deposits/" + depID, "/dashboard/deposits/" + seededDep, "/dashboard/withdrawals",
		"/dashboard/withdrawals/" + wdID, "/dashboard/products", "/dashboard/settings", "/dashboard/users", "/dashboard/audit",
		"/dashboard/account"}
	// A background export, ready, and the list of them.
	me, err := e.dash.accounts.UserByEmail(ctx, dashEmail)
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "/dashboard/exports", "/dashboard/exports/"+e.readyExport(me.ID, "withdrawals", "id\r\n"))

	english := []string{"order placed", "qr code generated", "deposit PAID", "configured", "HTTP 500:", "Checking",
		"Savings", "Payment account", "English", "mobile", "random key", "(email)"}
	rawCode := regexp.MustCompile(`\b[A-Z][A-Z_]{3,}\b`)
	// Order numbers (PX-WFBEBNGT) are random capitals: not codes, so they are taken out first.
	orderNumber := regexp.MustCompile(`\bPX-[A-Z0-9]+\b`)
	// Words in capitals: of the language, and the sandbox merchant's name ("PIX CHECKOUT SANDBOX",
	// in capitals as BR Codes carry names).
	allowed := map[string]bool{"CNPJ": true, "ISPB": true, "HTTP": true, "CSV": true, "UUID": true, "CHECKOUT": true, "SANDBOX": true, "SMTP": true}
	bare := regexp.MustCompile(`(^|[^0-9A-Za-z.\-/+])(\d{11}|\d{14}|\+55\d{10,11})([^0-9A-Za-z]|$)`)
	for _, lang := range []string{"", "?lang=en"} {
		for _, p := range pages {
			res, doc := b.get(p + lang)
			if res.StatusCode != http.StatusOK {
				t.Errorf("%s%s: status %d", p, lang, res.StatusCode)
				continue
			}
			text := readerText(doc)
			for _, m := range rawCode.FindAllString(orderNumber.ReplaceAllString(text, ""), -1) {
				if !allowed[m] {
					t.Errorf("%s%s: the code %q is shown as it is stored", p, lang, m)
				}
			}
			if m := bare.FindString(text); m != "" || strings.Contains(text, "01310100") {
				t.Errorf("%s%s: %q (or the CEP) is shown unformatted", p, lang, m)
			}
			if lang == "" {
				for _, w := range english {
					if strings.Contains(strings.ToLower(text), strings.ToLower(w)) {
						t.Errorf("%s: English %q on the pt-BR page", p, w)
					}
				}
			}
		}
	}

	// What the order, its deposit and the notification say instead.
	_, doc = b.get("/dashboard/orders/" + o.ID)
	var reasons []string
	doc.Find(`[data-testid="history-reason"]`).Each(func(_ int, s *goquery.Selection) {
		reasons = append(reasons, s.AttrOr("data-code", "")+": "+s.Text())
	})
	if got := strings.Join(reasons, " | "); got != "order_placed: Pedido feito pelo cliente | qr_generated: QR Code gerado | "+
		"deposit: Depósito no gateway: Pago" {
		t.Errorf("the order's history: %s", got)
	}
	if text := readerText(doc); !strings.Contains(text, "***.982.247-**") || !strings.Contains(text, "(11) *****-4321") ||
		!strings.Contains(text, "Português (Brasil)") {
		t.Errorf("the order's customer: %s", text)
	}
	// An owner's deliberate show: the document and phone written in full, in this answer only.
	_, doc = b.post(doc.Find(`form[data-testid="personal-form"]`).AttrOr("action", "-"), url.Values{"csrf_token": {b.csrf()}})
	if text := readerText(doc.Find(`[data-testid="customer"]`)); !strings.Contains(text, "529.982.247-25") ||
		!strings.Contains(text, "(11) 98765-4321") {
		t.Errorf("the order's customer shown in full: %s", text)
	}
	_, doc = b.get("/dashboard/orders/" + physical)
	if text := readerText(doc.Find(`[data-testid="address"]`)); !strings.Contains(text, "01310-100 · Brasil") {
		t.Errorf("the order's address: %s", text)
	}
	_, doc = b.get("/dashboard/deposits/" + depID)
	if text := readerText(doc); !strings.Contains(text, "Sandbox Pix (ambiente de testes)") || !strings.Contains(text, "Conta de pagamento") {
		t.Errorf("the deposit's page: %s", text)
	}
	_, doc = b.get("/dashboard/settings?lang=en")
	if text := readerText(doc.Find(`[data-testid="deliveries"]`)); !strings.Contains(text, "Not sent: no notification URL or secret was configured.") ||
		!strings.Contains(text, "Order: Payment confirmed") {
		t.Errorf("the delivery log: %s", text)
	}
}

// readerText is the text a reader sees in sel (the page's main part for a document), each
// element's words apart, the technical details (<code>, <textarea>) left out.
func readerText(sel interface {
	Find(string) *goquery.Selection
}) string {
	main := sel.Find("main")
	if main.Length() == 0 {
		if s, ok := sel.(*goquery.Selection); ok {
			main = s
		}
	}
	main = main.Clone()
	// Code, and text marked as another language (a language's own name in a picker), are not
	// the page's language.
	main.Find("code, textarea, main [lang]").Remove()
	var words []string
	main.Find("*").AddBack().Contents().Each(func(_ int, s *goquery.Selection) {
		if goquery.NodeName(s) == "#text" {
			words = append(words, strings.Fields(s.Text())...)
		}
	})
	return strings.Join(words, " ")
}
