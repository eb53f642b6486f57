package contracttest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/gatewayclient/contracttest"
)

// TestContractCatchesDrift: the checks find an exchange off the contract, and pass one on it,
// so that the client's and the sandbox's tests passing through them means something.
func TestContractCatchesDrift(t *testing.T) {
	spec, err := contracttest.Load()
	if err != nil {
		t.Fatal(err)
	}
	if spec.Doc.OpenAPI != "3.1.0" || spec.Doc.Info.License == nil || spec.Doc.Info.License.Identifier != "MIT" {
		t.Errorf("openapi %q, license %+v", spec.Doc.OpenAPI, spec.Doc.Info.License)
	}
	deposit := `{"id":"5f0c6a55-8d43-4f7e-9d7a-3c0f0e5b7a11","acquirer":"PIX_SANDBOX","amount":1000,"paymentMethod":"PIX",` +
		`"createdAt":"2026-03-14T15:09:26.123Z","status":"PAID","statusHistory":[],"updatedAt":"2026-03-14T15:09:26.123Z","depositOrigin":"QRCODE"}`
	json := http.Header{"Content-Type": {"application/json"}}
	cases := []struct {
		name            string
		method, path    string
		reqBody         string
		answers         bool
		status          int
		body            string
		documented, bad bool
	}{
		{"a transaction on the contract", "POST", "/transaction",
			`{"amount":1000,"paymentMethod":"PIX","idempotencyKey":"order-0001","pix":{"expirationSeconds":900}}`, false, 0, "", true, false},
		{"an amount of 0", "POST", "/transaction", `{"amount":0,"paymentMethod":"PIX","idempotencyKey":"order-0001"}`, false, 0, "", true, true},
		{"a decimal amount", "POST", "/transaction", `{"amount":10.5,"paymentMethod":"PIX","idempotencyKey":"order-0001"}`, false, 0, "", true, true},
		{"a physical product without its address", "POST", "/transaction",
			`{"amount":1000,"paymentMethod":"PIX","idempotencyKey":"order-0001","isInfoProduct":false}`, false, 0, "", true, true},
		{"a field the contract does not have", "POST", "/transaction",
			`{"amount":1000,"paymentMethod":"PIX","idempotencyKey":"order-0001","colour":"red"}`, false, 0, "", true, true},
		{"a deposit on the contract", "GET", "/deposit/5f0c6a55-8d43-4f7e-9d7a-3c0f0e5b7a11", "", true, 200, deposit, true, false},
		{"a deposit without its status", "GET", "/deposit/5f0c6a55-8d43-4f7e-9d7a-3c0f0e5b7a11", "", true, 200,
			strings.Replace(deposit, `"status":"PAID",`, "", 1), true, true},
		{"a time without milliseconds", "GET", "/deposit/5f0c6a55-8d43-4f7e-9d7a-3c0f0e5b7a11", "", true, 200,
			strings.Replace(deposit, `"createdAt":"2026-03-14T15:09:26.123Z"`, `"createdAt":"2026-03-14T15:09:26Z"`, 1), true, true},
		{"an error in the assumed shape", "GET", "/deposit/5f0c6a55-8d43-4f7e-9d7a-3c0f0e5b7a11", "", true, 404,
			`{"statusCode":404,"error":"Not Found","message":"deposit not found"}`, true, false},
		{"an error in another shape", "GET", "/deposit/5f0c6a55-8d43-4f7e-9d7a-3c0f0e5b7a11", "", true, 404, `{"message":"not found"}`, true, true},
		{"a status the contract does not give", "GET", "/deposit/5f0c6a55-8d43-4f7e-9d7a-3c0f0e5b7a11", "", true, 418, deposit, true, true},
		{"a page size below 0", "GET", "/deposit?perPage=-1", "", false, 0, "", true, true},
		{"a deposit state the contract does not have", "GET", "/deposit?status=EXPIRED", "", false, 0, "", true, true},
		{"a sandbox control (not the contract's)", "POST", "/sandbox/deposits/x/pay", "{}", true, 200, "{}", false, false},
	}
	for _, c := range cases {
		req, err := http.NewRequest(c.method, "http://gateway.test"+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer t")
		if c.reqBody != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		path, _, _ := strings.Cut(c.path, "?")
		documented, err := spec.Check(req, path, []byte(c.reqBody), c.answers, c.status, json, []byte(c.body))
		if documented != c.documented || (err != nil) != c.bad {
			t.Errorf("%s: documented %v, error %v; want documented %v, an error %v", c.name, documented, err, c.documented, c.bad)
		}
	}
	// A webhook: the body and the three Standard Webhooks headers.
	hook := http.Header{"Content-Type": {"application/json"}, "Webhook-Id": {"msg_1"}, "Webhook-Timestamp": {"1773500966"},
		"Webhook-Signature": {"v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="}}
	event := `{"type":"deposit.paid","timestamp":"2026-03-14T15:09:26.123Z","data":` + deposit + `}`
	if err := spec.CheckWebhook("deposit", hook, []byte(event)); err != nil {
		t.Errorf("a webhook on the contract: %v", err)
	}
	unsigned := hook.Clone()
	unsigned.Del("Webhook-Signature")
	if err := spec.CheckWebhook("deposit", unsigned, []byte(event)); err == nil {
		t.Error("a webhook without its signature passed")
	}
}
