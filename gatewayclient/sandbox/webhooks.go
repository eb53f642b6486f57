package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// hooks turns state changes into signed webhooks: one secret per client, and messages
// written to the persisted outbox in the same transaction as the change, so a webhook exists
// exactly when its change is committed.
type hooks struct {
	secrets map[string]string // client id → whsec_… secret
	ob      *outbox.Outbox
}

// webhookUserAgent is sent with every webhook.
const webhookUserAgent = "PIX-Checkout-Sandbox-Webhooks/1"

// webhookSecretKey is the settings key of a client's generated webhook secret.
func webhookSecretKey(clientID string) string { return "webhook_secret:" + clientID }

// newHooks loads or makes every client's webhook secret (a configured one wins) and opens the
// outbox in the sandbox database.
func (s *Sandbox) newHooks(ctx context.Context, opts Options) (*hooks, error) {
	h := &hooks{secrets: map[string]string{}}
	for id, c := range s.clients {
		if c.WebhookSecret == "" {
			v, ok, err := getSetting(ctx, s.w, webhookSecretKey(id))
			if err != nil {
				return nil, err
			}
			if !ok {
				if v, err = webhook.NewSecret(); err != nil {
					return nil, fmt.Errorf("sandbox: webhook secret: %w", err)
				}
				if err := putSetting(ctx, s.w, webhookSecretKey(id), v); err != nil {
					return nil, err
				}
			}
			c.WebhookSecret = v
			s.clients[id] = c
		}
		// A configured secret must be usable: fail at start rather than at the first webhook.
		if _, err := webhook.Sign(c.WebhookSecret, "msg_check", time.Unix(0, 0), []byte("{}")); err != nil {
			return nil, fmt.Errorf("sandbox: webhook secret of client %q: %w", id, err)
		}
		h.secrets[id] = c.WebhookSecret
	}
	base, most := opts.WebhookBaseDelay, opts.WebhookMaxDelay
	if base <= 0 {
		base = outbox.DefaultBaseDelay
	}
	if most <= 0 {
		most = outbox.DefaultMaxDelay
	}
	if base > most {
		return nil, fmt.Errorf("sandbox: WebhookBaseDelay %s exceeds WebhookMaxDelay %s", base, most)
	}
	ob, err := outbox.New(outbox.Options{
		DB:         s.w,
		ReadDB:     s.r,
		Clock:      s.clock.Now,
		Logger:     s.log,
		HTTPClient: opts.WebhookHTTPClient,
		ForwardTo:  opts.WebhookForwardTo,
		Schedule:   outbox.Exponential(base, most, outbox.DefaultMaxAttempts),
		UserAgent:  webhookUserAgent,
		Expand: func(ctx context.Context, kind, id string, body []byte) ([]byte, error) {
			if kind != webhook.KindDeposit {
				return body, nil
			}
			return s.withQR(ctx, s.r, id, body)
		},
	})
	if err != nil {
		return nil, fmt.Errorf("sandbox: webhook outbox: %w", err)
	}
	h.ob = ob
	return h, nil
}

// enqueue writes the webhook of a record that moved to status into the outbox, inside tx.
// The event's data is the record as GET shows it.
func (h *hooks) enqueue(ctx context.Context, tx *sql.Tx, clientID, kind, recordID, url, status string, record any, now time.Time) error {
	data, err := json.Marshal(record)
	if err != nil {
		return fmt.Errorf("sandbox: encode webhook data: %w", err)
	}
	ev := webhook.Event{ID: webhook.NewMessageID(), Type: webhook.EventType(kind, status), Timestamp: now, Data: data}
	body, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("sandbox: encode webhook: %w", err)
	}
	err = h.ob.Enqueue(ctx, tx, outbox.Message{ID: ev.ID, ClientID: clientID, Secret: h.secrets[clientID], URL: url,
		Type: ev.Type, RecordKind: kind, RecordID: recordID, Body: body})
	if err != nil {
		return fmt.Errorf("sandbox: enqueue webhook: %w", err)
	}
	return nil
}

// wake tells the delivery loop that new messages are waiting or the clock moved.
func (h *hooks) wake() { h.ob.Wake() }

// run delivers webhooks until ctx is done.
func (h *hooks) run(ctx context.Context) { h.ob.Run(ctx) }

// DeliveryLog is a webhook delivery with its attempts, as the control API shows it.
type DeliveryLog struct {
	outbox.Delivery
	AttemptLog []outbox.Attempt
}

// deliveryJSON is a DeliveryLog on the wire: camelCase keys like the API's, times in the
// API's format (UTC, milliseconds, Z) and durations in milliseconds.
type deliveryJSON struct {
	ID             int64         `json:"id"`
	MessageID      string        `json:"messageId"`
	RecordKind     string        `json:"recordKind"`
	RecordID       string        `json:"recordId"`
	Type           string        `json:"type"`
	URL            string        `json:"url"`
	Forward        bool          `json:"forward"`
	Status         string        `json:"status"`
	Attempts       int           `json:"attempts"`
	NextAttemptAt  string        `json:"nextAttemptAt"`
	LastError      string        `json:"lastError"`
	LastStatusCode int           `json:"lastStatusCode"`
	CreatedAt      string        `json:"createdAt"`
	UpdatedAt      string        `json:"updatedAt"`
	AttemptLog     []attemptJSON `json:"attemptLog"`
}

// attemptJSON is one attempt on the wire.
type attemptJSON struct {
	N                      int    `json:"n"`
	At                     string `json:"at"`
	StatusCode             int    `json:"statusCode"` // 0 when no answer came
	Error                  string `json:"error"`      // "" for a delivered attempt
	DurationInMilliseconds int64  `json:"durationInMilliseconds"`
}

// MarshalJSON writes the log as GET sandbox/…/deliveries shows it.
func (d DeliveryLog) MarshalJSON() ([]byte, error) {
	out := deliveryJSON{ID: d.ID, MessageID: d.MessageID, RecordKind: d.RecordKind, RecordID: d.RecordID, Type: d.Type,
		URL: d.URL, Forward: d.Forward, Status: d.Status, Attempts: d.Attempts, NextAttemptAt: gc.FormatTime(d.NextAttemptAt),
		LastError: d.LastError, LastStatusCode: d.LastStatusCode, CreatedAt: gc.FormatTime(d.CreatedAt),
		UpdatedAt: gc.FormatTime(d.UpdatedAt), AttemptLog: make([]attemptJSON, 0, len(d.AttemptLog))}
	for _, a := range d.AttemptLog {
		out.AttemptLog = append(out.AttemptLog, attemptJSON{N: a.N, At: gc.FormatTime(a.At), StatusCode: a.StatusCode,
			Error: a.Error, DurationInMilliseconds: a.Duration.Milliseconds()})
	}
	return json.Marshal(out)
}

// Deliveries returns the webhook deliveries of a record (newest first, at most limit) with
// their attempts.
func (s *Sandbox) Deliveries(ctx context.Context, recordID string, limit int) ([]DeliveryLog, error) {
	ds, err := s.hooks.ob.Deliveries(ctx, outbox.Filter{RecordID: recordID, Limit: limit})
	if err != nil {
		return nil, fmt.Errorf("sandbox: deliveries: %w", err)
	}
	out := make([]DeliveryLog, 0, len(ds))
	for _, d := range ds {
		as, err := s.hooks.ob.Attempts(ctx, d.ID)
		if err != nil {
			return nil, fmt.Errorf("sandbox: attempts: %w", err)
		}
		out = append(out, DeliveryLog{Delivery: d, AttemptLog: as})
	}
	return out, nil
}

// handleDeliveries is GET sandbox/deposits/{id}/deliveries and
// GET sandbox/withdrawals/{id}/deliveries: the webhook log of one record of the caller.
func (s *Sandbox) handleDeliveries(w http.ResponseWriter, r *http.Request, p principal) {
	id := r.PathValue("id")
	if !brdoc.ValidUUID(id) {
		s.respondError(w, r, violation(gc.KindValidation, "id", gc.CodeUUID, "must be a UUID"))
		return
	}
	ds, err := s.Deliveries(r.Context(), id, 100)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	mine := ds[:0]
	for _, d := range ds {
		if d.ClientID == p.clientID {
			mine = append(mine, d)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"deliveries": mine})
}
