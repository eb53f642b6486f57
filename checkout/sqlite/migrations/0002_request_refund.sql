-- The exact JSON of each attempt's transaction request, stored before the gateway is called so
-- that every retry sends the same body (NULL for attempts written before this migration: they
-- rebuild it), and the amount an order paid twice owes back to the shopper.

ALTER TABLE attempts ADD COLUMN request TEXT;
ALTER TABLE orders ADD COLUMN refund_due INTEGER NOT NULL DEFAULT 0;
