-- The lists page by key, newest first (created_at, id): an index in that order finds any page,
-- however deep, and one by status in that order serves a status filter (with a date range
-- or not) without sorting the status's rows. The overview's paid figures read the index on
-- paid_at alone; it is not partial (paid_at > 0) since a planner, not seeing that a bound
-- lower bound is positive, would then read it from paid_at > 0: every paid order.

DROP INDEX orders_created;
CREATE INDEX orders_created_id ON orders (created_at, id);
CREATE INDEX orders_status_created ON orders (status, created_at, id);
DROP INDEX orders_paid_at;
CREATE INDEX orders_paid ON orders (paid_at, amount, created_at);
