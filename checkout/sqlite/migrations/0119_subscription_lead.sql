-- How many days before its due date a subscription's charge is issued (0: the default, 10).
ALTER TABLE merchant_settings ADD COLUMN subscription_lead_days INTEGER NOT NULL DEFAULT 0;

-- A subscription's customer is personal data as a charge's (0113): kept until it is canceled or
-- ended and past the retention of personal data, or until the data subject asks; then
-- anonymised (the document masked and as a keyed hash, the e-mail as a keyed hash, so that a
-- later request still finds it). The document is kept as its characters, as charges keep it.
ALTER TABLE subscriptions ADD COLUMN customer_document_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE subscriptions ADD COLUMN customer_email_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE subscriptions ADD COLUMN anonymised_at INTEGER NOT NULL DEFAULT 0;

UPDATE subscriptions SET customer_document = upper(replace(replace(replace(replace(customer_document, '.', ''), '-', ''), '/', ''), ' ', ''));

CREATE INDEX subscriptions_customer_document ON subscriptions (customer_document);
CREATE INDEX subscriptions_customer_email ON subscriptions (lower(customer_email));
CREATE INDEX subscriptions_document_hash ON subscriptions (customer_document_hash) WHERE customer_document_hash <> '';
CREATE INDEX subscriptions_email_hash ON subscriptions (customer_email_hash) WHERE customer_email_hash <> '';
CREATE INDEX subscriptions_personal_data_due ON subscriptions (updated_at) WHERE anonymised_at = 0 AND status IN ('canceled', 'ended');
