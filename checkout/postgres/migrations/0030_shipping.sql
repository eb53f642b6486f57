-- Shipping for physical goods: the merchant's settings (a flat rate, free above an amount of
-- items, a delivery estimate in business days), and what each order and checkout session pays
-- for it (included in its amount) with the estimate the shopper was given.
ALTER TABLE merchant_settings ADD COLUMN shipping_flat_rate BIGINT NOT NULL DEFAULT 0;
ALTER TABLE merchant_settings ADD COLUMN shipping_free_above BIGINT NOT NULL DEFAULT 0;
ALTER TABLE merchant_settings ADD COLUMN shipping_delivery_days INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN shipping BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN delivery_days INTEGER NOT NULL DEFAULT 0;
ALTER TABLE checkout_sessions ADD COLUMN shipping BIGINT NOT NULL DEFAULT 0;
ALTER TABLE checkout_sessions ADD COLUMN delivery_days INTEGER NOT NULL DEFAULT 0;
