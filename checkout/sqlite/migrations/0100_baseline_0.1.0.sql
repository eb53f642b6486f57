-- The schema of release 0.1.0: the checkout's SQLite store. This baseline makes, on an empty
-- database, what the development chain it replaced made (0001 to 0066_api_key_personal_data.sql),
-- and was made from that chain's own schema (SQLite's sqlite_schema; pg_dump on PostgreSQL).
-- TestReleaseSchemas compares what it makes with the chain's dump, testdata/schema-0.1.0.* of
-- checkout/sqlite, checkout/postgres and gatewayclient/sandbox. Later schema changes are new
-- migrations numbered after this one (0101, 0102, ...): this file never changes.

CREATE TABLE products (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    unit_price INTEGER NOT NULL CHECK (unit_price > 0),
    physical INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    image_key TEXT NOT NULL DEFAULT '',
    image_type TEXT NOT NULL DEFAULT '',
    image_width INTEGER NOT NULL DEFAULT 0,
    image_height INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE carts (
    id TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE cart_lines (
    cart_id TEXT NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    product_id TEXT NOT NULL REFERENCES products (id),
    position INTEGER NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 100),
    PRIMARY KEY (cart_id, product_id)
);

CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    number TEXT NOT NULL UNIQUE,
    external_code TEXT NOT NULL UNIQUE,
    request_key TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    customer_name TEXT NOT NULL,
    customer_document TEXT NOT NULL,
    customer_email TEXT NOT NULL DEFAULT '',
    customer_phone TEXT NOT NULL DEFAULT '',
    has_address INTEGER NOT NULL DEFAULT 0,
    zip_code TEXT NOT NULL DEFAULT '',
    street TEXT NOT NULL DEFAULT '',
    street_number TEXT NOT NULL DEFAULT '',
    complement TEXT NOT NULL DEFAULT '',
    neighborhood TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    physical INTEGER NOT NULL DEFAULT 0,
    late_payment INTEGER NOT NULL DEFAULT 0,
    lang TEXT NOT NULL DEFAULT '',
    shopper_ip TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    paid_at INTEGER NOT NULL DEFAULT 0,
    version INTEGER NOT NULL DEFAULT 1,
    refund_due INTEGER NOT NULL DEFAULT 0,
    session_id TEXT NOT NULL DEFAULT '',
    merchant_reference TEXT NOT NULL DEFAULT '',
    pay_by INTEGER NOT NULL DEFAULT 0,
    shipping INTEGER NOT NULL DEFAULT 0,
    delivery_days INTEGER NOT NULL DEFAULT 0,
    link_id TEXT NOT NULL DEFAULT '',
    carrier TEXT NOT NULL DEFAULT '',
    tracking_code TEXT NOT NULL DEFAULT '',
    shipped_at INTEGER NOT NULL DEFAULT 0,
    delivered_at INTEGER NOT NULL DEFAULT 0,
    customer_document_hash TEXT NOT NULL DEFAULT '',
    customer_email_hash TEXT NOT NULL DEFAULT '',
    anonymised_at INTEGER NOT NULL DEFAULT 0,
    channel TEXT NOT NULL DEFAULT 'shop' CHECK (channel IN ('shop', 'session', 'link', 'charge', 'pos'))
);

CREATE TABLE order_lines (
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    product_id TEXT NOT NULL,
    title TEXT NOT NULL,
    unit_price INTEGER NOT NULL CHECK (unit_price > 0),
    quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 100),
    physical INTEGER NOT NULL DEFAULT 0,
    description TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (order_id, position)
);

CREATE TABLE order_history (
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    from_status TEXT NOT NULL,
    to_status TEXT NOT NULL,
    at INTEGER NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    reason_code TEXT NOT NULL DEFAULT '',
    reason_params TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (order_id, position)
);

CREATE TABLE attempts (
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    transaction_id TEXT UNIQUE,
    br_code TEXT NOT NULL DEFAULT '',
    qr_png BLOB,
    expires_at INTEGER NOT NULL DEFAULT 0,
    deposit_status TEXT NOT NULL DEFAULT '',
    error TEXT NOT NULL DEFAULT '',
    violations TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    request TEXT,
    end_to_end TEXT NOT NULL DEFAULT '',
    error_code TEXT NOT NULL DEFAULT '',
    error_params TEXT NOT NULL DEFAULT '',
    UNIQUE (order_id, n)
);

CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,
    received_at INTEGER NOT NULL
);

CREATE TABLE checkout_sessions (
    id TEXT PRIMARY KEY,
    idempotency_key TEXT UNIQUE,
    request_hash TEXT NOT NULL,
    external_code TEXT NOT NULL DEFAULT '',
    embed_origin TEXT NOT NULL DEFAULT '',
    success_url TEXT NOT NULL DEFAULT '',
    cancel_url TEXT NOT NULL DEFAULT '',
    amount INTEGER NOT NULL CHECK (amount > 0),
    lines TEXT NOT NULL,
    customer_name TEXT NOT NULL DEFAULT '',
    customer_document TEXT NOT NULL DEFAULT '',
    customer_email TEXT NOT NULL DEFAULT '',
    customer_phone TEXT NOT NULL DEFAULT '',
    has_address INTEGER NOT NULL DEFAULT 0,
    zip_code TEXT NOT NULL DEFAULT '',
    street TEXT NOT NULL DEFAULT '',
    street_number TEXT NOT NULL DEFAULT '',
    complement TEXT NOT NULL DEFAULT '',
    neighborhood TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT '',
    country TEXT NOT NULL DEFAULT '',
    metadata TEXT NOT NULL DEFAULT '',
    api_key_id TEXT NOT NULL DEFAULT '',
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    shipping INTEGER NOT NULL DEFAULT 0,
    delivery_days INTEGER NOT NULL DEFAULT 0,
    customer_document_hash TEXT NOT NULL DEFAULT '',
    customer_email_hash TEXT NOT NULL DEFAULT ''
);

CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    hint TEXT NOT NULL,
    hash BLOB NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL DEFAULT 0,
    revoked_at INTEGER NOT NULL DEFAULT 0,
    scope TEXT NOT NULL DEFAULT 'write' CHECK (scope IN ('read', 'write')),
    created_by TEXT NOT NULL DEFAULT '',
    last_used_address TEXT NOT NULL DEFAULT '',
    personal_data INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE merchant_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    webhook_url TEXT NOT NULL DEFAULT '',
    webhook_secret TEXT NOT NULL DEFAULT '',
    frame_origins TEXT NOT NULL DEFAULT '[]',
    updated_at INTEGER NOT NULL,
    previous_secret TEXT NOT NULL DEFAULT '',
    previous_until BIGINT NOT NULL DEFAULT 0,
    shipping_flat_rate INTEGER NOT NULL DEFAULT 0,
    shipping_free_above INTEGER NOT NULL DEFAULT 0,
    shipping_delivery_days INTEGER NOT NULL DEFAULT 0,
    notify_personal_data INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE dashboard_users (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    role TEXT NOT NULL DEFAULT 'owner' CHECK (role IN ('owner', 'developer', 'operator', 'viewer')),
    last_sign_in_at INTEGER NOT NULL DEFAULT 0,
    totp_secret TEXT NOT NULL DEFAULT '',
    totp_enabled_at INTEGER NOT NULL DEFAULT 0,
    totp_last_step INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE login_failures (
    throttle_key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL CHECK (failures > 0),
    last_at INTEGER NOT NULL
);

CREATE TABLE sessions (
    token TEXT PRIMARY KEY,
    data BLOB NOT NULL,
    expiry REAL NOT NULL
);

CREATE TABLE order_search (
    id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL UNIQUE
);

CREATE VIRTUAL TABLE order_search_text USING fts5(
    number, external_code, merchant_reference, customer_email, customer_name, customer_document,
    tokenize = 'trigram'
);

INSERT INTO order_search_text (order_search_text, rank) VALUES ('secure-delete', 1);

CREATE TABLE dashboard_invitations (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'operator', 'viewer')),
    invited_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    object TEXT NOT NULL,
    address TEXT NOT NULL,
    detail TEXT NOT NULL
);

CREATE TABLE dashboard_sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    seen_at INTEGER NOT NULL,
    address TEXT NOT NULL,
    user_agent TEXT NOT NULL
);

CREATE TABLE totp_recovery_codes (
    user_id TEXT NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    hash BLOB NOT NULL,
    used_at INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, hash)
);

CREATE TABLE team_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    require_totp INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE product_images (
    image_key TEXT NOT NULL,
    size TEXT NOT NULL CHECK (size IN ('s', 'l')),
    content_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    data BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (image_key, size)
);

CREATE TABLE payment_links (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    idempotency_key TEXT UNIQUE,
    request_hash TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    kind TEXT NOT NULL,
    lines TEXT NOT NULL DEFAULT '',
    amount BIGINT NOT NULL DEFAULT 0,
    min_amount BIGINT NOT NULL DEFAULT 0,
    max_amount BIGINT NOT NULL DEFAULT 0,
    require_address INTEGER NOT NULL DEFAULT 0,
    ask_email INTEGER NOT NULL DEFAULT 1,
    ask_phone INTEGER NOT NULL DEFAULT 1,
    max_payments INTEGER NOT NULL DEFAULT 0,
    expires_at BIGINT NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE payment_link_holds (
    order_key TEXT PRIMARY KEY,
    link_id TEXT NOT NULL REFERENCES payment_links (id),
    until BIGINT NOT NULL
);

CREATE TABLE export_jobs (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    format TEXT NOT NULL,
    query TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'ready', 'failed')),
    total INTEGER NOT NULL,
    rows_written INTEGER NOT NULL DEFAULT 0,
    size INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE export_chunks (
    job_id TEXT NOT NULL REFERENCES export_jobs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (job_id, seq)
);

CREATE TABLE order_refunds (
    end_to_end TEXT PRIMARY KEY,
    order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE
);

CREATE TABLE personal_data_key (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    created_at INTEGER NOT NULL,
    key_text TEXT NOT NULL DEFAULT ''
);

CREATE TABLE secret_key_check (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    sealed TEXT NOT NULL
);

CREATE INDEX orders_status_updated ON orders (status, updated_at);

CREATE INDEX attempts_state_expires ON attempts (state, expires_at);

CREATE INDEX carts_updated ON carts (updated_at);

CREATE INDEX webhook_events_received ON webhook_events (received_at);

CREATE INDEX orders_session ON orders (session_id) WHERE session_id <> '';

CREATE INDEX orders_merchant_reference ON orders (merchant_reference, created_at) WHERE merchant_reference <> '';

CREATE INDEX login_failures_last_at ON login_failures (last_at);

CREATE INDEX sessions_expiry_idx ON sessions (expiry);

CREATE INDEX checkout_sessions_expires_at ON checkout_sessions (expires_at);

CREATE INDEX orders_created_id ON orders (created_at, id);

CREATE INDEX orders_status_created ON orders (status, created_at, id);

CREATE INDEX orders_paid ON orders (paid_at, amount, created_at);

CREATE INDEX webhook_deliveries_status_id ON webhook_deliveries (status, id);

CREATE INDEX orders_customer_email ON orders (lower(customer_email));

CREATE INDEX dashboard_users_role ON dashboard_users (role);

CREATE INDEX audit_log_at ON audit_log (at);

CREATE INDEX audit_log_actor ON audit_log (actor, id);

CREATE INDEX audit_log_action ON audit_log (action, id);

CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);

CREATE INDEX dashboard_sessions_seen ON dashboard_sessions (seen_at);

CREATE INDEX orders_link ON orders (link_id, created_at) WHERE link_id <> '';

CREATE INDEX payment_link_holds_link ON payment_link_holds (link_id, until);

CREATE INDEX orders_amount_id ON orders (amount, id);

CREATE INDEX orders_status_amount ON orders (status, amount, id);

CREATE INDEX export_jobs_user ON export_jobs (user_id, created_at);

CREATE INDEX export_jobs_state ON export_jobs (state, updated_at);

CREATE INDEX orders_awaiting_shipment ON orders (created_at, id) WHERE status = 'paid' AND physical AND shipped_at = 0;

CREATE INDEX orders_refund_due ON orders (created_at, id) WHERE refund_due > 0;

CREATE INDEX order_refunds_order ON order_refunds (order_id);

CREATE INDEX orders_customer_document ON orders (customer_document);

CREATE INDEX orders_document_hash ON orders (customer_document_hash) WHERE customer_document_hash <> '';

CREATE INDEX orders_email_hash ON orders (customer_email_hash) WHERE customer_email_hash <> '';

CREATE INDEX checkout_sessions_document ON checkout_sessions (customer_document) WHERE customer_document <> '';

CREATE INDEX checkout_sessions_email ON checkout_sessions (lower(customer_email)) WHERE customer_email <> '';

CREATE INDEX checkout_sessions_document_hash ON checkout_sessions (customer_document_hash) WHERE customer_document_hash <> '';

CREATE INDEX checkout_sessions_email_hash ON checkout_sessions (customer_email_hash) WHERE customer_email_hash <> '';

CREATE INDEX orders_personal_data_due ON orders (updated_at)
    WHERE anonymised_at = 0 AND status IN ('paid', 'expired', 'failed', 'refunded');

CREATE TRIGGER order_search_insert AFTER INSERT ON orders BEGIN
    INSERT INTO order_search (order_id) VALUES (new.id);
    INSERT INTO order_search_text (rowid, number, external_code, merchant_reference, customer_email, customer_name, customer_document)
        VALUES ((SELECT id FROM order_search WHERE order_id = new.id), new.number, new.external_code,
            new.merchant_reference, new.customer_email, new.customer_name, new.customer_document);
END;

CREATE TRIGGER order_search_update AFTER UPDATE OF number, external_code, merchant_reference, customer_email,
    customer_name, customer_document ON orders BEGIN
    DELETE FROM order_search_text WHERE rowid = (SELECT id FROM order_search WHERE order_id = old.id);
    INSERT INTO order_search_text (rowid, number, external_code, merchant_reference, customer_email, customer_name, customer_document)
        VALUES ((SELECT id FROM order_search WHERE order_id = new.id), new.number, new.external_code,
            new.merchant_reference, new.customer_email, new.customer_name, new.customer_document);
END;

CREATE TRIGGER order_search_delete AFTER DELETE ON orders BEGIN
    DELETE FROM order_search_text WHERE rowid = (SELECT id FROM order_search WHERE order_id = old.id);
    DELETE FROM order_search WHERE order_id = old.id;
END;
