-- The notifications move into the outbox shared with the sandbox (gatewayclient/outbox, whose
-- own migrations made its tables): each message, with the state of its delivery, becomes a
-- delivery to the destination the merchant's settings give when it is due (url ''), and its
-- attempts follow it.
INSERT INTO webhook_deliveries (message_id, client_id, secret, url, forward, type, record_kind, record_id, body,
    status, attempts, next_attempt_at, lease_until, last_error, last_status_code, created_at, updated_at)
SELECT id, '', '', '', FALSE, type, 'order', order_id, payload, status, attempts, next_attempt_at, 0, last_error,
    last_status_code, created_at, COALESCE((SELECT MAX(a.at) FROM outbox_attempts a WHERE a.message_id = o.id), created_at)
FROM outbox o ORDER BY seq;
INSERT INTO webhook_attempts (delivery_id, n, at, url, status_code, error, duration_ns)
SELECT d.id, a.n, a.at, a.url, a.status_code, a.error, a.duration_ms * 1000000
FROM outbox_attempts a JOIN webhook_deliveries d ON d.message_id = a.message_id AND d.url = '';
DROP TABLE outbox_attempts;
DROP TABLE outbox;
