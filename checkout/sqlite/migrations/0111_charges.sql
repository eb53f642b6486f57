-- Charges with due dates (issue 35): an amount billed to a named customer by a São Paulo
-- calendar day (due_date, discount_until: YYYY-MM-DD), with its fine, interest and discount
-- terms, and the timeline of its changes (one event per version).
CREATE TABLE charges (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('open', 'overdue', 'paid', 'canceled')),
    customer_name TEXT NOT NULL,
    customer_document TEXT NOT NULL,
    customer_email TEXT NOT NULL,
    customer_phone TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    due_date TEXT NOT NULL,
    fine_bps INTEGER NOT NULL DEFAULT 0,
    interest_bps INTEGER NOT NULL DEFAULT 0,
    discount_bps INTEGER NOT NULL DEFAULT 0,
    discount_amount INTEGER NOT NULL DEFAULT 0,
    discount_until TEXT NOT NULL DEFAULT '',
    external_code TEXT NOT NULL DEFAULT '',
    paid INTEGER NOT NULL DEFAULT 0,
    paid_at INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL
);

CREATE INDEX charges_created ON charges (created_at, id);
CREATE INDEX charges_status ON charges (status, created_at, id);
CREATE INDEX charges_status_due ON charges (status, due_date);

CREATE TABLE charge_events (
    charge_id TEXT NOT NULL REFERENCES charges (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    at INTEGER NOT NULL,
    status TEXT NOT NULL,
    actor TEXT NOT NULL DEFAULT '',
    detail TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (charge_id, version)
);
