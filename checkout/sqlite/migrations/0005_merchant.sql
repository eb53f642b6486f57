-- The merchant side: checkout sessions made through the merchant API and the orders placed from
-- them, API keys, the merchant's settings, and the outbox of order notifications with its
-- delivery log.

CREATE TABLE checkout_sessions (
    id                TEXT PRIMARY KEY,
    idempotency_key   TEXT UNIQUE, -- NULL when the request had none
    request_hash      TEXT NOT NULL,
    external_code     TEXT NOT NULL DEFAULT '',
    embed_origin      TEXT NOT NULL DEFAULT '',
    success_url       TEXT NOT NULL DEFAULT '',
    cancel_url        TEXT NOT NULL DEFAULT '',
    amount            INTEGER NOT NULL CHECK (amount > 0),
    lines             TEXT NOT NULL, -- JSON array: a session's lines never change
    customer_name     TEXT NOT NULL DEFAULT '',
    customer_document TEXT NOT NULL DEFAULT '',
    customer_email    TEXT NOT NULL DEFAULT '',
    customer_phone    TEXT NOT NULL DEFAULT '',
    has_address       INTEGER NOT NULL DEFAULT 0,
    zip_code          TEXT NOT NULL DEFAULT '',
    street            TEXT NOT NULL DEFAULT '',
    street_number     TEXT NOT NULL DEFAULT '',
    complement        TEXT NOT NULL DEFAULT '',
    neighborhood      TEXT NOT NULL DEFAULT '',
    city              TEXT NOT NULL DEFAULT '',
    state             TEXT NOT NULL DEFAULT '',
    country           TEXT NOT NULL DEFAULT '',
    metadata          TEXT NOT NULL DEFAULT '', -- JSON object; '' when none
    api_key_id        TEXT NOT NULL DEFAULT '',
    expires_at        INTEGER NOT NULL,
    created_at        INTEGER NOT NULL
);

-- An order placed from a session: its session, the merchant's reference, its payment deadline.
ALTER TABLE orders ADD COLUMN session_id TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN merchant_reference TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN pay_by INTEGER NOT NULL DEFAULT 0;
CREATE INDEX orders_session ON orders (session_id) WHERE session_id <> '';
CREATE INDEX orders_merchant_reference ON orders (merchant_reference, created_at) WHERE merchant_reference <> '';
-- An ad-hoc item's description (sessions); '' for catalogue products.
ALTER TABLE order_lines ADD COLUMN description TEXT NOT NULL DEFAULT '';

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    hint         TEXT NOT NULL,
    hash         BLOB NOT NULL UNIQUE, -- SHA-256 of the key; the key itself is never stored
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL DEFAULT 0,
    revoked_at   INTEGER NOT NULL DEFAULT 0
);

-- One row at most.
CREATE TABLE merchant_settings (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    webhook_url    TEXT NOT NULL DEFAULT '',
    webhook_secret TEXT NOT NULL DEFAULT '',
    frame_origins  TEXT NOT NULL DEFAULT '[]', -- JSON array
    updated_at     INTEGER NOT NULL
);

-- Messages written in the transaction of the order change they announce, and their delivery.
-- seq orders the messages of one order as they were written.
CREATE TABLE outbox (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT NOT NULL UNIQUE,
    order_id         TEXT NOT NULL,
    type             TEXT NOT NULL,
    payload          TEXT NOT NULL,
    created_at       INTEGER NOT NULL,
    status           TEXT NOT NULL DEFAULT 'pending',
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER NOT NULL,
    leased_until     INTEGER NOT NULL DEFAULT 0,
    last_status_code INTEGER NOT NULL DEFAULT 0,
    last_error       TEXT NOT NULL DEFAULT ''
);

CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_pending_order ON outbox (order_id, seq) WHERE status = 'pending';
CREATE INDEX outbox_order ON outbox (order_id, seq);
CREATE INDEX outbox_created ON outbox (created_at);

CREATE TABLE outbox_attempts (
    message_id  TEXT NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    url         TEXT NOT NULL DEFAULT '',
    status_code INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT '',
    duration_ms INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (message_id, n)
);
