-- Recurring charges ("assinaturas", issue 35): a subscription bills its customer on a schedule
-- (a day of the month, or every few weeks, from start_date; end_date and max_charges end it),
-- issuing each period's charge some days before its due date. next_period and next_due are
-- the period to issue next and the due date its schedule gives it ('' once nothing is left).
CREATE TABLE subscriptions (
    id text PRIMARY KEY,
    status text NOT NULL CHECK (status IN ('active', 'paused', 'canceled', 'ended')),
    customer_name text NOT NULL,
    customer_document text NOT NULL,
    customer_email text NOT NULL,
    customer_phone text NOT NULL DEFAULT '',
    description text NOT NULL,
    amount bigint NOT NULL CHECK (amount > 0),
    fine_bps bigint NOT NULL DEFAULT 0,
    interest_bps bigint NOT NULL DEFAULT 0,
    discount_bps bigint NOT NULL DEFAULT 0,
    discount_amount bigint NOT NULL DEFAULT 0,
    discount_days bigint NOT NULL DEFAULT 0,
    day_of_month bigint NOT NULL DEFAULT 0,
    every_weeks bigint NOT NULL DEFAULT 0,
    start_date text NOT NULL,
    end_date text NOT NULL DEFAULT '',
    max_charges bigint NOT NULL DEFAULT 0,
    external_code text NOT NULL DEFAULT '',
    next_period bigint NOT NULL DEFAULT 0,
    next_due text NOT NULL DEFAULT '',
    issued bigint NOT NULL DEFAULT 0,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    version bigint NOT NULL,
    idempotency_key text,
    request_hash text NOT NULL DEFAULT ''
);

CREATE INDEX subscriptions_created ON subscriptions (created_at, id);
CREATE INDEX subscriptions_status ON subscriptions (status, created_at, id);
CREATE INDEX subscriptions_next_due ON subscriptions (status, next_due);
CREATE UNIQUE INDEX subscriptions_idempotency_key ON subscriptions (idempotency_key);

-- The period a charge was issued for: its subscription and the due date the schedule gives the
-- period. One charge per period, whichever instance issues it first.
ALTER TABLE charges ADD COLUMN subscription_id text NOT NULL DEFAULT '';
ALTER TABLE charges ADD COLUMN subscription_period text NOT NULL DEFAULT '';
CREATE UNIQUE INDEX charges_subscription_period ON charges (subscription_id, subscription_period) WHERE subscription_id <> '';
