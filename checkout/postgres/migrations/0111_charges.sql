-- Charges with due dates (issue 35): an amount billed to a named customer by a São Paulo
-- calendar day (due_date, discount_until: YYYY-MM-DD), with its fine, interest and discount
-- terms, and the timeline of its changes (one event per version).
CREATE TABLE charges (
    id text PRIMARY KEY,
    status text NOT NULL CHECK (status IN ('open', 'overdue', 'paid', 'canceled')),
    customer_name text NOT NULL,
    customer_document text NOT NULL,
    customer_email text NOT NULL,
    customer_phone text NOT NULL DEFAULT '',
    description text NOT NULL,
    amount bigint NOT NULL CHECK (amount > 0),
    due_date text NOT NULL,
    fine_bps bigint NOT NULL DEFAULT 0,
    interest_bps bigint NOT NULL DEFAULT 0,
    discount_bps bigint NOT NULL DEFAULT 0,
    discount_amount bigint NOT NULL DEFAULT 0,
    discount_until text NOT NULL DEFAULT '',
    external_code text NOT NULL DEFAULT '',
    paid bigint NOT NULL DEFAULT 0,
    paid_at bigint NOT NULL DEFAULT 0,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    version bigint NOT NULL
);

CREATE INDEX charges_created ON charges (created_at, id);
CREATE INDEX charges_status ON charges (status, created_at, id);
CREATE INDEX charges_status_due ON charges (status, due_date);

CREATE TABLE charge_events (
    charge_id text NOT NULL REFERENCES charges (id) ON DELETE CASCADE,
    version bigint NOT NULL,
    at bigint NOT NULL,
    status text NOT NULL,
    actor text NOT NULL DEFAULT '',
    detail text NOT NULL DEFAULT '',
    PRIMARY KEY (charge_id, version)
);
