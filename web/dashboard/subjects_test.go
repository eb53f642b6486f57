package dashboard_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// TestDataSubjectRequest: an owner finds a person's orders by CPF, exports them as JSON
// (parsed) and as a page, and anonymises them: without the confirmation ticked nothing
// happens and the error is beside it; with it, the paid order loses its personal data, the
// one awaiting payment is refused in words, and a search by e-mail still finds both. A wrong
// subject is refused beside its field. Every request is in the audit log, the CPF masked.
func TestDataSubjectRequest(t *testing.T) {
	e, b := signedIn(t)
	paid := e.paidOrder()
	awaiting := orderID(e.placeOrder())
	csrf := b.login()
	form := func(v url.Values) url.Values { v.Set("csrf_token", csrf); return v }

	res, doc := b.get("/dashboard/personal-data")
	if res.StatusCode != http.StatusOK || doc.Find(testid("subjects-form")).Length() != 1 {
		t.Fatalf("page: %d", res.StatusCode)
	}
	res, doc = b.post("/dashboard/personal-data", form(url.Values{"subject": {"123.456.789-00"}}))
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-field="subject"]`).Length() != 1 {
		t.Errorf("a wrong CPF: %d %s", res.StatusCode, doc.Find("main").Text())
	}
	res, doc = b.post("/dashboard/personal-data", form(url.Values{"subject": {"529.982.247-25"}}))
	if res.StatusCode != http.StatusOK || doc.Find(testid("subjects-order")).Length() != 2 ||
		!strings.Contains(doc.Find(testid("subjects-report")).Text(), "Maria da Silva") {
		t.Fatalf("search: %d %s", res.StatusCode, doc.Find("main").Text())
	}

	res = b.do(http.MethodPost, "/dashboard/personal-data/export", form(url.Values{"subject": {"529.982.247-25"}, "format": {"json"}}))
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var rep apijson.SubjectReport
	if err := json.Unmarshal(body, &rep); err != nil || !strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("JSON export: %v %s", err, body)
	}
	if len(rep.Orders) != 2 || rep.Subject != "***.982.247-**" || rep.Orders[0].Customer.Email != "maria@example.com.br" {
		t.Errorf("JSON export: %s", body)
	}
	res, doc = b.post("/dashboard/personal-data/export", form(url.Values{"subject": {"529.982.247-25"}, "format": {"html"}}))
	if res.StatusCode != http.StatusOK || doc.Find(testid("subjects-order")).Length() != 2 || !strings.Contains(doc.Find("h1").Text(), "***.982.247-**") {
		t.Errorf("printable export: %d %s", res.StatusCode, doc.Find("main").Text())
	}

	res, doc = b.post("/dashboard/personal-data/anonymise", form(url.Values{"subject": {"529.982.247-25"}}))
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-field="confirm"]`).Length() != 1 {
		t.Errorf("anonymising without the confirmation: %d", res.StatusCode)
	}
	if o, _ := e.svc.Order(context.Background(), paid); o.Customer.Name == "" {
		t.Fatal("anonymised without the confirmation")
	}
	res, doc = b.post("/dashboard/personal-data/anonymise", form(url.Values{"subject": {"529.982.247-25"}, "confirm": {"yes"}}))
	if res.StatusCode != http.StatusOK || !strings.Contains(doc.Find(testid("subjects-notice")).Text(), "1 pedido(s) e cobrança(s) anonimizado(s)") {
		t.Fatalf("anonymise: %d %s", res.StatusCode, doc.Find("main").Text())
	}
	if refused := doc.Find(testid("subjects-refused")); refused.Length() != 1 || refused.AttrOr("data-id", "") != awaiting ||
		!strings.Contains(refused.Text(), "aguarda pagamento") {
		t.Errorf("the order awaiting payment is not refused in words: %q", refused.Text())
	}
	if o, _ := e.svc.Order(context.Background(), paid); o.Customer.Name != "" || o.Customer.Email != "" || o.Customer.Document != "***.982.247-**" {
		t.Errorf("the paid order keeps its data: %+v", o.Customer)
	}
	_, doc = b.post("/dashboard/personal-data", form(url.Values{"subject": {"Maria@Example.com.br"}}))
	if doc.Find(testid("subjects-order")).Length() != 2 || doc.Find(`[data-anonymised="true"]`).AttrOr("data-id", "") != paid {
		t.Errorf("a search by e-mail after anonymising: %s", doc.Find("main").Text())
	}

	// An order placed after the anonymisation: the export finds it beside those before.
	later := orderID(e.placeOrder())
	res = b.do(http.MethodPost, "/dashboard/personal-data/export", form(url.Values{"subject": {"52998224725"}, "format": {"json"}}))
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	rep = apijson.SubjectReport{}
	if err := json.Unmarshal(body, &rep); err != nil || len(rep.Orders) != 3 {
		t.Fatalf("JSON export after anonymising: %v %s", err, body)
	}
	for _, o := range rep.Orders {
		switch o.ID {
		case paid:
			if !o.Anonymised || o.Customer.Name != "" || o.AnonymisedAt == "" || len(o.EndToEndIDs) != 1 || o.Amount == 0 {
				t.Errorf("the anonymised order in the export: %+v", o)
			}
		case later, awaiting:
			if o.Anonymised || o.Customer.Name != "Maria da Silva" || o.AnonymiseBlocker != "awaiting_payment" {
				t.Errorf("an order not anonymised in the export: %+v", o)
			}
		default:
			t.Errorf("an order of somebody else in the export: %s", o.ID)
		}
	}

	entries, err := e.dash.audit.Entries(context.Background(), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, en := range entries {
		if !strings.HasPrefix(en.Action, "personal_data.") {
			continue
		}
		n++
		if strings.Contains(en.Detail+en.Object, "529.982.247-25") || strings.Contains(en.Detail+en.Object, "52998224725") ||
			strings.Contains(en.Detail+en.Object, "maria@") || en.Actor == "" {
			t.Errorf("audit entry: %+v", en)
		}
	}
	if n != 6 { // two searches, three exports, one anonymisation (refused forms are not requests answered)
		t.Errorf("%d audit entries of data subjects' requests, want 6", n)
	}
}

// TestDataSubjectWords: what an anonymised order keeps and why an order may not be anonymised
// yet are said in words in both languages.
func TestDataSubjectWords(t *testing.T) {
	keys := []string{views.BlockerKey(checkout.BlockedAwaitingPayment), views.BlockerKey(checkout.BlockedUnderReview),
		views.BlockerKey(checkout.BlockedRefundDue)}
	for _, k := range apijson.KeptForFiscalReasons {
		keys = append(keys, views.KeptKey(k))
	}
	for _, k := range keys {
		if !views.HasKey(k) || views.T(views.PtBR, k) == views.T(views.En, k) {
			t.Errorf("%s is not said in both languages", k)
		}
	}
}

// TestDataSubjectCharges: a person's charges are in the owners' data subject's search, its
// JSON export and its anonymisation: the canceled charge loses its customer, the open one is
// refused in words until it is paid or canceled.
func TestDataSubjectCharges(t *testing.T) {
	e, b := signedIn(t)
	open, canceled := e.newCharge("(11) 98765-4321"), e.newCharge("")
	if _, err := e.charges.Cancel(context.Background(), "ana@loja.example", "", canceled); err != nil {
		t.Fatal(err)
	}
	csrf := b.login()
	form := url.Values{"subject": {"maria@example.com"}, "csrf_token": {csrf}}
	res, doc := b.post("/dashboard/personal-data", form)
	if res.StatusCode != http.StatusOK || doc.Find(testid("subjects-record")).Length() != 2 ||
		!strings.Contains(doc.Find(testid("subjects-records")).Text(), "(11) 98765-4321") {
		t.Fatalf("search: %d %s", res.StatusCode, doc.Find("main").Text())
	}
	form.Set("format", "json")
	res = b.do(http.MethodPost, "/dashboard/personal-data/export", form)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var rep apijson.SubjectReport
	if err := json.Unmarshal(body, &rep); err != nil || len(rep.Records) != 2 || rep.Records[0].Kind != "charge" ||
		rep.Records[0].Customer.Email != "maria@example.com" || len(rep.Records[0].Notifications) != 0 {
		t.Fatalf("JSON export: %v %s", err, body)
	}
	form.Del("format")
	form.Set("confirm", "yes")
	res, doc = b.post("/dashboard/personal-data/anonymise", form)
	if res.StatusCode != http.StatusOK || !strings.Contains(doc.Find(testid("subjects-notice")).Text(), "1 pedido(s) e cobrança(s) anonimizado(s)") {
		t.Fatalf("anonymise: %d %s", res.StatusCode, doc.Find("main").Text())
	}
	if refused := doc.Find(testid("subjects-refused")); refused.Length() != 1 || refused.AttrOr("data-id", "") != open ||
		!strings.Contains(refused.Text(), "aguarda pagamento") {
		t.Errorf("the open charge is not refused in words: %q", refused.Text())
	}
	c, err := e.charges.Charge(context.Background(), canceled)
	if err != nil || c.Customer.Name != "" || c.Customer.Email != "" || c.Customer.Document != "***.982.247-**" {
		t.Errorf("the canceled charge keeps its data: %+v %v", c.Customer, err)
	}
	if c, _ := e.charges.Charge(context.Background(), open); c.Customer.Name != "Maria" {
		t.Errorf("the open charge lost its data: %+v", c.Customer)
	}
}
