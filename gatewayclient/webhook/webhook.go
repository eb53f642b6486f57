// Package webhook signs and verifies the gateway's webhooks, Standard Webhooks style.
//
// A webhook is an HTTP POST whose body is an Event ({"type", "timestamp", "data"}) and which
// carries three headers:
//
//	webhook-id:        msg_…, the same across every delivery attempt of one event
//	webhook-timestamp: Unix seconds of this attempt
//	webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">
//
// The HMAC key is the base64-decoded part of a "whsec_…" secret.
//
// Secrets rotate without downtime: wherever this package takes a secret it takes several,
// separated by spaces (base64 has none), newest first. Sign and Headers then sign with each,
// and the header lists every signature ("v1,… v1,…", as Standard Webhooks allows), so a
// receiver still on the old secret and one already on the new both accept the webhook; a
// Verifier accepts a signature made with any of them, so a receiver can take the new secret
// before its sender does. A receiver verifies the
// signature and the timestamp with a Verifier, then treats the event as a hint: ParseHint
// tells it which record to re-fetch from the gateway, and it applies what the gateway says
// rather than what the body says.
package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Header names of a signed webhook.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// SecretPrefix starts every secret made by NewSecret.
const SecretPrefix = "whsec_"

// DefaultTolerance is how far a webhook's timestamp may be from the receiver's clock, in
// either direction, when Verifier.Tolerance is zero.
const DefaultTolerance = 5 * time.Minute

// signatureVersion is the only scheme this package signs and accepts.
const signatureVersion = "v1"

// Sentinel errors of Verify; match them with errors.Is.
var (
	// ErrMissingHeaders: the id, timestamp or signature header is absent or empty.
	ErrMissingHeaders = errors.New("webhook: missing webhook-id, webhook-timestamp or webhook-signature header")
	// ErrTimestamp: the timestamp is refused, whatever the reason: it is not Unix seconds, or
	// it is outside the tolerance (then the error matches ErrTimestampSkew too).
	ErrTimestamp = errors.New("webhook: timestamp invalid or outside tolerance")
	// ErrTimestampSkew: the timestamp is Unix seconds but farther from the receiver's clock
	// than the tolerance: a replayed webhook, or a sender (or receiver) whose clock is wrong.
	// The signature was not checked. errors.As with *TimestampError gives the difference.
	ErrTimestampSkew = errors.New("webhook: timestamp outside tolerance")
	// ErrSignature: no signature in the header matches the body.
	ErrSignature = errors.New("webhook: signature does not match")
	// ErrSecret: the secret is empty or not base64 after its whsec_ prefix.
	ErrSecret = errors.New("webhook: invalid secret")
)

// NewSecret returns a fresh signing secret: "whsec_" followed by 32 random bytes in
// standard base64.
func NewSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("webhook: reading random bytes: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(b), nil
}

// NewMessageID returns a unique webhook id: "msg_" followed by 26 random base32 characters
// (at least 128 bits from crypto/rand).
func NewMessageID() string {
	return "msg_" + rand.Text()
}

// CheckSecret reads a secret text as Sign and Verifier do: one or several secrets separated by
// spaces, each "whsec_" followed by base64, or base64 alone (padded or not). It returns the
// length in bytes of the shortest key, or an error matching ErrSecret for an empty or
// undecodable text.
func CheckSecret(secrets string) (shortest int, err error) {
	keys, err := secretKeys(secrets)
	if err != nil {
		return 0, err
	}
	shortest = len(keys[0])
	for _, k := range keys[1:] {
		shortest = min(shortest, len(k))
	}
	return shortest, nil
}

// secretKeys decodes the secrets of a secret text (see the package doc: several, separated by
// spaces) into their HMAC keys.
func secretKeys(secrets string) ([][]byte, error) {
	var keys [][]byte
	for _, s := range strings.Fields(secrets) {
		k, err := secretKey(s)
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrSecret)
	}
	return keys, nil
}

// secretKey decodes a secret into its HMAC key. The "whsec_" prefix is optional.
func secretKey(secret string) ([]byte, error) {
	s := strings.TrimPrefix(strings.TrimSpace(secret), SecretPrefix)
	if s == "" {
		return nil, fmt.Errorf("%w: empty", ErrSecret)
	}
	key, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		// Some senders strip the padding; accept that too.
		var err2 error
		if key, err2 = base64.RawStdEncoding.DecodeString(s); err2 != nil {
			return nil, fmt.Errorf("%w: the part after %q must be standard base64: %w", ErrSecret, SecretPrefix, err)
		}
	}
	if len(key) == 0 {
		return nil, fmt.Errorf("%w: empty key", ErrSecret)
	}
	return key, nil
}

// mac computes the raw HMAC-SHA256 of "msgID.unixSeconds.body".
func mac(key []byte, msgID string, unix int64, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msgID))
	h.Write([]byte{'.'})
	h.Write(strconv.AppendInt(nil, unix, 10))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Sign returns the webhook-signature value for body sent as message msgID at ts:
// "v1,<base64 HMAC-SHA256 of msgID.unixSeconds.body>", one such signature per secret of
// secret (several during a rotation, separated by spaces), in their order. A secret may carry
// the "whsec_" prefix or not.
func Sign(secret, msgID string, ts time.Time, body []byte) (string, error) {
	keys, err := secretKeys(secret)
	if err != nil {
		return "", err
	}
	if msgID == "" {
		return "", errors.New("webhook: message id is empty")
	}
	sigs := make([]string, len(keys))
	for i, key := range keys {
		sigs[i] = signatureVersion + "," + base64.StdEncoding.EncodeToString(mac(key, msgID, ts.Unix(), body))
	}
	return strings.Join(sigs, " "), nil
}

// Headers returns the three headers of a signed webhook (id, timestamp, signature).
func Headers(secret, msgID string, ts time.Time, body []byte) (http.Header, error) {
	sig, err := Sign(secret, msgID, ts, body)
	if err != nil {
		return nil, err
	}
	h := make(http.Header, 3)
	h.Set(HeaderID, msgID)
	h.Set(HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
	h.Set(HeaderSignature, sig)
	return h, nil
}

// Verifier checks the signature and timestamp of incoming webhooks. The zero Tolerance means
// DefaultTolerance; a nil Now means time.Now.
type Verifier struct {
	// Secret is the "whsec_…" secret shared with the sender; during a rotation, the new and
	// the old one separated by a space: a signature by either is accepted.
	Secret    string
	Tolerance time.Duration    // accepted clock difference, either way; 0: DefaultTolerance
	Now       func() time.Time // the receiver's clock; nil: time.Now
}

// headerValue reads a Standard Webhooks header, falling back to the svix- names that some
// senders of the same scheme use.
func headerValue(h http.Header, name string) string {
	if v := strings.TrimSpace(h.Get(name)); v != "" {
		return v
	}
	return strings.TrimSpace(h.Get("svix-" + strings.TrimPrefix(name, "webhook-")))
}

// TimestampError is the error of a refused webhook-timestamp. It matches ErrTimestamp, and
// ErrTimestampSkew when the value is Unix seconds outside the tolerance.
type TimestampError struct {
	Value string // the header's value
	// Skew is the timestamp less the receiver's time, in seconds (positive: the sender's clock
	// is ahead), when Value is Unix seconds.
	Skew      int64
	Tolerance time.Duration // the tolerance it was judged by
	unix      bool          // Value is Unix seconds
}

func (e *TimestampError) Error() string {
	if !e.unix {
		return fmt.Sprintf("webhook: timestamp %q is not Unix seconds", e.Value)
	}
	dir, by := "ahead of", e.Skew
	if by < 0 {
		dir, by = "behind", -by // Skew is never math.MinInt64 (see skewSeconds)
	}
	return fmt.Sprintf("webhook: timestamp outside tolerance: %d s %s the receiver's clock (tolerance %d s)",
		by, dir, int64(e.Tolerance/time.Second))
}

// Is makes errors.Is match ErrTimestamp, and ErrTimestampSkew for a readable timestamp.
func (e *TimestampError) Is(target error) bool {
	return target == ErrTimestamp || (e.unix && target == ErrTimestampSkew)
}

// skewSeconds returns ts - now, saturated rather than overflowing.
func skewSeconds(ts, now int64) int64 {
	d := ts - now
	switch {
	case now > 0 && d > ts: // ts - now wrapped upwards
		return math.MinInt64 + 1
	case now < 0 && d < ts:
		return math.MaxInt64
	}
	return max(d, math.MinInt64+1)
}

// Verify checks that body was signed with v.Secret (one of its secrets) and sent within the
// tolerance. It returns
// an error matching ErrMissingHeaders, ErrTimestamp (ErrTimestampSkew too when the timestamp
// is readable but outside the tolerance, with a *TimestampError), ErrSignature or ErrSecret;
// a receiver tells the sender which, since "outside tolerance" usually means a clock is
// wrong while "signature does not match" means the secret or the body is. The header may
// list several space-separated signatures (during a secret rotation); any may match.
// Signatures are compared in constant time.
func (v Verifier) Verify(h http.Header, body []byte) error {
	keys, err := secretKeys(v.Secret)
	if err != nil {
		return err
	}
	id, tsText, sigs := headerValue(h, HeaderID), headerValue(h, HeaderTimestamp), headerValue(h, HeaderSignature)
	if id == "" || tsText == "" || sigs == "" {
		return ErrMissingHeaders
	}
	tolerance := v.Tolerance
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	unix, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return &TimestampError{Value: tsText, Tolerance: tolerance}
	}
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	// Compare in seconds so that a huge timestamp cannot overflow a time.Duration.
	skew := skewSeconds(unix, now().Unix())
	if limit := int64(tolerance / time.Second); skew > limit || skew < -limit {
		return &TimestampError{Value: tsText, Skew: skew, Tolerance: tolerance, unix: true}
	}
	for _, key := range keys {
		if signed(sigs, mac(key, id, unix, body)) {
			return nil
		}
	}
	return ErrSignature
}

// signed reports whether the signatures header sigs holds want, compared in constant time.
func signed(sigs string, want []byte) bool {
	for _, s := range strings.Fields(sigs) {
		version, b64, ok := strings.Cut(s, ",")
		if !ok || version != signatureVersion {
			continue
		}
		if got, err := base64.StdEncoding.DecodeString(b64); err == nil && hmac.Equal(got, want) {
			return true
		}
	}
	return false
}

// Event kinds prefix the event type: Type is a prefix plus the record's new status in lower
// case, e.g. "deposit.paid" or "withdrawal.processed".
const (
	TypeDepositPrefix    = "deposit."
	TypeWithdrawalPrefix = "withdrawal."
)

// Record kinds, as used by EventType and Hint.Kind.
const (
	KindDeposit    = "deposit"
	KindWithdrawal = "withdrawal"
)

// EventType returns the event type of a record of kind ("deposit" or "withdrawal") that has
// moved to status: EventType("deposit", "PAID") is "deposit.paid".
func EventType(kind, status string) string {
	return strings.ToLower(kind) + "." + strings.ToLower(status)
}

// Event is the body of a webhook. ID is not part of the body: it travels in the webhook-id
// header.
type Event struct {
	ID        string          `json:"-"`         // the webhook-id header, the same on every delivery attempt
	Type      string          `json:"type"`      // what happened, as EventType writes it ("deposit.paid")
	Timestamp time.Time       `json:"timestamp"` // when it happened
	Data      json.RawMessage `json:"data"`      // the record as the sender saw it
}

// MarshalJSON writes the timestamp in the gateway's wire format (UTC, milliseconds, Z).
func (e Event) MarshalJSON() ([]byte, error) {
	data := e.Data
	if len(data) == 0 {
		data = json.RawMessage("null")
	}
	return json.Marshal(struct {
		Type      string          `json:"type"`
		Timestamp string          `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}{e.Type, gatewayclient.FormatTime(e.Timestamp), data})
}
