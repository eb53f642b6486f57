-- A charge's timeline says why each event happened (reason: created, partially_paid, paid,
-- overdue, canceled, refund_due), and the event of an order's payment names that order
-- (order_id; NULL for the other events) with what the payment counted towards the charge (paid)
-- and what the charge could not take, a refund due from the order (refund). The unique index
-- keeps one event per charge and order: the store counts an order's payment once, whoever
-- applies it and however often. The payments' events of earlier versions said their amount and
-- order number in detail's text ("payment 1234, order 000123"), read here into the columns.
ALTER TABLE charge_events ADD COLUMN reason TEXT NOT NULL DEFAULT '';
ALTER TABLE charge_events ADD COLUMN order_id TEXT;
ALTER TABLE charge_events ADD COLUMN paid INTEGER NOT NULL DEFAULT 0;
ALTER TABLE charge_events ADD COLUMN refund INTEGER NOT NULL DEFAULT 0;

UPDATE charge_events SET
    reason = CASE
        WHEN version = 1 THEN 'created'
        WHEN status = 'paid' THEN 'paid'
        WHEN detail LIKE 'payment %' THEN 'partially_paid'
        ELSE status
    END,
    paid = CASE WHEN detail LIKE 'payment %' THEN CAST(substr(detail, 9) AS INTEGER) ELSE 0 END,
    order_id = (SELECT o.id FROM orders o WHERE o.charge_id = charge_events.charge_id
        AND o.number = substr(charge_events.detail, instr(charge_events.detail, ', order ') + 8)
        AND instr(charge_events.detail, ', order ') > 0);

ALTER TABLE charge_events DROP COLUMN detail;

CREATE UNIQUE INDEX charge_events_order ON charge_events (charge_id, order_id) WHERE order_id IS NOT NULL;
