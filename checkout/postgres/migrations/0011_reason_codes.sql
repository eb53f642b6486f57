-- Why an order's state changed, and why a payment attempt failed, are stored as a code and its
-- parameters (a JSON object, '' when none), rendered in the reader's language; the old text
-- column keeps only what no code can hold (the gateway's own message, or a note). The step of
-- this migration (sqlstore.CodeReasons) turns the English text stored before into codes.
ALTER TABLE order_history ADD COLUMN reason_code TEXT NOT NULL DEFAULT '';
ALTER TABLE order_history ADD COLUMN reason_params TEXT NOT NULL DEFAULT '';
ALTER TABLE attempts ADD COLUMN error_code TEXT NOT NULL DEFAULT '';
ALTER TABLE attempts ADD COLUMN error_params TEXT NOT NULL DEFAULT '';
