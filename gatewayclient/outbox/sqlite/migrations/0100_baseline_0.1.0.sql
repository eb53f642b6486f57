-- The schema of release 0.1.0: the webhook outbox on SQLite. This baseline makes, on an empty
-- database, what the development chain it replaced made (0001 to 0004_excerpt.sql),
-- and was made from that chain's own schema (SQLite's sqlite_schema; pg_dump on PostgreSQL).
-- TestReleaseSchemas compares what it makes with the chain's dump, testdata/schema-0.1.0.* of
-- checkout/sqlite, checkout/postgres and gatewayclient/sandbox. Later schema changes are new
-- migrations numbered after this one (0101, 0102, ...): this file never changes.

CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    secret TEXT NOT NULL,
    url TEXT NOT NULL,
    forward INTEGER NOT NULL,
    type TEXT NOT NULL,
    record_kind TEXT NOT NULL,
    record_id TEXT NOT NULL,
    body BLOB NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_until INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    last_status_code INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (message_id, url)
);

CREATE TABLE webhook_attempts (
    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    at INTEGER NOT NULL,
    status_code INTEGER NOT NULL,
    error TEXT NOT NULL,
    duration_ns INTEGER NOT NULL,
    url TEXT NOT NULL DEFAULT '',
    excerpt TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (delivery_id, n)
) WITHOUT ROWID;

CREATE INDEX webhook_deliveries_record ON webhook_deliveries (record_id, id);

CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status IN ('delivered', 'dead', 'skipped');

CREATE INDEX webhook_deliveries_first ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending' AND attempts = 0;

CREATE INDEX webhook_deliveries_retry ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending' AND attempts > 0;
