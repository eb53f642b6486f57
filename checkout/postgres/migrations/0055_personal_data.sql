-- Personal data under the LGPD. An order's personal data is anonymised once its retention is
-- over (or on the data subject's request): name, e-mail, phone, address and shopper address
-- are emptied, the document is kept masked ("***.982.247-**"), and keyed hashes (HMAC-SHA256
-- with the key below) of the document and of the e-mail let a later request about the same
-- person still find the order. anonymised_at (Unix ms; 0: not anonymised) says when.
ALTER TABLE orders ADD COLUMN customer_document_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN customer_email_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN anonymised_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE checkout_sessions ADD COLUMN customer_document_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE checkout_sessions ADD COLUMN customer_email_hash TEXT NOT NULL DEFAULT '';

-- A data subject's request finds their orders and sessions by document or e-mail, in clear
-- or hashed.
CREATE INDEX orders_customer_document ON orders (customer_document);
CREATE INDEX orders_document_hash ON orders (customer_document_hash) WHERE customer_document_hash <> '';
CREATE INDEX orders_email_hash ON orders (customer_email_hash) WHERE customer_email_hash <> '';
CREATE INDEX checkout_sessions_document ON checkout_sessions (customer_document) WHERE customer_document <> '';
CREATE INDEX checkout_sessions_email ON checkout_sessions (lower(customer_email)) WHERE customer_email <> '';
CREATE INDEX checkout_sessions_document_hash ON checkout_sessions (customer_document_hash) WHERE customer_document_hash <> '';
CREATE INDEX checkout_sessions_email_hash ON checkout_sessions (customer_email_hash) WHERE customer_email_hash <> '';

-- The retention sweep reads the orders whose personal data is due, oldest change first: only
-- orders in a final state, never anonymised.
CREATE INDEX orders_personal_data_due ON orders (updated_at)
    WHERE anonymised_at = 0 AND status IN ('paid', 'expired', 'failed', 'refunded');

-- The key of the hashes: 32 random bytes made at the first start. One row at most.
CREATE TABLE personal_data_key (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    key_bytes  BYTEA NOT NULL,
    created_at BIGINT NOT NULL
);
