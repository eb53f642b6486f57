-- An order knows its channel, the way it was started: the shop's cart, a checkout session of
-- the merchant API, a payment link, a charge or the point of sale (checkout.Channels). Orders
-- placed before record it through their session or link.

ALTER TABLE orders ADD COLUMN channel TEXT NOT NULL DEFAULT 'shop'
    CHECK (channel IN ('shop', 'session', 'link', 'charge', 'pos'));
UPDATE orders SET channel = 'session' WHERE session_id <> '';
UPDATE orders SET channel = 'link' WHERE link_id <> '';
