-- One row per message and destination URL ("" for the destination given when it is due).
-- lease_until is real (wall-clock) time: it only keeps two workers from sending the same
-- delivery at once, and lapses if a process dies mid-send. Other times are Unix milliseconds
-- of the outbox's clock.
CREATE TABLE webhook_deliveries (
	id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	message_id       TEXT    NOT NULL,
	client_id        TEXT    NOT NULL,
	secret           TEXT    NOT NULL,
	url              TEXT    NOT NULL,
	forward          BOOLEAN NOT NULL,
	type             TEXT    NOT NULL,
	record_kind      TEXT    NOT NULL,
	record_id        TEXT    NOT NULL,
	body             TEXT    NOT NULL,
	status           TEXT    NOT NULL,
	attempts         INTEGER NOT NULL DEFAULT 0,
	next_attempt_at  BIGINT  NOT NULL,
	lease_until      BIGINT  NOT NULL DEFAULT 0,
	last_error       TEXT    NOT NULL DEFAULT '',
	last_status_code INTEGER NOT NULL DEFAULT 0,
	created_at       BIGINT  NOT NULL,
	updated_at       BIGINT  NOT NULL,
	UNIQUE (message_id, url)
);
CREATE INDEX webhook_deliveries_first ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending' AND attempts = 0;
CREATE INDEX webhook_deliveries_retry ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending' AND attempts > 0;
CREATE INDEX webhook_deliveries_record ON webhook_deliveries (record_id, id);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status IN ('delivered', 'dead', 'skipped');

-- Every attempt of a delivery.
CREATE TABLE webhook_attempts (
	delivery_id BIGINT  NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
	n           INTEGER NOT NULL,
	at          BIGINT  NOT NULL,
	status_code INTEGER NOT NULL,
	error       TEXT    NOT NULL,
	duration_ns BIGINT  NOT NULL,
	url         TEXT    NOT NULL DEFAULT '',
	PRIMARY KEY (delivery_id, n)
);
