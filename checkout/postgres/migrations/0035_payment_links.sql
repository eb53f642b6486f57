-- Payment links: a stored, reusable checkout recipe with a short public URL (/l/{slug}).
-- Its lines (catalogue products or one fixed-amount line) are kept as JSON in its row, as a
-- checkout session's; a link whose amount the payer types has none, and its bounds instead.

CREATE TABLE payment_links (
    id               TEXT PRIMARY KEY,
    slug             TEXT NOT NULL UNIQUE,
    idempotency_key  TEXT UNIQUE, -- NULL when the request had none
    request_hash     TEXT NOT NULL DEFAULT '',
    title            TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    kind             TEXT NOT NULL, -- items, fixed, custom
    lines            TEXT NOT NULL DEFAULT '', -- JSON array; '' for a typed amount
    amount           BIGINT NOT NULL DEFAULT 0, -- the total of the lines; 0 for a typed amount
    min_amount       BIGINT NOT NULL DEFAULT 0,
    max_amount       BIGINT NOT NULL DEFAULT 0,
    require_address  BOOLEAN NOT NULL DEFAULT FALSE,
    ask_email        BOOLEAN NOT NULL DEFAULT TRUE, -- the form asks the payer's e-mail
    ask_phone        BOOLEAN NOT NULL DEFAULT TRUE, -- and mobile phone
    max_payments     INTEGER NOT NULL DEFAULT 0, -- 0: no maximum
    expires_at       BIGINT NOT NULL DEFAULT 0, -- 0: never
    active           BOOLEAN NOT NULL DEFAULT TRUE,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);

-- An order paid through a link carries it.
ALTER TABLE orders ADD COLUMN link_id TEXT NOT NULL DEFAULT '';
CREATE INDEX orders_link ON orders (link_id, created_at) WHERE link_id <> '';

-- A place held on a link with a maximum number of payments: taken when a PIX code is made for
-- the order, it counts until it is over (until), or the order fails or is paid. One per order,
-- by its request key (a resubmission of the same form, whose order is stored already, finds
-- its own place): a new QR code renews it.
CREATE TABLE payment_link_holds (
    order_key TEXT PRIMARY KEY, -- orders.request_key

    link_id   TEXT NOT NULL REFERENCES payment_links (id),
    until     BIGINT NOT NULL
);
CREATE INDEX payment_link_holds_link ON payment_link_holds (link_id, until);
