-- Catalogue, carts, orders with their lines, history and payment attempts, and webhook ids.
-- Money is BIGINT cents. Times are BIGINT Unix milliseconds (0: not set), exactly as in the
-- SQLite store, so that both stores keep the same precision and the same "unset" value.

CREATE TABLE products (
    id          TEXT PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    title       TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    unit_price  BIGINT NOT NULL CHECK (unit_price > 0),
    physical    BOOLEAN NOT NULL DEFAULT FALSE,
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE carts (
    id         TEXT PRIMARY KEY,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE cart_lines (
    cart_id    TEXT NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    product_id TEXT NOT NULL REFERENCES products (id),
    position   INTEGER NOT NULL,
    quantity   INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 100),
    PRIMARY KEY (cart_id, product_id)
);

CREATE TABLE orders (
    id                TEXT PRIMARY KEY,
    number            TEXT NOT NULL UNIQUE,
    external_code     TEXT NOT NULL UNIQUE,
    request_key       TEXT NOT NULL UNIQUE,
    status            TEXT NOT NULL,
    amount            BIGINT NOT NULL CHECK (amount > 0),
    customer_name     TEXT NOT NULL,
    customer_document TEXT NOT NULL,
    customer_email    TEXT NOT NULL DEFAULT '',
    customer_phone    TEXT NOT NULL DEFAULT '',
    has_address       BOOLEAN NOT NULL DEFAULT FALSE,
    zip_code          TEXT NOT NULL DEFAULT '',
    street            TEXT NOT NULL DEFAULT '',
    street_number     TEXT NOT NULL DEFAULT '',
    complement        TEXT NOT NULL DEFAULT '',
    neighborhood      TEXT NOT NULL DEFAULT '',
    city              TEXT NOT NULL DEFAULT '',
    state             TEXT NOT NULL DEFAULT '',
    country           TEXT NOT NULL DEFAULT '',
    physical          BOOLEAN NOT NULL DEFAULT FALSE,
    late_payment      BOOLEAN NOT NULL DEFAULT FALSE,
    lang              TEXT NOT NULL DEFAULT '',
    shopper_ip        TEXT NOT NULL DEFAULT '',
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    paid_at           BIGINT NOT NULL DEFAULT 0,
    version           BIGINT NOT NULL DEFAULT 1
);

CREATE INDEX orders_status_updated ON orders (status, updated_at);
CREATE INDEX orders_created ON orders (created_at DESC, id DESC);

CREATE TABLE order_lines (
    order_id   TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    product_id TEXT NOT NULL,
    title      TEXT NOT NULL,
    unit_price BIGINT NOT NULL CHECK (unit_price > 0),
    quantity   INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 100),
    physical   BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (order_id, position)
);

CREATE TABLE order_history (
    order_id    TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    at          BIGINT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (order_id, position)
);

CREATE TABLE attempts (
    id              TEXT PRIMARY KEY,
    order_id        TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    n               INTEGER NOT NULL,
    idempotency_key TEXT NOT NULL UNIQUE,
    state           TEXT NOT NULL,
    transaction_id  TEXT UNIQUE, -- NULL until the gateway answers
    br_code         TEXT NOT NULL DEFAULT '',
    qr_png          BYTEA,
    expires_at      BIGINT NOT NULL DEFAULT 0,
    deposit_status  TEXT NOT NULL DEFAULT '',
    error           TEXT NOT NULL DEFAULT '',
    violations      JSONB, -- the gateway's violations; NULL when there are none
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    UNIQUE (order_id, n)
);

CREATE INDEX attempts_state_expires ON attempts (state, expires_at);

CREATE TABLE webhook_events (
    id          TEXT PRIMARY KEY,
    received_at BIGINT NOT NULL
);
