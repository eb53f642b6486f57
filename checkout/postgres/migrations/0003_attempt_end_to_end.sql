-- The end-to-end id of the PIX transfer that paid an attempt (the deposit's endToEnd), shown on
-- the shopper's receipt and to the merchant; empty until paid.

ALTER TABLE attempts ADD COLUMN end_to_end TEXT NOT NULL DEFAULT '';
