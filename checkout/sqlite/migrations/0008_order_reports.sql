-- The overview sums the orders paid in a period: find them by their payment time.

CREATE INDEX orders_paid_at ON orders (paid_at) WHERE paid_at > 0;
