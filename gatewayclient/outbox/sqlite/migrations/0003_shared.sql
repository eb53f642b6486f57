-- The outbox serves the checkout's notifications too. An attempt keeps the URL it went to (a
-- destination given when a delivery is due may change between attempts); a delivery with no
-- destination when due is skipped, finished like a delivered or dead one; and first attempts
-- are claimed apart from retries, each by an index of its own.
ALTER TABLE webhook_attempts ADD COLUMN url TEXT NOT NULL DEFAULT '';
DROP INDEX webhook_deliveries_finished;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (updated_at) WHERE status IN ('delivered', 'dead', 'skipped');
DROP INDEX webhook_deliveries_due;
CREATE INDEX webhook_deliveries_first ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending' AND attempts = 0;
CREATE INDEX webhook_deliveries_retry ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending' AND attempts > 0;
