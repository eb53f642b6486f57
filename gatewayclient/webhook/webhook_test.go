package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fixed values of the known-answer test.
const (
	testKeyB64 = "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" // 24 bytes once decoded
	testSecret = SecretPrefix + testKeyB64
	testMsgID  = "msg_p5jXN8AQM9LWM0D4loKWxJek"
)

var testTime = time.Unix(1614265330, 0)

func TestNewSecret(t *testing.T) {
	s, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s, SecretPrefix) {
		t.Fatalf("secret %q lacks the %s prefix", s, SecretPrefix)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, SecretPrefix))
	if err != nil || len(key) != 32 {
		t.Fatalf("secret %q: want 32 base64 bytes, got %d (%v)", s, len(key), err)
	}
	s2, _ := NewSecret()
	if s == s2 {
		t.Fatal("two secrets are equal")
	}
}

func TestNewMessageID(t *testing.T) {
	seen := make(map[string]bool)
	for range 1000 {
		id := NewMessageID()
		if !strings.HasPrefix(id, "msg_") || len(id) != 4+26 {
			t.Fatalf("id %q: want msg_ and 26 characters", id)
		}
		if strings.Trim(id[4:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") != "" {
			t.Fatalf("id %q is not base32", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
	}
}

// TestSignKnownVector checks Sign against an independent computation with crypto/hmac.
func TestSignKnownVector(t *testing.T) {
	body := []byte(`{"type":"deposit.paid","timestamp":"2021-02-25T15:02:10.000Z","data":{"id":"x"}}`)
	key, err := base64.StdEncoding.DecodeString(testKeyB64)
	if err != nil {
		t.Fatal(err)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(testMsgID + "." + strconv.FormatInt(testTime.Unix(), 10) + "." + string(body)))
	want := "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))

	for _, secret := range []string{testSecret, testKeyB64} { // with and without the prefix
		got, err := Sign(secret, testMsgID, testTime, body)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("Sign(%q) = %q, want %q", secret, got, want)
		}
	}
	// The vector of the Standard Webhooks specification's test suite.
	got, err := Sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
		time.Unix(1614265330, 0), []byte(`{"test": 2432232314}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Fatalf("standard vector: got %q, want %q", got, want)
	}
}

func TestSignErrors(t *testing.T) {
	for _, secret := range []string{"", SecretPrefix, "whsec_not base64!"} {
		if _, err := Sign(secret, testMsgID, testTime, nil); !errors.Is(err, ErrSecret) {
			t.Errorf("Sign with secret %q: got %v, want ErrSecret", secret, err)
		}
	}
	if _, err := Sign(testSecret, "", testTime, nil); err == nil {
		t.Error("Sign with an empty message id: want an error")
	}
}

func TestHeaders(t *testing.T) {
	body := []byte(`{}`)
	h, err := Headers(testSecret, testMsgID, testTime, body)
	if err != nil {
		t.Fatal(err)
	}
	sig, _ := Sign(testSecret, testMsgID, testTime, body)
	if h.Get(HeaderID) != testMsgID || h.Get(HeaderTimestamp) != "1614265330" || h.Get(HeaderSignature) != sig {
		t.Fatalf("headers %v", h)
	}
}

func verifier(now time.Time) Verifier {
	return Verifier{Secret: testSecret, Now: func() time.Time { return now }}
}

func TestVerify(t *testing.T) {
	body := []byte(`{"type":"deposit.paid","data":{"id":"abc"}}`)
	signed := func(ts time.Time) http.Header {
		h, err := Headers(testSecret, testMsgID, ts, body)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	otherSecret, _ := NewSecret()
	otherSig, _ := Sign(otherSecret, testMsgID, testTime, body)
	goodSig, _ := Sign(testSecret, testMsgID, testTime, body)

	tests := []struct {
		name    string
		header  func() http.Header
		body    []byte
		v       Verifier
		wantErr error
	}{
		{"round trip", func() http.Header { return signed(testTime) }, body, verifier(testTime), nil},
		{"within tolerance, past", func() http.Header { return signed(testTime.Add(-5 * time.Minute)) }, body, verifier(testTime), nil},
		{"within tolerance, future", func() http.Header { return signed(testTime.Add(5 * time.Minute)) }, body, verifier(testTime), nil},
		{"tampered body", func() http.Header { return signed(testTime) }, []byte(`{"type":"deposit.paid","data":{"id":"abd"}}`), verifier(testTime), ErrSignature},
		{"wrong secret", func() http.Header { return signed(testTime) }, body, Verifier{Secret: otherSecret, Now: func() time.Time { return testTime }}, ErrSignature},
		{"too old", func() http.Header { return signed(testTime.Add(-5*time.Minute - time.Second)) }, body, verifier(testTime), ErrTimestamp},
		{"from the future", func() http.Header { return signed(testTime.Add(5*time.Minute + time.Second)) }, body, verifier(testTime), ErrTimestamp},
		{"custom tolerance", func() http.Header { return signed(testTime.Add(-time.Minute)) }, body,
			Verifier{Secret: testSecret, Tolerance: 30 * time.Second, Now: func() time.Time { return testTime }}, ErrTimestamp},
		{"timestamp not a number", func() http.Header {
			h := signed(testTime)
			h.Set(HeaderTimestamp, "2021-02-25T15:02:10Z")
			return h
		}, body, verifier(testTime), ErrTimestamp},
		{"timestamp re-signed but id changed", func() http.Header {
			h := signed(testTime)
			h.Set(HeaderID, "msg_other")
			return h
		}, body, verifier(testTime), ErrSignature},
		{"missing id", func() http.Header { h := signed(testTime); h.Del(HeaderID); return h }, body, verifier(testTime), ErrMissingHeaders},
		{"missing timestamp", func() http.Header { h := signed(testTime); h.Del(HeaderTimestamp); return h }, body, verifier(testTime), ErrMissingHeaders},
		{"missing signature", func() http.Header { h := signed(testTime); h.Del(HeaderSignature); return h }, body, verifier(testTime), ErrMissingHeaders},
		{"no headers", func() http.Header { return http.Header{} }, body, verifier(testTime), ErrMissingHeaders},
		{"several signatures, last matches", func() http.Header {
			h := signed(testTime)
			h.Set(HeaderSignature, otherSig+" v2,abc garbage "+goodSig)
			return h
		}, body, verifier(testTime), nil},
		{"several signatures, none matches", func() http.Header {
			h := signed(testTime)
			h.Set(HeaderSignature, otherSig+" v1,"+strings.TrimPrefix(otherSig, "v1,"))
			return h
		}, body, verifier(testTime), ErrSignature},
		{"right signature under another version", func() http.Header {
			h := signed(testTime)
			h.Set(HeaderSignature, "v1a,"+strings.TrimPrefix(goodSig, "v1,"))
			return h
		}, body, verifier(testTime), ErrSignature},
		{"svix header names", func() http.Header {
			h := signed(testTime)
			out := http.Header{}
			out.Set("svix-id", h.Get(HeaderID))
			out.Set("svix-timestamp", h.Get(HeaderTimestamp))
			out.Set("svix-signature", h.Get(HeaderSignature))
			return out
		}, body, verifier(testTime), nil},
		{"empty secret", func() http.Header { return signed(testTime) }, body, Verifier{}, ErrSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.v.Verify(tt.header(), tt.body)
			if tt.wantErr == nil && err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("Verify: got %v, want %v", err, tt.wantErr)
			}
		})
	}
}

// TestVerifyErrorsAreDistinct checks that a receiver can tell a clock problem from a wrong
// secret or body: a timestamp outside the tolerance matches ErrTimestampSkew (and
// ErrTimestamp) and never ErrSignature, says how far and which way, while an unreadable
// timestamp matches ErrTimestamp only.
func TestVerifyErrorsAreDistinct(t *testing.T) {
	body := []byte(`{"type":"deposit.paid"}`)
	v := Verifier{Secret: testSecret, Now: func() time.Time { return testTime }}
	ahead, _ := Headers(testSecret, testMsgID, testTime.Add(30*time.Minute), body)
	err := v.Verify(ahead, body)
	var te *TimestampError
	if !errors.Is(err, ErrTimestampSkew) || !errors.Is(err, ErrTimestamp) || errors.Is(err, ErrSignature) || !errors.As(err, &te) {
		t.Fatalf("30 min ahead: %v", err)
	}
	if te.Skew != 1800 || !strings.Contains(err.Error(), "1800 s ahead of the receiver's clock (tolerance 300 s)") {
		t.Fatalf("30 min ahead: skew %d, %q", te.Skew, err)
	}
	behind, _ := Headers(testSecret, testMsgID, testTime.Add(-time.Hour), body)
	if err := v.Verify(behind, body); !errors.As(err, &te) || te.Skew != -3600 || !strings.Contains(err.Error(), "3600 s behind") {
		t.Fatalf("an hour behind: %v", err)
	}
	for _, extreme := range []string{"-9223372036854775808", "9223372036854775807"} {
		h, _ := Headers(testSecret, testMsgID, testTime, body)
		h.Set(HeaderTimestamp, extreme)
		if err := v.Verify(h, body); !errors.Is(err, ErrTimestampSkew) {
			t.Fatalf("timestamp %s: %v", extreme, err)
		}
	}
	bad, _ := Headers(testSecret, testMsgID, testTime, body)
	bad.Set(HeaderTimestamp, "yesterday")
	if err := v.Verify(bad, body); !errors.Is(err, ErrTimestamp) || errors.Is(err, ErrTimestampSkew) {
		t.Fatalf("unreadable timestamp: %v", err)
	}
	wrong, _ := Headers(testSecret, testMsgID, testTime, body)
	if err := v.Verify(wrong, []byte(`{}`)); !errors.Is(err, ErrSignature) || errors.Is(err, ErrTimestamp) {
		t.Fatalf("changed body: %v", err)
	}
}

func TestVerifyDefaultsToRealClock(t *testing.T) {
	body := []byte(`{}`)
	h, _ := Headers(testSecret, testMsgID, time.Now(), body)
	if err := (Verifier{Secret: testSecret}).Verify(h, body); err != nil {
		t.Fatalf("fresh webhook: %v", err)
	}
	h, _ = Headers(testSecret, testMsgID, time.Now().Add(-time.Hour), body)
	if err := (Verifier{Secret: testSecret}).Verify(h, body); !errors.Is(err, ErrTimestamp) {
		t.Fatalf("hour-old webhook: got %v, want ErrTimestamp", err)
	}
}

func TestEventType(t *testing.T) {
	if got := EventType("deposit", "PAID"); got != "deposit.paid" {
		t.Errorf("got %q", got)
	}
	if got := EventType(KindWithdrawal, "PENDING_COMPLIANCE"); got != TypeWithdrawalPrefix+"pending_compliance" {
		t.Errorf("got %q", got)
	}
	if got := EventType(KindDeposit, "PIX_QRCODE_GENERATED"); !strings.HasPrefix(got, TypeDepositPrefix) {
		t.Errorf("got %q", got)
	}
}

func TestEventMarshalJSON(t *testing.T) {
	ts := time.Date(2026, 3, 4, 5, 6, 7, 891_234_567, time.FixedZone("BRT", -3*3600))
	e := Event{ID: "msg_x", Type: "deposit.paid", Timestamp: ts, Data: json.RawMessage(`{"id":"d1"}`)}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"deposit.paid","timestamp":"2026-03-04T08:06:07.891Z","data":{"id":"d1"}}`
	if string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
	// The id travels in the header, never in the body.
	if strings.Contains(string(b), "msg_x") {
		t.Fatal("event id leaked into the body")
	}
	var back Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !back.Timestamp.Equal(ts.Truncate(time.Millisecond)) || back.Type != e.Type || string(back.Data) != `{"id":"d1"}` {
		t.Fatalf("round trip: %+v", back)
	}
	b, _ = json.Marshal(Event{Type: "x", Timestamp: ts})
	if !strings.HasSuffix(string(b), `"data":null}`) {
		t.Fatalf("empty data: %s", b)
	}
}

func TestParseHint(t *testing.T) {
	const id = "0b9b2f1e-7a6c-4d1e-9c3a-2f1b8e4d5c6a"
	tests := []struct {
		name, body string
		want       Hint
	}{
		{"our event", `{"type":"deposit.paid","timestamp":"2026-01-01T00:00:00.000Z","data":{"id":"` + id + `","status":"PAID","depositOrigin":"QRCODE"}}`,
			Hint{KindDeposit, id, "deposit.paid", "PAID"}},
		{"our withdrawal event", `{"type":"withdrawal.processed","timestamp":"2026-01-01T00:00:00.000Z","data":{"id":"` + id + `","status":"PROCESSED","method":"PIX"}}`,
			Hint{KindWithdrawal, id, "withdrawal.processed", "PROCESSED"}},
		{"type wins over fields", `{"type":"withdrawal.failed","data":{"id":"` + id + `","depositOrigin":"QRCODE"}}`,
			Hint{KindWithdrawal, id, "withdrawal.failed", "FAILED"}},
		{"status from type when the record has none", `{"type":"deposit.refunded","data":{"id":"` + id + `"}}`,
			Hint{KindDeposit, id, "deposit.refunded", "REFUNDED"}},
		{"bare deposit", `{"id":"` + id + `","status":"PAID","amount":100,"paymentMethod":"PIX","depositOrigin":"QRCODE"}`,
			Hint{KindDeposit, id, "", "PAID"}},
		{"bare withdrawal", `{"id":"` + id + `","status":"PROCESSING","method":"PIX","pixKey":{"key":"a@b.co","type":"EMAIL"}}`,
			Hint{KindWithdrawal, id, "", "PROCESSING"}},
		{"bare transaction response", `{"id":"` + id + `","type":"TRANSACTION","status":"PIX_QRCODE_GENERATED","amount":100}`,
			Hint{KindDeposit, id, "TRANSACTION", "PIX_QRCODE_GENERATED"}},
		{"event and payload", `{"event":"DEPOSIT_PAID","payload":{"id":"` + id + `","status":"PAID"}}`,
			Hint{KindDeposit, id, "DEPOSIT_PAID", "PAID"}},
		{"eventType and record", `{"eventType":"pix.withdrawal.updated","record":{"id":"` + id + `","status":"FAILED"}}`,
			Hint{KindWithdrawal, id, "pix.withdrawal.updated", "FAILED"}},
		{"event and object, kind from fields", `{"event":"updated","object":{"id":"` + id + `","status":"PAID","depositOrigin":"PIX_KEY"}}`,
			Hint{KindDeposit, id, "updated", "PAID"}},
		{"event and data", `{"event":"status.changed","data":{"id":"` + id + `","method":"PIX"}}`,
			Hint{KindWithdrawal, id, "status.changed", ""}},
		{"data.object with an event id on top", `{"id":"evt_123","type":"deposit.updated","data":{"object":{"id":"` + id + `","status":"PAID"}}}`,
			Hint{KindDeposit, id, "deposit.updated", "PAID"}},
		{"top-level transactionId", `{"transactionId":"` + id + `","status":"PAID"}`,
			Hint{KindDeposit, id, "", "PAID"}},
		{"top-level depositId", `{"depositId":"` + id + `"}`, Hint{KindDeposit, id, "", ""}},
		{"top-level withdrawalId", `{"withdrawalId":"` + id + `"}`, Hint{KindWithdrawal, id, "", ""}},
		{"top-level id only", `{"id":"` + id + `"}`, Hint{"", id, "", ""}},
		{"numeric id", `{"data":{"id":12345678901234567890}}`, Hint{"", "12345678901234567890", "", ""}},
		{"envelope key names the kind", `{"withdrawal":{"id":"` + id + `","status":"PENDING"}}`,
			Hint{KindWithdrawal, id, "", "PENDING"}},
		{"nested data without id falls back to top id", `{"id":"` + id + `","data":{"note":"x"},"depositOrigin":"QRCODE"}`,
			Hint{KindDeposit, id, "", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseHint([]byte(tt.body))
			if err != nil {
				t.Fatalf("ParseHint: %v", err)
			}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseHintErrors(t *testing.T) {
	for _, body := range []string{``, `not json`, `[]`, `"id"`, `{}`, `{"type":"deposit.paid","data":{"status":"PAID"}}`,
		`{"id":""}`, `{"id":{"nested":"x"}}`, `{"data":"abc"}`} {
		if _, err := ParseHint([]byte(body)); err == nil {
			t.Errorf("ParseHint(%q): want an error", body)
		}
	}
	if _, err := ParseHint([]byte(`{"data":{}}`)); !errors.Is(err, ErrNoHint) {
		t.Errorf("no id: got %v, want ErrNoHint", err)
	}
}

// TestParseHintDeepNesting proves a hostile payload cannot make ParseHint recurse without bound.
func TestParseHintDeepNesting(t *testing.T) {
	body := strings.Repeat(`{"data":`, 200) + `{"id":"x"}` + strings.Repeat(`}`, 200)
	if _, err := ParseHint([]byte(body)); !errors.Is(err, ErrNoHint) {
		t.Fatalf("got %v, want ErrNoHint (the id is deeper than the search goes)", err)
	}
}

func BenchmarkSign(b *testing.B) {
	body := []byte(strings.Repeat("x", 2048))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Sign(testSecret, testMsgID, testTime, body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	body := []byte(strings.Repeat("x", 2048))
	h, _ := Headers(testSecret, testMsgID, testTime, body)
	v := verifier(testTime)
	b.ReportAllocs()
	for b.Loop() {
		if err := v.Verify(h, body); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRotation: during a rotation the sender signs with the new and the old secret, one
// signature each in the header; a receiver on the old secret, one on the new and one taking
// both accept it; a receiver taking both accepts a sender still on either alone; a secret
// outside the rotation is refused; a bad secret in the list is an error.
func TestRotation(t *testing.T) {
	oldSecret, _ := NewSecret()
	newSecret, _ := NewSecret()
	other, _ := NewSecret()
	body := []byte(`{"type":"order.paid"}`)
	now := time.Now()
	headers := func(secret string) http.Header {
		h, err := Headers(secret, testMsgID, now, body)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	both := headers(newSecret + " " + oldSecret)
	if sigs := strings.Fields(both.Get(HeaderSignature)); len(sigs) != 2 || !strings.HasPrefix(sigs[0], "v1,") ||
		sigs[0] != headers(newSecret).Get(HeaderSignature) || sigs[1] != headers(oldSecret).Get(HeaderSignature) {
		t.Fatalf("the signatures of a rotation: %q", both.Get(HeaderSignature))
	}
	for _, tc := range []struct {
		name, sender, receiver string
		ok                     bool
	}{
		{"both signed, old receiver", newSecret + " " + oldSecret, oldSecret, true},
		{"both signed, new receiver", newSecret + " " + oldSecret, newSecret, true},
		{"old signed, receiver taking both", oldSecret, newSecret + " " + oldSecret, true},
		{"new signed, receiver taking both", newSecret, newSecret + "  " + oldSecret, true},
		{"another secret, receiver taking both", other, newSecret + " " + oldSecret, false},
		{"new signed, old receiver", newSecret, oldSecret, false},
	} {
		err := Verifier{Secret: tc.receiver}.Verify(headers(tc.sender), body)
		if (err == nil) != tc.ok || !tc.ok && !errors.Is(err, ErrSignature) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if _, err := Sign(newSecret+" whsec_%%%", testMsgID, now, body); !errors.Is(err, ErrSecret) {
		t.Errorf("a bad secret in the list: %v", err)
	}
	if err := (Verifier{Secret: " "}).Verify(both, body); !errors.Is(err, ErrSecret) {
		t.Errorf("no secret: %v", err)
	}
}
