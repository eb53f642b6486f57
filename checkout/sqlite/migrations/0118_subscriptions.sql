-- Recurring charges ("assinaturas", issue 35): a subscription bills its customer on a schedule
-- (a day of the month, or every few weeks, from start_date; end_date and max_charges end it),
-- issuing each period's charge some days before its due date. next_period and next_due are
-- the period to issue next and the due date its schedule gives it ('' once nothing is left).
CREATE TABLE subscriptions (
    id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('active', 'paused', 'canceled', 'ended')),
    customer_name TEXT NOT NULL,
    customer_document TEXT NOT NULL,
    customer_email TEXT NOT NULL,
    customer_phone TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL,
    amount INTEGER NOT NULL CHECK (amount > 0),
    fine_bps INTEGER NOT NULL DEFAULT 0,
    interest_bps INTEGER NOT NULL DEFAULT 0,
    discount_bps INTEGER NOT NULL DEFAULT 0,
    discount_amount INTEGER NOT NULL DEFAULT 0,
    discount_days INTEGER NOT NULL DEFAULT 0,
    day_of_month INTEGER NOT NULL DEFAULT 0,
    every_weeks INTEGER NOT NULL DEFAULT 0,
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL DEFAULT '',
    max_charges INTEGER NOT NULL DEFAULT 0,
    external_code TEXT NOT NULL DEFAULT '',
    next_period INTEGER NOT NULL DEFAULT 0,
    next_due TEXT NOT NULL DEFAULT '',
    issued INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    version INTEGER NOT NULL,
    idempotency_key TEXT,
    request_hash TEXT NOT NULL DEFAULT ''
);

CREATE INDEX subscriptions_created ON subscriptions (created_at, id);
CREATE INDEX subscriptions_status ON subscriptions (status, created_at, id);
CREATE INDEX subscriptions_next_due ON subscriptions (status, next_due);
CREATE UNIQUE INDEX subscriptions_idempotency_key ON subscriptions (idempotency_key);

-- The period a charge was issued for: its subscription and the due date the schedule gives the
-- period. One charge per period, whichever instance issues it first.
ALTER TABLE charges ADD COLUMN subscription_id TEXT NOT NULL DEFAULT '';
ALTER TABLE charges ADD COLUMN subscription_period TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX charges_subscription_period ON charges (subscription_id, subscription_period) WHERE subscription_id <> '';
