package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
)

func TestTokenEndpoint(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
		"duplicated key": {`{"amount":1990,"amount":1,"paymentMethod":"PIX","idempotencyKey":"abcdefgh","pix":{}}`, gc.KindInvalidData, "amount"},
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

// TestCreateTransactionRefusesDeepNesting: a body nesting arrays and objects deeper than
// strictjson.MaxDepth levels is a 422 of invalid data naming where, and nothing is made.
func TestCreateTransactionRefusesDeepNesting(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	for _, levels := range []int{strictjson.MaxDepth + 1, 9_990} {
		n := levels - 2 // the body's object and metadata's
		body := `{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"deep-body-` + strconv.Itoa(levels) + `","pix":{},"metadata":{"a":` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`
		st, _, b := e.do("POST", "/transaction", tok, body)
		eb := decodeErr(t, b)
		want := "metadata.a" + strings.Repeat("[0]", strictjson.MaxDepth-2) + ": nests arrays and objects deeper than 64 levels"
		if ms := eb.messages(t); st != 422 || eb.Error != string(gc.KindInvalidData) || len(ms) != 1 || ms[0] != want {
			t.Errorf("%d levels: %d %.300s", levels, st, b)
		}
	}
	var page gc.Page[gc.Deposit]
	e.doJSON("GET", "/deposit", tok, nil, 200, &page)
	if page.Total != 0 {
		t.Fatalf("refused requests made %d deposits", page.Total)
	}
}

// TestCreateTransactionNeedsJSONContentType: the spec's POST /transaction takes
// application/json; a form, text/plain, another charset or no Content-Type at all is a 415 in
// the API's error shape, and nothing is made.
func TestCreateTransactionNeedsJSONContentType(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	body := `{"amount":1990,"paymentMethod":"PIX","idempotencyKey":"content-type-1","pix":{}}`
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "", "application/json; charset=latin1", "application/jsonx", "multipart/form-data; boundary=x"} {
		req, _ := http.NewRequest("POST", e.srv.URL+"/transaction", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnsupportedMediaType || decodeErr(t, b).Error != "Unsupported Media Type" {
			t.Errorf("Content-Type %q: %d %s, want 415", ct, res.StatusCode, b)
		}
	}
	var page gc.Page[gc.Deposit]
	e.doJSON("GET", "/deposit", tok, nil, 200, &page)
	if page.Total != 0 {
		t.Fatalf("refused requests made %d deposits", page.Total)
	}
	for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON; charset=UTF-8"} {
		req, _ := http.NewRequest("POST", e.srv.URL+"/transaction", strings.NewReader(strings.Replace(body, "content-type-1", "ct-"+strings.ReplaceAll(ct, " ", ""), 1)))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", ct)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			t.Errorf("Content-Type %q: %d, want 201", ct, res.StatusCode)
		}
	}
}

// TestTokenEndpointThrottlesFailures: 20 wrong secrets, then the right one, is a 429 with
// Retry-After rather than a token, per address and per client, with the default limit (ten
// in a row, then five a minute). The console's sign-in and the token endpoint count in the
// same buckets, and a minute later one more attempt is allowed.
func TestTokenEndpointThrottlesFailures(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	token := func(addr, secret string) *httptest.ResponseRecorder {
		t.Helper()
		form := url.Values{"client_id": {testClientID}, "client_secret": {secret}, "grant_type": {"client_credentials"}}
		r := httptest.NewRequest("POST", "/auth/token", strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		e.sb.ServeHTTP(w, r)
		return w
	}
	const a, b = "198.51.100.7:40000", "203.0.113.9:50000"
	codes := map[int]int{}
	for range 20 {
		codes[token(a, "wrong-secret").Code]++
	}
	if codes[http.StatusUnauthorized] != 10 || codes[http.StatusTooManyRequests] != 10 {
		t.Fatalf("20 wrong secrets: %v, want 10 × 401 then 10 × 429", codes)
	}
	for _, addr := range []string{a, b} { // the address, and the client from anywhere
		w := token(addr, testSecret)
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || strings.Contains(w.Body.String(), "access_token") {
			t.Fatalf("the right secret from %s after 20 failures: %d %q %s", addr, w.Code, w.Header().Get("Retry-After"), w.Body)
		}
		if eb := decodeErr(t, w.Body.Bytes()); eb.StatusCode != 429 || eb.Error != "Too Many Requests" {
			t.Fatalf("429 body %s", w.Body)
		}
	}
	// The console's sign-in is blocked too: one budget for both doors.
	r := httptest.NewRequest("POST", "/sandbox/login", strings.NewReader(url.Values{"client_id": {testClientID}, "client_secret": {testSecret}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.RemoteAddr = b
	w := httptest.NewRecorder()
	e.sb.ServeHTTP(w, r)
	if w.Code != http.StatusTooManyRequests {
		t.Fatalf("console sign-in after 20 failed token requests: %d", w.Code)
	}
	e.clock.Advance(time.Minute)
	if w := token(a, testSecret); w.Code != http.StatusOK {
		t.Fatalf("a minute later: %d %s", w.Code, w.Body)
	}
}
