-- Retention deletes the oldest carts and webhook ids in small batches: find them by age.

CREATE INDEX carts_updated ON carts (updated_at);
CREATE INDEX webhook_events_received ON webhook_events (received_at);
