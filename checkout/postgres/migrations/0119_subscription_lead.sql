-- How many days before its due date a subscription's charge is issued (0: the default, 10).
ALTER TABLE merchant_settings ADD COLUMN subscription_lead_days bigint NOT NULL DEFAULT 0;
