-- One row per message and destination URL. lease_until is real (wall-clock) time: it only
-- keeps two passes from sending the same delivery at once, and lapses if a process dies
-- mid-send. Other times are Unix milliseconds of the outbox's clock.
CREATE TABLE webhook_deliveries (
	id               INTEGER PRIMARY KEY AUTOINCREMENT,
	message_id       TEXT    NOT NULL,
	client_id        TEXT    NOT NULL,
	secret           TEXT    NOT NULL,
	url              TEXT    NOT NULL,
	forward          INTEGER NOT NULL,
	type             TEXT    NOT NULL,
	record_kind      TEXT    NOT NULL,
	record_id        TEXT    NOT NULL,
	body             BLOB    NOT NULL,
	status           TEXT    NOT NULL,
	attempts         INTEGER NOT NULL DEFAULT 0,
	next_attempt_at  INTEGER NOT NULL,
	lease_until      INTEGER NOT NULL DEFAULT 0,
	last_error       TEXT    NOT NULL DEFAULT '',
	last_status_code INTEGER NOT NULL DEFAULT 0,
	created_at       INTEGER NOT NULL,
	updated_at       INTEGER NOT NULL,
	UNIQUE (message_id, url)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_record ON webhook_deliveries (record_id, id);

-- Every attempt of a delivery.
CREATE TABLE webhook_attempts (
	delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
	n           INTEGER NOT NULL,
	at          INTEGER NOT NULL,
	status_code INTEGER NOT NULL,
	error       TEXT    NOT NULL,
	duration_ns INTEGER NOT NULL,
	PRIMARY KEY (delivery_id, n)
) WITHOUT ROWID;
