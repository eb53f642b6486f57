-- Which e-mails the shopper is sent (issue 33): a JSON object of message kind to on/off, set
-- by the merchant in the settings; a kind missing from it follows its default
-- (merchant.Settings.SendsShopper: every one on but "order placed").
ALTER TABLE merchant_settings ADD COLUMN shopper_mail TEXT NOT NULL DEFAULT '{}';
