package sandbox

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
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
	var logs syncBuffer
	e := newEnv(t, func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	tok := e.token()
	if err := e.sb.db.Close(); err != nil {
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
