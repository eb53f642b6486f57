-- Merchant notifications carry the shopper's personal data (name, document, e-mail, phones,
-- address) only when the merchant enables it in the settings: off for a new install. An install
-- that has settings or orders already sent them: it keeps them on.

ALTER TABLE merchant_settings ADD COLUMN notify_personal_data BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE merchant_settings SET notify_personal_data = TRUE;
INSERT INTO merchant_settings (id, updated_at, notify_personal_data)
SELECT 1, 0, TRUE WHERE EXISTS (SELECT 1 FROM orders) AND NOT EXISTS (SELECT 1 FROM merchant_settings);
