package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNoHint: the payload names no record id that a receiver could re-fetch.
var ErrNoHint = errors.New("webhook: payload names no record id")

// Hint is what a receiver needs to re-fetch the record a webhook is about. Kind is
// KindDeposit, KindWithdrawal or "" when it cannot be told; Type and Status are "" when the
// payload does not carry them.
type Hint struct {
	Kind   string // KindDeposit, KindWithdrawal or ""
	ID     string // id of the record to re-fetch
	Type   string // the event type, when the payload has one
	Status string // the record's status as the payload says, when it has one
}

// maxHintDepth bounds the search for the record inside nested envelopes.
const maxHintDepth = 4

// keyKind is a JSON key and the record kind it implies ("" when it implies none).
type keyKind struct{ key, kind string }

// envelopeKeys are the keys under which senders nest the record, in order of preference.
func envelopeKeys() []keyKind {
	return []keyKind{
		{"data", ""}, {"object", ""}, {"payload", ""}, {"record", ""}, {"resource", ""},
		{"deposit", KindDeposit}, {"withdrawal", KindWithdrawal}, {"transaction", KindDeposit},
	}
}

// idKeys name a record's id. A transaction creates a deposit with the same id, so a
// transaction id is a deposit id.
func idKeys() []keyKind {
	return []keyKind{
		{"id", ""},
		{"depositId", KindDeposit}, {"deposit_id", KindDeposit},
		{"transactionId", KindDeposit}, {"transaction_id", KindDeposit},
		{"withdrawalId", KindWithdrawal}, {"withdrawal_id", KindWithdrawal},
	}
}

// ParseHint reads a webhook payload leniently and returns the kind and id of the record it is
// about. It understands this package's Event ({type, timestamp, data: record}), a bare record,
// {event|eventType: …, payload|data|object|record: record}, {data: {object: record}} and a top
// level {transactionId|depositId|withdrawalId|id: "…"}. The kind comes from the event type's
// prefix, else from the record's fields (depositOrigin or paymentMethod: a deposit; method,
// pixKey or amountWithdrawn: a withdrawal), else from the key that held the id. It fails only
// when no id is found (ErrNoHint) or the body is not a JSON object.
func ParseHint(body []byte) (Hint, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // keep numeric ids exact
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		return Hint{}, fmt.Errorf("webhook: payload is not a JSON object: %w", err)
	}
	var h Hint
	h.Type = firstString(top, "type", "event", "eventType", "event_type")
	rec, fromKey := findRecord(top, 0)
	var idKind string
	if rec != nil {
		h.ID, idKind = recordID(rec)
	}
	if h.ID == "" {
		// No nested record with an id: take one at the top level.
		rec, fromKey = top, ""
		h.ID, idKind = recordID(top)
	}
	if h.ID == "" {
		return Hint{}, ErrNoHint
	}
	h.Status = firstString(rec, "status")
	h.Kind = kindFromType(h.Type)
	if h.Kind == "" {
		h.Kind = kindFromFields(rec)
	}
	if h.Kind == "" {
		h.Kind = fromKey
	}
	if h.Kind == "" {
		h.Kind = idKind
	}
	if h.Status == "" {
		// Our own types ("deposit.paid") say the status when the record does not.
		for _, p := range []string{TypeDepositPrefix, TypeWithdrawalPrefix} {
			if s, ok := strings.CutPrefix(strings.ToLower(h.Type), p); ok && s != "" {
				h.Status = strings.ToUpper(s)
			}
		}
	}
	return h, nil
}

// findRecord returns the innermost nested object under an envelope key that carries an id,
// and the kind its key implies.
func findRecord(m map[string]any, depth int) (map[string]any, string) {
	if depth > maxHintDepth {
		return nil, ""
	}
	for _, k := range envelopeKeys() {
		inner, ok := m[k.key].(map[string]any)
		if !ok {
			continue
		}
		if rec, kind := findRecord(inner, depth+1); rec != nil {
			if kind == "" {
				kind = k.kind
			}
			return rec, kind
		}
		if id, _ := recordID(inner); id != "" {
			return inner, k.kind
		}
	}
	return nil, ""
}

// recordID returns the first id found in m and the kind its key implies.
func recordID(m map[string]any) (string, string) {
	for _, k := range idKeys() {
		if s := scalarString(m[k.key]); s != "" {
			return s, k.kind
		}
	}
	return "", ""
}

// kindFromType reads the record kind from an event type such as "deposit.paid",
// "DEPOSIT_PAID", "withdrawal.processed" or "transaction.paid".
func kindFromType(t string) string {
	t = strings.ToLower(strings.TrimSpace(t))
	switch {
	case strings.HasPrefix(t, "deposit"), strings.HasPrefix(t, "transaction"), strings.HasPrefix(t, "pix.deposit"):
		return KindDeposit
	case strings.HasPrefix(t, "withdraw"), strings.HasPrefix(t, "pix.withdraw"):
		return KindWithdrawal
	}
	return ""
}

// kindFromFields tells a deposit from a withdrawal by the fields only one of them has.
func kindFromFields(m map[string]any) string {
	if m == nil {
		return ""
	}
	for _, k := range []string{"depositOrigin", "paymentMethod", "amountPaid"} {
		if _, ok := m[k]; ok {
			return KindDeposit
		}
	}
	for _, k := range []string{"method", "pixKey", "amountWithdrawn", "processedDate"} {
		if _, ok := m[k]; ok {
			return KindWithdrawal
		}
	}
	return ""
}

// firstString returns the first non-empty string value among keys.
func firstString(m map[string]any, keys ...string) string {
	if m == nil {
		return ""
	}
	for _, k := range keys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// scalarString returns a string or a number as text, and "" for anything else.
func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	}
	return ""
}
