-- The orders awaiting shipment, indexed by status first, as in SQLite's store (whose planner
-- needs the equality column to choose the partial index), so both stores keep one shape.
DROP INDEX orders_awaiting_shipment;
CREATE INDEX orders_awaiting_shipment ON orders (status, created_at, id) WHERE status = 'paid' AND physical AND shipped_at = 0;
