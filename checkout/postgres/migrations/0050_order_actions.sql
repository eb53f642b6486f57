-- The merchant's actions on an order (checkout/fulfilment.go): how its goods travel (carrier,
-- tracking code), when they left and when they arrived (Unix milliseconds, 0 until then). The
-- rest of each action (cancel, notes, refunds recorded) is an entry of the order's history.
-- Two partial indexes serve what needs the merchant's attention, newest first: the orders
-- awaiting shipment (paid, physical, not shipped) and those with a refund due; both are few.
ALTER TABLE orders ADD COLUMN carrier TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN tracking_code TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN shipped_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN delivered_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX orders_awaiting_shipment ON orders (created_at, id) WHERE status = 'paid' AND physical AND shipped_at = 0;
CREATE INDEX orders_refund_due ON orders (created_at, id) WHERE refund_due > 0;
