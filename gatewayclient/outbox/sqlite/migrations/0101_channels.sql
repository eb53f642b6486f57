-- The outbox carries more than webhooks (issue 33): each message has a channel ('webhook', or
-- 'smtp' for e-mail, sent by that channel's own workers) and, on a channel that has one, a
-- recipient, searched by the e-mail log and by data-subject requests. The lanes' indexes lead
-- with the channel, so that each channel's workers claim from their own part of them, and the
-- finished deliveries' index too, since each channel keeps its own retention.

ALTER TABLE webhook_deliveries ADD COLUMN channel TEXT NOT NULL DEFAULT 'webhook';
ALTER TABLE webhook_deliveries ADD COLUMN recipient TEXT NOT NULL DEFAULT '';

DROP INDEX webhook_deliveries_first;
DROP INDEX webhook_deliveries_retry;
DROP INDEX webhook_deliveries_finished;

CREATE INDEX webhook_deliveries_first ON webhook_deliveries (channel, next_attempt_at, id) WHERE status = 'pending' AND attempts = 0;
CREATE INDEX webhook_deliveries_retry ON webhook_deliveries (channel, next_attempt_at, id) WHERE status = 'pending' AND attempts > 0;
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (channel, updated_at) WHERE status IN ('delivered', 'dead', 'skipped');
CREATE INDEX webhook_deliveries_recipient ON webhook_deliveries (recipient, id) WHERE recipient <> '';
