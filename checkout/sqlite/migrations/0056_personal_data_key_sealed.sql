-- The key of the personal data's hashes is a secret kept in the database like the notification
-- secrets: it is sealed with the secret key kept outside the database (sqlstore/sealed.go), so
-- that a dump alone cannot tie a hash to a CPF. Sealed values are text: the key moves to a text
-- column (hexadecimal until the first start seals it) and the clear bytes go.
ALTER TABLE personal_data_key ADD COLUMN key_text TEXT NOT NULL DEFAULT '';
UPDATE personal_data_key SET key_text = lower(hex(key_bytes));
ALTER TABLE personal_data_key DROP COLUMN key_bytes;
