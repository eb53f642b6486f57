package sandbox

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// route is one authenticated route of the sandbox with the scope it needs.
type route struct {
	method, path, scope string
}

// authRoutes lists every route that needs a bearer token (the console aside: it has its own
// sign-in), each with the scope it requires.
func authRoutes() []route {
	const id = "4b2b6b8e-2f0a-4c3e-9a57-3f3f3f3f3f3f"
	rs := []route{
		{"POST", "/transaction", ScopeTransactionsWrite},
		{"GET", "/deposit", ScopeDepositsRead},
		{"GET", "/deposit/" + id, ScopeDepositsRead},
		{"GET", "/withdrawal", ScopeWithdrawalsRead},
		{"GET", "/sandbox/deposits/" + id + "/deliveries", ScopeSandboxControl},
		{"GET", "/sandbox/withdrawals/" + id + "/deliveries", ScopeSandboxControl},
		{"POST", "/sandbox/withdrawals", ScopeSandboxControl},
		{"POST", "/sandbox/withdrawals/" + id + "/PROCESSING", ScopeSandboxControl},
		{"POST", "/sandbox/seed", ScopeSandboxControl},
		{"GET", "/sandbox/clock", ScopeSandboxControl},
		{"POST", "/sandbox/clock/advance", ScopeSandboxControl},
		{"GET", "/sandbox/faults", ScopeSandboxControl},
		{"POST", "/sandbox/faults", ScopeSandboxControl},
		{"DELETE", "/sandbox/faults", ScopeSandboxControl},
	}
	for _, a := range []DepositAction{ActionPay, ActionFail, ActionExpire, ActionRefund, ActionInfraction, ActionCompliance} {
		rs = append(rs, route{"POST", "/sandbox/deposits/" + id + "/" + string(a), ScopeSandboxControl})
	}
	return rs
}

// TestEveryRouteNeedsTokenAndScope checks every authenticated route: 401 without a token,
// with garbage, a tampered token, a token signed with another key, and an expired one; 403
// with a token holding every scope but the route's; neither with the route's scope alone.
func TestEveryRouteNeedsTokenAndScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	good := e.token()
	now := e.sb.Now()
	forged, err := jwt.NewWithClaims(jwt.SigningMethodHS256, tokenClaims{
		Scope: strings.Join(AllScopes(), ","), Scopes: AllScopes(),
		RegisteredClaims: jwt.RegisteredClaims{Issuer: tokenIssuer, Subject: testClientID, IssuedAt: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)), ID: "forged"},
	}).SignedString([]byte("another key of at least thirty-two bytes"))
	if err != nil {
		t.Fatal(err)
	}
	without := map[string]string{}
	only := map[string]string{}
	for _, sc := range AllScopes() {
		only[sc] = e.token(sc)
		others := slices.DeleteFunc(AllScopes(), func(s string) bool { return s == sc })
		without[sc] = e.token(others...)
	}
	check := func(r route, name, tok string, want int) {
		t.Helper()
		st, _, b := e.do(r.method, r.path, tok, nil)
		if st != want {
			t.Errorf("%s %s with %s: %d %s, want %d", r.method, r.path, name, st, b, want)
			return
		}
		if eb := decodeErr(t, b); eb.StatusCode != want {
			t.Errorf("%s %s with %s: body statusCode %d", r.method, r.path, name, eb.StatusCode)
		}
	}
	for _, r := range authRoutes() {
		check(r, "no token", "", http.StatusUnauthorized)
		check(r, "garbage", "not-a-jwt", http.StatusUnauthorized)
		check(r, "a tampered token", good[:len(good)-3]+"abc", http.StatusUnauthorized)
		check(r, "a token signed with another key", forged, http.StatusUnauthorized)
		check(r, "every scope but "+r.scope, without[r.scope], http.StatusForbidden)
		if st, _, b := e.do(r.method, r.path, only[r.scope], nil); st == http.StatusUnauthorized || st == http.StatusForbidden {
			t.Errorf("%s %s with only %s: %d %s", r.method, r.path, r.scope, st, b)
		}
	}
	// Expired on the sandbox clock (tokens live one hour).
	e.clock.Advance(time.Hour + time.Minute)
	for _, r := range authRoutes() {
		check(r, "an expired token", good, http.StatusUnauthorized)
	}
}

// TestTokenIsJWTWithClaimsAndKeptKey checks the token: a JWT signed with the key made once in
// the data dir (mode 0600, the same after a restart), with subject, scopes, iat, exp and a
// jti unique per token.
func TestTokenIsJWTWithClaimsAndKeptKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	path := filepath.Join(e.dir, jwtKeyFile)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	key, err := hex.DecodeString(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	parse := func(tok string) tokenClaims {
		t.Helper()
		var c tokenClaims
		_, err := jwt.ParseWithClaims(tok, &c, func(*jwt.Token) (any, error) { return key, nil },
			jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(e.sb.Now))
		if err != nil {
			t.Fatalf("token does not verify with the key in the data dir: %v", err)
		}
		return c
	}
	a, b := parse(e.token()), parse(e.token(ScopeDepositsRead, ScopeSandboxControl))
	now := e.sb.Now()
	if a.Subject != testClientID || !slices.Equal(a.Scopes, AllScopes()) || a.Scope != strings.Join(AllScopes(), ",") ||
		!a.IssuedAt.Equal(now.Truncate(time.Second)) || !a.ExpiresAt.Equal(now.Add(time.Hour).Truncate(time.Second)) {
		t.Fatalf("claims %+v", a)
	}
	if !slices.Equal(b.Scopes, []string{ScopeDepositsRead, ScopeSandboxControl}) || b.Scope != "deposits:read,sandbox:control" {
		t.Fatalf("fewer scopes: %+v", b)
	}
	if len(a.ID) < 16 || a.ID == b.ID {
		t.Fatalf("jti %q and %q: want long and unique", a.ID, b.ID)
	}
	// A restart keeps the key: the file is unchanged and old tokens still verify.
	tok := e.token()
	e.stop()
	e.start(nil)
	if again, _ := os.ReadFile(path); !bytes.Equal(again, raw) {
		t.Fatal("the key file changed across a restart")
	}
	if st, _, b := e.do("GET", "/deposit", tok, nil); st != 200 {
		t.Fatalf("a token from before the restart: %d %s", st, b)
	}
}

// TestCreateTransactionResponse checks the success answer field by field: a UUID v4 id, the
// default expiration of exactly 1800 s on the sandbox clock, a valid BR Code and its PNG,
// and a deposit with the same id.
func TestCreateTransactionResponse(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	req := txRequest("resp-0001", 98765)
	req.Pix = &gc.PixRequest{} // expirationSeconds left to its default
	st, _, b := e.do("POST", "/transaction", tok, req)
	if st != http.StatusCreated {
		t.Fatalf("status %d %s", st, b)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"id", "externalCode", "amount", "type", "status", "pixResponse"} {
		if _, ok := m[k]; !ok {
			t.Errorf("response lacks %s: %s", k, b)
		}
	}
	var tx gc.Transaction
	if err := json.Unmarshal(b, &tx); err != nil {
		t.Fatal(err)
	}
	if !brdoc.ValidUUIDv4(tx.ID) || tx.Type != "TRANSACTION" || tx.Status != "PIX_QRCODE_GENERATED" || tx.Amount != 98765 ||
		tx.ExternalCode != req.ExternalCode {
		t.Fatalf("transaction %+v", tx)
	}
	if want := testStart.Add(1800 * time.Second); !tx.PixResponse.ExpirationDate.Equal(want) {
		t.Fatalf("expirationDate %v, want now + 1800 s = %v", tx.PixResponse.ExpirationDate, want)
	}
	checkPix(t, tx.PixResponse, 98765)
	var d gc.Deposit
	e.doJSON("GET", "/deposit/"+tx.ID, tok, nil, http.StatusOK, &d)
	if d.ID != tx.ID || d.Amount != tx.Amount || *d.PixResponse != *tx.PixResponse || !d.CreatedAt.Equal(testStart) {
		t.Fatalf("deposit %+v for transaction %+v", d, tx)
	}
	// And a non-default expiration, on a clock that moved.
	e.clock.Advance(90 * time.Second)
	req = txRequest("resp-0002", 100)
	req.Pix = &gc.PixRequest{ExpirationSeconds: gc.Ptr(86400)}
	e.doJSON("POST", "/transaction", tok, req, http.StatusCreated, &tx)
	if want := testStart.Add(90*time.Second + 86400*time.Second); !tx.PixResponse.ExpirationDate.Equal(want) {
		t.Fatalf("expirationDate %v, want %v", tx.PixResponse.ExpirationDate, want)
	}
}

// TestInternalErrorRevealsNothing breaks the database under a running sandbox: the answer is
// a bare 500 in the API's error shape, and the cause goes to the log only.
func TestInternalErrorRevealsNothing(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	e := newEnv(t, func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	tok := e.token()
	if err := e.sb.closeDB(); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ method, path string }{{"GET", "/deposit"}, {"GET", "/deposit/4b2b6b8e-2f0a-4c3e-9a57-3f3f3f3f3f3f"},
		{"GET", "/withdrawal"}, {"POST", "/sandbox/withdrawals"}} {
		var body any
		if r.method == "POST" {
			body = NewWithdrawal{Amount: 1000}
		}
		st, _, b := e.do(r.method, r.path, tok, body)
		if st != http.StatusInternalServerError || string(b) != `{"statusCode":500,"error":"Internal Server Error","message":"internal error"}` {
			t.Errorf("%s %s: %d %s", r.method, r.path, st, b)
		}
	}
	if !strings.Contains(logs.String(), "database is closed") {
		t.Fatalf("the cause was not logged: %s", logs.String())
	}
	e.sb = nil // already closed
}

// syncBuffer is a bytes.Buffer safe for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCreateTransaction422ListsEveryViolation sends bodies that break every rule at once and
// checks that the 422 names every field by its path, in the right kind, and stores nothing.
func TestCreateTransaction422ListsEveryViolation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	for name, tc := range map[string]struct {
		body   string
		kind   gc.UnprocessableKind
		fields []string
	}{
		"every rule": {
			body: `{"amount":0,"paymentMethod":"PIX","idempotencyKey":"short","externalCode":"abc","webhookUrl":"https://example.com/h#frag",
				"customer":{"ip":"999.1.1.1","name":"","document":"123","email":"nope","landline":"12","mobilePhone":"34","birthdate":"2000-01-31"},
				"seller":{"name":"","document":"111"},"isInfoProduct":false,
				"address":{"zipCode":"1","complement":"x","number":"12a","street":"s","neighborhood":"n","city":"c","state":"s","country":"c"},
				"items":[{"title":"t","description":"d","unitPrice":0,"quantity":101}],"pix":{"expirationSeconds":59}}`,
			kind: gc.KindValidation,
			fields: []string{"amount", "webhookUrl", "externalCode", "idempotencyKey", "customer.ip", "customer.name", "customer.document",
				"customer.email", "customer.landline", "customer.mobilePhone", "seller.name", "seller.document", "address.zipCode",
				"address.complement", "address.number", "address.street", "address.neighborhood", "address.city", "address.state",
				"address.country", "items[0].title", "items[0].description", "items[0].unitPrice", "items[0].quantity", "pix.expirationSeconds"},
		},
		"required by other fields": {
			body:   `{"amount":10000001,"paymentMethod":"PIX","idempotencyKey":"abcdefgh","isInfoProduct":false,"webhookUrl":"http://localhost/h"}`,
			kind:   gc.KindValidation,
			fields: []string{"amount", "webhookUrl", "address", "pix"},
		},
		"unreadable": {
			body:   `{"amount":"x","paymentMethod":"BOLETO","idempotencyKey":5,"customer":{"name":3},"items":[{"unitPrice":1.5}],"isInfoProduct":"no"}`,
			kind:   gc.KindInvalidData,
			fields: []string{"amount", "paymentMethod", "idempotencyKey", "customer.name", "customer.document", "isInfoProduct", "items[0].title", "items[0].unitPrice"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			st, _, b := e.do("POST", "/transaction", tok, tc.body)
			if st != http.StatusUnprocessableEntity {
				t.Fatalf("status %d %s", st, b)
			}
			eb := decodeErr(t, b)
			if eb.StatusCode != 422 || eb.Error != string(tc.kind) {
				t.Fatalf("body %s, want kind %q", b, tc.kind)
			}
			var got []string
			for _, m := range eb.messages(t) {
				field, _, ok := strings.Cut(m, ": ")
				if !ok {
					t.Fatalf("message %q is not \"field: message\"", m)
				}
				got = append(got, field)
			}
			for _, f := range tc.fields {
				if !slices.Contains(got, f) {
					t.Errorf("no violation of %s in %q", f, got)
				}
			}
			if len(got) != len(tc.fields) {
				t.Errorf("violations of %q, want exactly %q", got, tc.fields)
			}
		})
	}
	var page gc.Page[gc.Deposit]
	e.doJSON("GET", "/deposit", tok, nil, 200, &page)
	if page.Total != 0 {
		t.Fatalf("refused requests made %d deposits", page.Total)
	}
}

// TestFaultsEachKind checks what TestContractFaults leaves out: token_502 on the token
// endpoint only, latency actually applied, a path-bound fault leaving other paths alone, and
// count consumed one matching request at a time.
func TestFaultsEachKind(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	form := url.Values{"client_id": {testClientID}, "client_secret": {testSecret}, "grant_type": {"client_credentials"}}
	tokenStatus := func() (int, []byte) {
		t.Helper()
		res, err := http.PostForm(e.srv.URL+"/auth/token", form)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	// token_502: two token requests fail with 502, API requests are untouched, the third
	// token request works.
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultToken502, Count: 2}, 201, nil)
	if st, _, b := e.do("GET", "/deposit", tok, nil); st != 200 {
		t.Fatalf("GET /deposit under token_502: %d %s", st, b)
	}
	for i := range 2 {
		st, b := tokenStatus()
		if st != http.StatusBadGateway || decodeErr(t, b).StatusCode != 502 {
			t.Fatalf("token request %d: %d %s, want 502", i+1, st, b)
		}
	}
	if st, b := tokenStatus(); st != 200 {
		t.Fatalf("token request after the fault: %d %s", st, b)
	}
	// The gateway client sees a 502 on the token as the gateway being unavailable.
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultToken502}, 201, nil)
	if _, err := e.client().Token(context.Background()); !errors.Is(err, gc.ErrGatewayUnavailable) {
		t.Fatalf("client token under token_502: %v", err)
	}

	// rate_limit bound to /withdrawal: /deposit is untouched, /withdrawal gets 429 twice.
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultRateLimit, Path: "/withdrawal", Count: 2}, 201, nil)
	if st, _, _ := e.do("GET", "/deposit", tok, nil); st != 200 {
		t.Fatalf("GET /deposit under a /withdrawal fault: %d", st)
	}
	for i := range 2 {
		if st, h, _ := e.do("GET", "/withdrawal", tok, nil); st != 429 || h.Get("Retry-After") == "" {
			t.Fatalf("GET /withdrawal %d: %d Retry-After %q", i+1, st, h.Get("Retry-After"))
		}
	}
	if st, _, _ := e.do("GET", "/withdrawal", tok, nil); st != 200 {
		t.Fatalf("GET /withdrawal after the fault: %d", st)
	}
	// Faults never touch the controls.
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultRateLimit}, 201, nil)
	e.doJSON("GET", "/sandbox/clock", tok, nil, 200, nil)
	e.doJSON("DELETE", "/sandbox/faults", tok, nil, 200, nil)

	// latency: the request takes at least that long (a lower bound, so not flaky).
	e.doJSON("POST", "/sandbox/faults", tok, Fault{Kind: FaultLatency, LatencyMs: 150, Path: "/deposit"}, 201, nil)
	start := time.Now()
	if st, _, _ := e.do("GET", "/deposit", tok, nil); st != 200 {
		t.Fatalf("delayed request: %d", st)
	}
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Fatalf("delayed request took %v, want at least 150ms", took)
	}
	// Bad faults are refused, naming the field.
	for body, field := range map[string]string{
		`{"kind":"latency"}`:                  "latencyMs",
		`{"kind":"rate_limit","count":-1}`:    "count",
		`{"kind":"rate_limit","count":10001}`: "count",
		`{"kind":"meteor"}`:                   "kind",
	} {
		st, _, b := e.do("POST", "/sandbox/faults", tok, body)
		if st != 422 || !strings.HasPrefix(decodeErr(t, b).messages(t)[0], field+": ") {
			t.Errorf("fault %s: %d %s, want 422 on %s", body, st, b, field)
		}
	}
}

// lastWebhook returns the type and the event body (as sent) of the newest webhook of a record, and how
// many it has.
func (e *env) lastWebhook(recordID string) (string, []byte, int) {
	e.t.Helper()
	var n int
	if err := e.sb.w.QueryRow(`SELECT COUNT(*) FROM webhook_deliveries WHERE record_id = ?`, recordID).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	if n == 0 {
		return "", nil, 0
	}
	var typ, kind string
	var body []byte
	if err := e.sb.w.QueryRow(`SELECT type, record_kind, body FROM webhook_deliveries WHERE record_id = ? ORDER BY id DESC LIMIT 1`, recordID).Scan(&typ, &kind, &body); err != nil {
		e.t.Fatal(err)
	}
	if kind == webhook.KindDeposit {
		// As it is sent: with the QR image the stored body leaves to the record.
		var err error
		if body, err = e.sb.withQR(context.Background(), e.sb.r, recordID, body); err != nil {
			e.t.Fatal(err)
		}
	}
	return typ, body, n
}

// TestEveryStateChangeSendsWebhook walks every transition of both state machines (and the
// expiry sweep) and checks that each one, and only a change, writes one webhook whose type
// names the new state and whose data is the record as the API answered it.
func TestEveryStateChangeSendsWebhook(t *testing.T) {
	t.Parallel()
	// Nothing is delivered (Run is not started): the outbox rows are what is checked.
	e := newEnv(t, func(o *Options) { o.WebhookForwardTo = "http://127.0.0.1:9/hooks" })
	tok := e.token()
	checkEvent := func(recordID, kind, status string, n int, record any) {
		t.Helper()
		typ, body, got := e.lastWebhook(recordID)
		if got != n {
			t.Fatalf("%s %s: %d webhooks, want %d", kind, recordID, got, n)
		}
		if want := kind + "." + strings.ToLower(status); typ != want {
			t.Fatalf("webhook type %q, want %q", typ, want)
		}
		var ev struct {
			Type      string          `json:"type"`
			Timestamp string          `json:"timestamp"`
			Data      json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(body, &ev); err != nil || ev.Type != typ || ev.Timestamp == "" {
			t.Fatalf("event %s: %v", body, err)
		}
		// The data is the full record as the API shows it (durations aside: they grow).
		want, _ := json.Marshal(record)
		var a, b map[string]any
		_ = json.Unmarshal(ev.Data, &a)
		_ = json.Unmarshal(want, &b)
		delete(a, "statusHistory")
		delete(b, "statusHistory")
		if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
			t.Fatalf("webhook data\n%s\nwant the record\n%s", ja, jb)
		}
	}
	for _, from := range gc.DepositStatuses() {
		for _, to := range depositTransitions[from] {
			prev, msg := gc.DepositStatus(""), ""
			if from == gc.DepositPendingCompliance {
				prev = to
				if to == gc.DepositFailed {
					prev = gc.DepositPixQRCodeGenerated
				}
			}
			if from == gc.DepositFailed {
				msg = expiredReason
			}
			id := e.putDeposit(from, prev, msg)
			action, body := controlFor(from, to)
			var d gc.Deposit
			e.doJSON("POST", "/sandbox/deposits/"+id+"/"+string(action), tok, body, http.StatusOK, &d)
			checkEvent(id, "deposit", string(to), 1, d)
			// A refused change sends nothing.
			e.do("POST", "/sandbox/deposits/"+id+"/teleport", tok, nil)
			if _, _, n := e.lastWebhook(id); n != 1 {
				t.Fatalf("%s → %s: %d webhooks after a refused control", from, to, n)
			}
		}
	}
	// Creation, payment and the expiry sweep through the API.
	tx := e.createTx(tok, "hooks-every-1", 700)
	var d gc.Deposit
	e.doJSON("GET", "/deposit/"+tx.ID, tok, nil, 200, &d)
	checkEvent(tx.ID, "deposit", "PIX_QRCODE_GENERATED", 1, d)
	e.clock.Advance(31 * time.Minute)
	e.doJSON("GET", "/deposit/"+tx.ID, tok, nil, 200, &d)
	if d.Status != gc.DepositFailed {
		t.Fatalf("after expiry: %s", d.Status)
	}
	checkEvent(tx.ID, "deposit", "FAILED", 2, d)

	// Withdrawals: creation and every move.
	for _, from := range gc.WithdrawalStatuses() {
		for _, to := range withdrawalTransitions[from] {
			var w gc.Withdrawal
			e.doJSON("POST", "/sandbox/withdrawals", tok, NewWithdrawal{Amount: 2500}, http.StatusCreated, &w)
			checkEvent(w.ID, "withdrawal", "PENDING", 1, w)
			n := 1
			for _, step := range append(pathTo(from), to) {
				e.doJSON("POST", "/sandbox/withdrawals/"+w.ID+"/"+string(step), tok, nil, http.StatusOK, &w)
				n++
				checkEvent(w.ID, "withdrawal", string(step), n, w)
			}
		}
	}
}

// mustJSON encodes v (maps encode with sorted keys, so equal values encode equally).
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPayWithPayerAndPartialRefund pays with a given payer and amount, then refunds part of
// it: the record keeps what was given (document masked on the wire), the fee is on the
// amount paid, endToEnd carries the payer's ISPB, and the history grows with every state,
// each lasting until the next. Bad payers are refused with every violation named.
func TestPayWithPayerAndPartialRefund(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	tx := e.createTx(tok, "payer-0001", 10_000)
	e.clock.Advance(3 * time.Second)
	var d gc.Deposit
	e.doJSON("POST", "/sandbox/deposits/"+tx.ID+"/pay", tok, map[string]any{
		"amountPaid": 9_990,
		"payer": map[string]any{"name": "Loja Exemplo Ltda", "document": "11.222.333/0001-81",
			"bankAccount": map[string]string{"type": "CHECKING", "digit": "7", "ispb": "60701190"},
			"pix":         map[string]string{"key": "Financeiro@Example.com", "type": "PHONE"}},
	}, http.StatusOK, &d)
	if d.Status != gc.DepositPaid || *d.AmountPaid != 9_990 || *d.FeeAmount != fee(9_990) || d.Payer == nil ||
		d.Payer.Name != "Loja Exemplo Ltda" || d.Payer.Type != gc.HolderPJ || d.Payer.Document == "11222333000181" ||
		!strings.Contains(d.Payer.Document, "***") || d.Payer.BankAccount.ISPB != "60701190" ||
		d.Payer.Pix != (gc.PixKey{Key: "financeiro@example.com", Type: gc.PixKeyType("EMAIL")}) ||
		!validE2E(d.EndToEnd, 'E') || d.EndToEnd[1:9] != "60701190" || !d.PaymentDate.Equal(testStart.Add(3*time.Second)) {
		t.Fatalf("paid with a payer: %+v", d)
	}
	e.clock.Advance(2 * time.Second)
	e.doJSON("POST", "/sandbox/deposits/"+tx.ID+"/refund", tok, map[string]any{"refundAmount": 4_000}, http.StatusOK, &d)
	e.clock.Advance(5 * time.Second)
	e.doJSON("POST", "/sandbox/deposits/"+tx.ID+"/refund", tok, nil, http.StatusOK, &d)
	if d.Status != gc.DepositRefunded || *d.RefundAmount != 4_000 || !d.RefundDate.Equal(testStart.Add(10*time.Second)) ||
		!validE2E(d.EndToEndRefund, 'D') || d.RefundReceipt == nil || d.RefundReceipt.URL == "" {
		t.Fatalf("refunded: %+v", d)
	}
	var got []string
	var durations []int64
	for _, h := range d.StatusHistory {
		got = append(got, h.Status)
		durations = append(durations, h.DurationInMilliseconds)
	}
	if !slices.Equal(got, []string{"PIX_QRCODE_GENERATED", "PAID", "PROCESSING_REFUND", "REFUNDED"}) ||
		!slices.Equal(durations, []int64{3000, 2000, 5000, 0}) {
		t.Fatalf("history %v, durations %v", got, durations)
	}
	// Every violation of a bad payer at once; nothing changes.
	tx2 := e.createTx(tok, "payer-0002", 500)
	st, _, b := e.do("POST", "/sandbox/deposits/"+tx2.ID+"/pay", tok, `{"amountPaid":0,"payer":{"name":" ","document":"123","type":"XX",
		"bankAccount":{"ispb":"12AB"},"pix":{"key":"not a key"}}}`)
	if st != http.StatusUnprocessableEntity {
		t.Fatalf("bad payer: %d %s", st, b)
	}
	var fields []string
	for _, m := range decodeErr(t, b).messages(t) {
		f, _, _ := strings.Cut(m, ": ")
		fields = append(fields, f)
	}
	if !slices.Equal(fields, []string{"amountPaid", "payer.name", "payer.document", "payer.type", "payer.bankAccount.ispb", "payer.pix.key"}) {
		t.Fatalf("violations %v", fields)
	}
	e.doJSON("GET", "/deposit/"+tx2.ID, tok, nil, http.StatusOK, &d)
	if d.Status != gc.DepositPixQRCodeGenerated {
		t.Fatalf("a refused payment changed the deposit: %s", d.Status)
	}
}

// TestListEnvelopesAndFilterRules checks the list envelope key by key on both lists (data an
// empty array, never null) and the filter rules the contract tests leave out.
func TestListEnvelopesAndFilterRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	for _, path := range []string{"/deposit", "/withdrawal", "/deposit?page=3&perPage=7"} {
		st, _, b := e.do("GET", path, tok, nil)
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); st != 200 || err != nil {
			t.Fatalf("GET %s: %d %s", path, st, b)
		}
		var keys []string
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"currentPage", "data", "perPage", "total", "totalPages"}) || string(m["data"]) != "[]" {
			t.Fatalf("GET %s: envelope %s", path, b)
		}
	}
	var p gc.Page[gc.Deposit]
	e.doJSON("GET", "/deposit?page=3&perPage=7", tok, nil, 200, &p)
	if p.CurrentPage != 3 || p.PerPage != 7 || p.Total != 0 || p.TotalPages != 0 {
		t.Fatalf("empty page 3: %+v", p)
	}
	for q, field := range map[string]string{
		"/withdrawal?id=4b2b6b8e-2f0a-1c3e-9a57-3f3f3f3f3f3f": "id", // a UUID, but not v4
		"/withdrawal?endToEndRefund=short":                    "endToEndRefund",
		"/withdrawal?maxAmount=10000001":                      "maxAmount",
		"/withdrawal?minAmount=9":                             "minAmount",
		"/withdrawal?status=PAID":                             "status[0]", // a deposit state
		"/deposit?maxAmount=10000001":                         "maxAmount",
		"/deposit?endDate=2024-01-01":                         "endDate", // no time
		"/deposit?depositOrigin=BANK":                         "depositOrigin[0]",
		"/deposit?perPage=-1":                                 "perPage",
		"/deposit?page=abc":                                   "page",
	} {
		st, _, b := e.do("GET", q, tok, nil)
		if st != 422 || !strings.HasPrefix(decodeErr(t, b).messages(t)[0], field+": ") {
			t.Errorf("GET %s: %d %s, want a 422 on %s", q, st, b, field)
		}
	}
}

// TestContractInternalErrorThroughClient checks the 500 of the spec through the real client:
// an *APIError with status 500 and the sandbox's generic message, whose text holds nothing
// of the sandbox's internals.
func TestContractInternalErrorThroughClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	c := e.client()
	ctx := context.Background()
	e.sb.faults.add(Fault{Kind: FaultError500AfterCommit, Path: "/deposit"})
	_, err := c.ListDeposits(ctx, gc.DepositFilter{})
	var ae *gc.APIError
	if !errors.As(err, &ae) || ae.StatusCode != 500 || !slices.Equal(ae.Messages, []string{"internal error"}) {
		t.Fatalf("500 through the client: %v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "fault") || strings.Contains(msg, "sql") || strings.Contains(msg, "panic") {
		t.Fatalf("the error shows internals: %s", msg)
	}
	if _, err := c.ListDeposits(ctx, gc.DepositFilter{}); err != nil {
		t.Fatalf("after the fault: %v", err)
	}
}

// TestClientsAreIsolated checks that records belong to the client that made them: another
// client gets a 404 for them, never lists them, cannot move them, sees none of their
// deliveries; and that each client signs its webhooks with its own secret.
func TestClientsAreIsolated(t *testing.T) {
	t.Parallel()
	const otherID, otherSecret = "other-client", "other-secret-123"
	e := newEnv(t, func(o *Options) {
		o.Clients = append(o.Clients, ClientConfig{ID: otherID, Secret: otherSecret})
		o.WebhookForwardTo = "http://127.0.0.1:9/hooks" // enqueued only: Run is not started
	})
	mine := e.token()
	form := url.Values{"client_id": {otherID}, "client_secret": {otherSecret}, "grant_type": {"client_credentials"}}
	res, err := http.PostForm(e.srv.URL+"/auth/token", form)
	if err != nil {
		t.Fatal(err)
	}
	var ot tokenResponse
	if err := json.NewDecoder(res.Body).Decode(&ot); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	theirs := ot.AccessToken

	tx := e.createTx(mine, "isolated-01", 1234)
	var w gc.Withdrawal
	e.doJSON("POST", "/sandbox/withdrawals", mine, NewWithdrawal{Amount: 1000}, http.StatusCreated, &w)
	for _, r := range []struct{ method, path string }{
		{"GET", "/deposit/" + tx.ID}, {"POST", "/sandbox/deposits/" + tx.ID + "/pay"},
		{"POST", "/sandbox/withdrawals/" + w.ID + "/PROCESSING"},
	} {
		if st, _, b := e.do(r.method, r.path, theirs, nil); st != http.StatusNotFound {
			t.Errorf("%s %s by another client: %d %s, want 404", r.method, r.path, st, b)
		}
	}
	var dp gc.Page[gc.Deposit]
	e.doJSON("GET", "/deposit", theirs, nil, 200, &dp)
	var wp gc.Page[gc.Withdrawal]
	e.doJSON("GET", "/withdrawal", theirs, nil, 200, &wp)
	if dp.Total != 0 || wp.Total != 0 {
		t.Fatalf("another client lists %d deposits and %d withdrawals", dp.Total, wp.Total)
	}
	var out struct {
		Deliveries []json.RawMessage `json:"deliveries"`
	}
	e.doJSON("GET", "/sandbox/deposits/"+tx.ID+"/deliveries", theirs, nil, 200, &out)
	if len(out.Deliveries) != 0 {
		t.Fatalf("another client sees %d deliveries", len(out.Deliveries))
	}
	e.doJSON("GET", "/sandbox/deposits/"+tx.ID+"/deliveries", mine, nil, 200, &out)
	if len(out.Deliveries) != 1 {
		t.Fatalf("the owner sees %d deliveries", len(out.Deliveries))
	}
	// Each client has its own secret, and its webhooks are signed with it.
	a, _ := e.sb.Client(testClientID)
	b, _ := e.sb.Client(otherID)
	if !strings.HasPrefix(a.WebhookSecret, "whsec_") || !strings.HasPrefix(b.WebhookSecret, "whsec_") || a.WebhookSecret == b.WebhookSecret {
		t.Fatalf("webhook secrets %q and %q", a.WebhookSecret, b.WebhookSecret)
	}
	theirTx := e.createTx(theirs, "isolated-02", 4321)
	for id, secret := range map[string]string{tx.ID: a.WebhookSecret, theirTx.ID: b.WebhookSecret} {
		var stored string
		if err := e.sb.w.QueryRow(`SELECT secret FROM webhook_deliveries WHERE record_id = ?`, id).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored != secret {
			t.Fatalf("the webhook of %s is signed with another client's secret", id)
		}
	}
}

// TestListsRefuseWhatTheyCannotRead: a query Go's parser would read only in part (a ";" in a
// value, a bad escape) is a 422 naming the parameter, never a list with that filter dropped;
// a page number too large is an empty page (or a 422 beyond an int), never page 1.
func TestListsRefuseWhatTheyCannotRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	for i := range 12 {
		tx := e.createTx(tok, fmt.Sprintf("query-%04d", i), gc.Cents(100+i))
		if i%2 == 0 {
			e.doJSON("POST", "/sandbox/deposits/"+tx.ID+"/pay", tok, nil, 200, nil)
		}
	}
	e.doJSON("POST", "/sandbox/withdrawals", tok, NewWithdrawal{Amount: 1000}, http.StatusCreated, nil)
	for q, field := range map[string]string{
		"/deposit?status=PAID;x":                  "status",
		"/deposit?page=1;DROP":                    "page",
		"/deposit?status=PAID&minAmount=1;2":      "minAmount",
		"/deposit?status=%zz":                     "status",
		"/withdrawal?status=PENDING;x":            "status",
		"/withdrawal?externalCode=abc;def":        "externalCode",
		"/deposit?page=9999999999999999999999":    "page",
		"/withdrawal?page=9999999999999999999999": "page",
	} {
		st, _, b := e.do("GET", q, tok, nil)
		if st != 422 || !strings.HasPrefix(decodeErr(t, b).messages(t)[0], field+": ") {
			t.Errorf("GET %s: %d %s, want a 422 on %s", q, st, b, field)
		}
	}
	for _, path := range []string{"/deposit", "/withdrawal"} {
		for _, q := range []string{"?page=9223372036854775807&perPage=10", "?page=9223372036854775807&perPage=100", "?page=922337203685477581&perPage=10"} {
			var p struct {
				Total       int               `json:"total"`
				CurrentPage int64             `json:"currentPage"`
				Data        []json.RawMessage `json:"data"`
			}
			e.doJSON("GET", path+q, tok, nil, 200, &p)
			if len(p.Data) != 0 || p.Total == 0 || p.CurrentPage < 922337203685477581 {
				t.Errorf("GET %s%s: %d records of %d on page %d, want an empty page", path, q, len(p.Data), p.Total, p.CurrentPage)
			}
		}
	}
}
