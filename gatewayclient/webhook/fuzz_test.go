package webhook

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzVerify feeds Verify arbitrary headers and bodies (untrusted input: anyone can POST to a
// webhook receiver). It must never panic, must fail with one of its sentinel errors, and may
// accept only a body whose signature it could have made itself: a valid v1 HMAC of
// "id.timestamp.body" under the secret, in the tolerance. The seed corpus runs with every
// go test: go test -fuzz FuzzVerify ./gatewayclient/webhook/ explores further.
func FuzzVerify(f *testing.F) {
	body := []byte(`{"type":"deposit.paid","timestamp":"2021-02-25T15:02:10.000Z","data":{"id":"x"}}`)
	ts := strconv.FormatInt(testTime.Unix(), 10)
	good, err := Sign(testSecret, testMsgID, testTime, body)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(testSecret, testMsgID, ts, good, body)
	f.Add(testSecret, testMsgID, ts, "v1,AAAA "+good, body)                  // rotation: a second signature matches
	f.Add(testSecret, testMsgID, ts, good, append([]byte(nil), body[1:]...)) // body changed
	f.Add(testSecret, testMsgID, "1614265631", good, body)                   // just outside the tolerance
	f.Add(testSecret, testMsgID, "-9223372036854775808", good, body)         // overflow bait
	f.Add(testSecret, testMsgID, "9223372036854775807", good, body)
	f.Add(testSecret, testMsgID, "1614265330.5", good, body)
	f.Add(testSecret, "", ts, good, body)
	f.Add(testSecret, testMsgID, ts, "v2,"+strings.TrimPrefix(good, "v1,"), body)
	f.Add(testSecret, testMsgID, ts, "v1,!!!notbase64", body)
	f.Add(testSecret, testMsgID, ts, "v1", body)
	f.Add("whsec_", testMsgID, ts, good, body)
	f.Add("whsec_%%%", testMsgID, ts, good, body)
	f.Add(testKeyB64, testMsgID, ts, good, body) // the secret without its prefix
	f.Add(testSecret, "msg.with.dots", ts, good, []byte{})
	f.Fuzz(func(t *testing.T, secret, id, tsText, sigs string, body []byte) {
		h := http.Header{}
		h.Set(HeaderID, id)
		h.Set(HeaderTimestamp, tsText)
		h.Set(HeaderSignature, sigs)
		v := Verifier{Secret: secret, Now: func() time.Time { return testTime }}
		err := v.Verify(h, body)
		if err != nil {
			if !errors.Is(err, ErrMissingHeaders) && !errors.Is(err, ErrTimestamp) && !errors.Is(err, ErrSignature) && !errors.Is(err, ErrSecret) {
				t.Fatalf("Verify: %v matches none of the sentinel errors", err)
			}
			if errors.Is(err, ErrTimestampSkew) && !errors.Is(err, ErrTimestamp) {
				t.Fatalf("Verify: %v matches ErrTimestampSkew but not ErrTimestamp", err)
			}
			return
		}
		// Accepted: the timestamp is in the tolerance and one signature is the real one.
		unix, perr := strconv.ParseInt(strings.TrimSpace(tsText), 10, 64)
		if perr != nil || unix < testTime.Unix()-300 || unix > testTime.Unix()+300 {
			t.Fatalf("accepted timestamp %q", tsText)
		}
		want, serr := Sign(secret, strings.TrimSpace(id), time.Unix(unix, 0), body)
		if serr != nil {
			t.Fatalf("accepted with a secret Sign refuses: %v", serr)
		}
		if !strings.Contains(" "+strings.Join(strings.Fields(sigs), " ")+" ", " "+want+" ") {
			t.Fatalf("accepted signatures %q, none of which is %q", sigs, want)
		}
	})
}

// FuzzParseHint feeds the hint parser arbitrary payloads. It must never panic, must be
// deterministic, must fail only with a JSON error or ErrNoHint, and on success name an id and
// a kind among deposit, withdrawal and "". A payload built as this package's Event always
// gives back its record's id.
func FuzzParseHint(f *testing.F) {
	for _, s := range []string{
		`{"type":"deposit.paid","timestamp":"2021-02-25T15:02:10.000Z","data":{"id":"5d1c4c6e-1f57-4d36-9c39-1f0f8e3b8f51","status":"PAID","depositOrigin":"QRCODE"}}`,
		`{"type":"withdrawal.processed","data":{"id":"w1","method":"PIX"}}`,
		`{"event":"DEPOSIT_PAID","payload":{"transactionId":"t-1"}}`,
		`{"data":{"object":{"id":42}}}`,
		`{"transactionId":"abc"}`,
		`{"withdrawal_id":"w-9","status":"FAILED"}`,
		`{"data":{"data":{"data":{"data":{"data":{"data":{"id":"deep"}}}}}}}`,
		`{"data":"not an object","id":""}`,
		`{}`, `[]`, `null`, `"x"`, `{"id":{"nested":1}}`, `{"id":1e400}`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		h, err := ParseHint(body)
		h2, err2 := ParseHint(body)
		if h != h2 || (err == nil) != (err2 == nil) {
			t.Fatalf("not deterministic: %+v %v, then %+v %v", h, err, h2, err2)
		}
		if err != nil {
			if !errors.Is(err, ErrNoHint) && !strings.HasPrefix(err.Error(), "webhook: payload is not a JSON object") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if h.ID == "" {
			t.Fatal("a hint without an id")
		}
		if h.Kind != "" && h.Kind != KindDeposit && h.Kind != KindWithdrawal {
			t.Fatalf("kind %q", h.Kind)
		}
		// The same id wrapped as our own Event is found again.
		data, _ := json.Marshal(map[string]string{"id": h.ID})
		ev, _ := json.Marshal(Event{Type: EventType(KindDeposit, "PAID"), Timestamp: testTime, Data: data})
		back, err := ParseHint(ev)
		if err != nil || back.ID != h.ID || back.Kind != KindDeposit || back.Status != "PAID" {
			t.Fatalf("Event around id %q: %+v %v", h.ID, back, err)
		}
	})
}
