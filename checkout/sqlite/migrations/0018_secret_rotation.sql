-- A rotated notification secret keeps signing, beside the new one, until previous_until (Unix
-- ms): a merchant's server still on the old secret accepts every notification meanwhile.

ALTER TABLE merchant_settings ADD COLUMN previous_secret TEXT NOT NULL DEFAULT '';
ALTER TABLE merchant_settings ADD COLUMN previous_until BIGINT NOT NULL DEFAULT 0;
