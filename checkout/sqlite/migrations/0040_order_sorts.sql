-- The merchant's order list sorts by amount too (either way), paged by key (amount, id): an
-- index in that order finds any page, however deep, and one by status in that order serves a
-- status filter without sorting the status's rows. Oldest first reads orders_created_id and
-- orders_status_created backwards.

CREATE INDEX orders_amount_id ON orders (amount, id);
CREATE INDEX orders_status_amount ON orders (status, amount, id);
