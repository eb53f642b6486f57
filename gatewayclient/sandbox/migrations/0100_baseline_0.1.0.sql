-- The schema of release 0.1.0: the sandbox gateway's SQLite. This baseline makes, on an empty
-- database, what the development chain it replaced made (0001 to 0003_drop_deposit_counts.sql),
-- and was made from that chain's own schema (SQLite's sqlite_schema; pg_dump on PostgreSQL).
-- TestReleaseSchemas compares what it makes with the chain's dump, testdata/schema-0.1.0.* of
-- checkout/sqlite, checkout/postgres and gatewayclient/sandbox. Later schema changes are new
-- migrations numbered after this one (0101, 0102, ...): this file never changes.

CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE deposits (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    status TEXT NOT NULL,
    amount INTEGER NOT NULL,
    origin TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL DEFAULT 0,
    external_code TEXT,
    doc TEXT NOT NULL
);

CREATE TABLE withdrawals (
    id TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    status TEXT NOT NULL,
    amount INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    external_code TEXT,
    end_to_end TEXT,
    end_to_end_refund TEXT,
    pix_key TEXT,
    doc TEXT NOT NULL
);

CREATE TABLE idempotency (
    client_id TEXT NOT NULL,
    key TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    response BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (client_id, key)
) WITHOUT ROWID;

CREATE INDEX withdrawals_client_created ON withdrawals (client_id, created_at, id, status, amount);

CREATE INDEX withdrawals_client_status_created ON withdrawals (client_id, status, created_at, id);

CREATE INDEX withdrawals_external_code ON withdrawals (client_id, external_code);

CREATE INDEX withdrawals_end_to_end ON withdrawals (client_id, end_to_end);

CREATE INDEX withdrawals_end_to_end_refund ON withdrawals (client_id, end_to_end_refund);

CREATE INDEX withdrawals_pix_key ON withdrawals (client_id, pix_key);

CREATE INDEX deposits_by_date ON deposits (client_id, created_at, id, status, origin, amount);

CREATE INDEX deposits_by_status ON deposits (client_id, status, created_at, id, origin, amount);

CREATE INDEX deposits_by_amount ON deposits (client_id, amount, created_at, id, status, origin);

CREATE INDEX deposits_awaiting ON deposits (expires_at) WHERE status = 'PIX_QRCODE_GENERATED';
