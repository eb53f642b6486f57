package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

func TestTokenEndpoint(t *testing.T) {
	e := newEnv(t, nil)
	post := func(ct, body string) (int, []byte) {
		t.Helper()
		res, err := http.Post(e.srv.URL+"/auth/token", ct, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var raw json.RawMessage
		_ = json.NewDecoder(res.Body).Decode(&raw)
		return res.StatusCode, raw
	}
	const form = "application/x-www-form-urlencoded"
	good := url.Values{"client_id": {testClientID}, "client_secret": {testSecret}, "grant_type": {"client_credentials"}}
	for name, tc := range map[string]struct {
		ct, body string
		want     int
	}{
		"json body":          {"application/json", `{"client_id":"x"}`, 400},
		"missing secret":     {form, "client_id=" + testClientID + "&grant_type=client_credentials", 400},
		"wrong grant":        {form, "client_id=" + testClientID + "&client_secret=" + testSecret + "&grant_type=password", 400},
		"unknown scope":      {form, good.Encode() + "&scope=admin", 400},
		"wrong secret":       {form, "client_id=" + testClientID + "&client_secret=nope&grant_type=client_credentials", 401},
		"unknown client":     {form, "client_id=who&client_secret=" + testSecret + "&grant_type=client_credentials", 401},
		"good":               {form, good.Encode(), 200},
		"good with charset":  {form + "; charset=utf-8", good.Encode(), 200},
		"good, fewer scopes": {form, good.Encode() + "&scope=deposits:read", 200},
	} {
		t.Run(name, func(t *testing.T) {
			st, b := post(tc.ct, tc.body)
			if st != tc.want {
				t.Fatalf("status %d, want %d (%s)", st, tc.want, b)
			}
			if st != 200 {
				decodeErr(t, b)
				if strings.Contains(string(b), testSecret) {
					t.Fatal("error body echoes the secret")
				}
				return
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"access_token", "expires_in", "refresh_expires_in", "token_type", "not-before-policy", "scope", "expires_in_sec"} {
				if _, ok := m[k]; !ok {
					t.Errorf("token response lacks %s", k)
				}
			}
			if m["token_type"] != "Bearer" {
				t.Errorf("token_type %v", m["token_type"])
			}
			if got, want := m["expires_in"].(float64), float64(testStart.Add(time.Hour).Unix()); got != want {
				t.Errorf("expires_in %v, want the Unix time of expiry %v", got, want)
			}
			if m["expires_in_sec"].(float64) != 3600 {
				t.Errorf("expires_in_sec %v", m["expires_in_sec"])
			}
			if name == "good" && m["scope"] != strings.Join(AllScopes(), ",") {
				t.Errorf("scope %v", m["scope"])
			}
			if name == "good, fewer scopes" && m["scope"] != "deposits:read" {
				t.Errorf("scope %v", m["scope"])
			}
		})
	}
}

func TestAuthErrors(t *testing.T) {
	e := newEnv(t, nil)
	tok := e.token()
	readOnly := e.token(ScopeDepositsRead)
	routes := []struct{ method, path string }{
		{"POST", "/transaction"}, {"GET", "/deposit"}, {"GET", "/deposit/4b2b6b8e-2f0a-4c3e-9a57-3f3f3f3f3f3f"},
		{"GET", "/withdrawal"}, {"POST", "/sandbox/clock/advance"},
	}
	for _, r := range routes {
		for _, tc := range []struct {
			name, token string
			want        int
		}{
			{"none", "", 401},
			{"garbage", "not-a-jwt", 401},
			{"tampered", tok[:len(tok)-2] + "xx", 401},
		} {
			st, _, b := e.do(r.method, r.path, tc.token, nil)
			if st != tc.want {
				t.Errorf("%s %s with %s token: %d, want %d", r.method, r.path, tc.name, st, tc.want)
			}
			decodeErr(t, b)
		}
	}
	// Missing scope: 403.
	for _, r := range routes {
		if r.path == "/deposit" || strings.HasPrefix(r.path, "/deposit/") {
			continue
		}
		st, _, b := e.do(r.method, r.path, readOnly, nil)
		if st != http.StatusForbidden {
			t.Errorf("%s %s without its scope: %d, want 403", r.method, r.path, st)
		}
		decodeErr(t, b)
	}
	// Expired on the sandbox clock: 401.
	e.clock.Advance(time.Hour + time.Minute)
	st, _, b := e.do("GET", "/deposit", tok, nil)
	if st != http.StatusUnauthorized || !strings.Contains(string(b), "expired") {
		t.Fatalf("expired token: %d %s", st, b)
	}
}

func TestCreateTransactionAndGetDeposit(t *testing.T) {
	e := newEnv(t, nil)
	tok := e.token()
	req := txRequest("idem-0001", 12345)
	req.Pix = &gc.PixRequest{ExpirationSeconds: gc.Ptr(600)}
	var tx gc.Transaction
	e.doJSON("POST", "/transaction", tok, req, http.StatusCreated, &tx)
	if tx.Type != gc.TransactionTypeTransaction || tx.Status != gc.DepositPixQRCodeGenerated || tx.Amount != 12345 ||
		tx.ExternalCode != req.ExternalCode {
		t.Fatalf("transaction %+v", tx)
	}
	if want := testStart.Add(600 * time.Second); !tx.PixResponse.ExpirationDate.Equal(want) {
		t.Fatalf("expirationDate %v, want %v", tx.PixResponse.ExpirationDate, want)
	}
	checkPix(t, tx.PixResponse, 12345)

	var d gc.Deposit
	e.clock.Advance(1500 * time.Millisecond)
	e.doJSON("GET", "/deposit/"+tx.ID, tok, nil, http.StatusOK, &d)
	if d.ID != tx.ID || d.Amount != 12345 || d.Status != gc.DepositPixQRCodeGenerated || d.DepositOrigin != gc.OriginQRCode ||
		d.PaymentMethod != gc.PaymentMethodPIX || d.Acquirer == "" || d.PixResponse.URI != tx.PixResponse.URI {
		t.Fatalf("deposit %+v", d)
	}
	if len(d.StatusHistory) != 1 || d.StatusHistory[0].DurationInMilliseconds != 1500 {
		t.Fatalf("statusHistory %+v: the current state lasts until now", d.StatusHistory)
	}
	checkPix(t, d.PixResponse, 12345)

	// 404 and 422 for unknown and malformed ids.
	st, _, b := e.do("GET", "/deposit/4b2b6b8e-2f0a-4c3e-9a57-3f3f3f3f3f3f", tok, nil)
	if st != 404 || decodeErr(t, b).StatusCode != 404 {
		t.Fatalf("unknown id: %d %s", st, b)
	}
	st, _, b = e.do("GET", "/deposit/not-a-uuid", tok, nil)
	if st != 422 || decodeErr(t, b).messages(t)[0] != "id: must be a UUID" {
		t.Fatalf("bad id: %d %s", st, b)
	}
}

func TestCreateTransaction422(t *testing.T) {
	e := newEnv(t, nil)
	tok := e.token()
	for name, tc := range map[string]struct {
		body     string
		kind     gc.UnprocessableKind
		contains string
	}{
		"malformed JSON": {`{"amount":`, gc.KindInvalidData, ""},
		"wrong type":     {`{"amount":"10","paymentMethod":"PIX","idempotencyKey":"abcdefgh","pix":{}}`, gc.KindInvalidData, "amount"},
		"decimal amount": {`{"amount":10.5,"paymentMethod":"PIX","idempotencyKey":"abcdefgh","pix":{}}`, gc.KindInvalidData, "amount"},
		"unknown enum":   {`{"amount":10,"paymentMethod":"BOLETO","idempotencyKey":"abcdefgh","pix":{}}`, gc.KindInvalidData, "paymentMethod"},
		"rules": {`{"amount":0,"paymentMethod":"PIX","idempotencyKey":"short","pix":{"expirationSeconds":10},"webhookUrl":"http://x"}`,
			gc.KindValidation, "idempotencyKey"},
	} {
		t.Run(name, func(t *testing.T) {
			st, _, b := e.do("POST", "/transaction", tok, tc.body)
			if st != 422 {
				t.Fatalf("status %d: %s", st, b)
			}
			eb := decodeErr(t, b)
			if eb.StatusCode != 422 || eb.Error != string(tc.kind) {
				t.Fatalf("body %s, want error %q", b, tc.kind)
			}
			ms := eb.messages(t)
			if tc.contains != "" && !strings.Contains(strings.Join(ms, "|"), tc.contains+": ") {
				t.Fatalf("messages %q lack a violation of %s", ms, tc.contains)
			}
			if name == "rules" && len(ms) < 4 {
				t.Fatalf("every violation should be listed, got %q", ms)
			}
		})
	}
	// Nothing was stored.
	var page gc.Page[gc.Deposit]
	e.doJSON("GET", "/deposit", tok, nil, 200, &page)
	if page.Total != 0 {
		t.Fatalf("invalid requests made %d deposits", page.Total)
	}
}
