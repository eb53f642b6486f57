-- The charge an order collects a day's amount of (issue 35; '' for the orders of other
-- channels), and the index a charge's orders are found by.
ALTER TABLE orders ADD COLUMN charge_id TEXT NOT NULL DEFAULT '';

CREATE INDEX orders_charge ON orders (charge_id, created_at) WHERE charge_id <> '';
