package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/web/apijson"
)

// TestAPIDataSubjects: a write key finds a person's orders by CPF or e-mail and anonymises
// them; an order awaiting payment is refused in words until paid; once anonymised, the order
// is still found by the same CPF and e-mail, without its personal data but with its amount
// and end-to-end id. A read key is refused; bad subjects are 422 naming the field; every
// request is in the audit log with the subject masked. Every answer is held to openapi.json.
func TestAPIDataSubjects(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	pay := e.placeOrder()
	id := orderID(pay)
	byCPF := map[string]string{"document": "529.982.247-25"}
	byEmail := map[string]string{"email": "MARIA@example.com.br"}
	charge := e.api(http.MethodPost, "/api/v1/charges", map[string]any{"customer": map[string]any{"name": "Maria da Silva",
		"document": "529.982.247-25", "email": "maria@example.com.br", "phone": "(11) 98765-4321"}, "amount": 5000,
		"description": "Mensalidade", "dueDate": "2099-01-10"})
	chargeID, _ := charge.json["id"].(string)

	res := e.api("POST", "/api/v1/data-subjects/search", byCPF)
	var rep apijson.SubjectReport
	if err := json.Unmarshal(res.body, &rep); err != nil || res.status != http.StatusOK {
		t.Fatalf("search: %d %s", res.status, res.body)
	}
	if len(rep.Records) != 1 || rep.Records[0].ID != chargeID || rep.Records[0].Kind != "charge" ||
		rep.Records[0].Customer.Phone != "+5511987654321" || rep.Records[0].AnonymiseBlocker != checkout.BlockedAwaitingPayment {
		t.Fatalf("search found the charges %s", res.body)
	}
	if len(rep.Orders) != 1 || rep.Orders[0].ID != id || rep.Orders[0].Anonymised || rep.Subject != "***.982.247-**" ||
		rep.Orders[0].AnonymiseBlocker != checkout.BlockedAwaitingPayment || rep.Orders[0].Customer.Name != "Maria da Silva" {
		t.Fatalf("search found %s", res.body)
	}
	res = e.api("POST", "/api/v1/data-subjects/anonymise", byEmail)
	if res.status != http.StatusOK || !strings.Contains(string(res.body), `"reason":"awaiting_payment"`) ||
		!strings.Contains(string(res.body), `"anonymised":[]`) || !strings.Contains(string(res.body), `"refusedRecords":[{"kind":"charge","id":"`+chargeID) {
		t.Fatalf("anonymising an order awaiting payment: %d %s", res.status, res.body)
	}

	e.post(pay+"/sandbox-pay", nil)
	paid := e.waitStatus(id, checkout.StatusPaid)
	if _, err := e.charges.Cancel(ctx, "api:test", "", chargeID); err != nil {
		t.Fatal(err)
	}
	res = e.api("POST", "/api/v1/data-subjects/anonymise", byCPF)
	var an apijson.AnonymiseReport
	if err := json.Unmarshal(res.body, &an); err != nil || res.status != http.StatusOK || !slices.Equal(an.Anonymised, []string{id}) ||
		len(an.Refused) != 0 || !slices.Contains(an.Kept, "endToEndIds") ||
		!slices.Equal(an.AnonymisedRecords, []apijson.RecordRef{{Kind: "charge", ID: chargeID}}) {
		t.Fatalf("anonymise: %d %s", res.status, res.body)
	}
	for _, subj := range []map[string]string{byCPF, byEmail} {
		res = e.api("POST", "/api/v1/data-subjects/search", subj)
		rep = apijson.SubjectReport{}
		if err := json.Unmarshal(res.body, &rep); err != nil || res.status != http.StatusOK || len(rep.Orders) != 1 {
			t.Fatalf("search %v after anonymising: %d %s", subj, res.status, res.body)
		}
		o := rep.Orders[0]
		if !o.Anonymised || o.Customer.Name != "" || o.Customer.Email != "" || o.Customer.Phone != "" ||
			o.Customer.Document != "***.982.247-**" || o.Amount != int64(paid.Amount) || len(o.EndToEndIDs) != 1 ||
			o.EndToEndIDs[0] != paid.PaidAttempt().EndToEnd || o.DepositID == "" {
			t.Errorf("search %v after anonymising: %s", subj, res.body)
		}
		if strings.Contains(string(res.body), "Maria") || strings.Contains(string(res.body), "52998224725") || len(rep.Records) != 1 ||
			!rep.Records[0].Anonymised || strings.Contains(string(res.body), "98765") {
			t.Errorf("the report of an anonymised order and charge still holds personal data: %s", res.body)
		}
	}

	read, _, err := e.keys.Create(ctx, "relatórios", apikeys.ScopeRead, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/v1/data-subjects/search", "/api/v1/data-subjects/anonymise"} {
		if res := e.api("POST", path, byCPF, "Authorization", "Bearer "+read); res.status != http.StatusForbidden {
			t.Errorf("%s with a read key: %d %s", path, res.status, res.body)
		}
	}
	for body, field := range map[string]string{`{}`: "document", `{"document":"123.456.789-00"}`: "document",
		`{"email":"não é e-mail"}`: "email", `{"document":"52998224725","email":"maria@example.com.br"}`: "email",
		`{"cpf":"52998224725"}`: "cpf"} {
		res := e.api("POST", "/api/v1/data-subjects/search", body)
		if res.status != http.StatusUnprocessableEntity || !slices.ContainsFunc(res.fields(), func(f string) bool {
			return strings.HasPrefix(f, field+" ")
		}) {
			t.Errorf("%s: %d %s, want 422 on %s", body, res.status, res.body, field)
		}
	}

	entries, err := e.audit.Entries(ctx, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, en := range entries {
		if en.Object == chargeID {
			continue // the charge's own creation and cancelation
		}
		actions = append(actions, en.Action)
		if strings.Contains(en.Detail+en.Object, "52998224725") || strings.Contains(en.Detail+en.Object, "529.982.247-25") ||
			strings.Contains(strings.ToLower(en.Detail+en.Object), "maria@") {
			t.Errorf("the audit log holds the subject in clear: %+v", en)
		}
		if !strings.HasPrefix(en.Actor, "api:") || en.Object == "" {
			t.Errorf("audit entry without its key or subject: %+v", en)
		}
	}
	if n := len(actions); n != 5 || !slices.Contains(actions, audit.SubjectAnonymise) || !slices.Contains(actions, audit.SubjectSearch) {
		t.Errorf("audit actions %v, want the 5 requests answered", actions)
	}
}
