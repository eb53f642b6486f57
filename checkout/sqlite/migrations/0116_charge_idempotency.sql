-- The Idempotency-Key a charge was made with through the merchant API (NULL: none) and the
-- digest of its request, so that a retried POST /api/v1/charges answers the same charge.
ALTER TABLE charges ADD COLUMN idempotency_key TEXT;
ALTER TABLE charges ADD COLUMN request_hash TEXT NOT NULL DEFAULT '';

CREATE UNIQUE INDEX charges_idempotency_key ON charges (idempotency_key);
