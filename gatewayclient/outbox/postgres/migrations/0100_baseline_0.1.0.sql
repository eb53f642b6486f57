-- The schema of release 0.1.0: the webhook outbox on PostgreSQL. This baseline makes, on an empty
-- database, what the development chain it replaced made (0001 to 0002_excerpt.sql),
-- and was made from that chain's own schema (SQLite's sqlite_schema; pg_dump on PostgreSQL).
-- TestReleaseSchemas compares what it makes with the chain's dump, testdata/schema-0.1.0.* of
-- checkout/sqlite, checkout/postgres and gatewayclient/sandbox. Later schema changes are new
-- migrations numbered after this one (0101, 0102, ...): this file never changes.

CREATE TABLE webhook_attempts (
    delivery_id bigint NOT NULL,
    n integer NOT NULL,
    at bigint NOT NULL,
    status_code integer NOT NULL,
    error text NOT NULL,
    duration_ns bigint NOT NULL,
    url text DEFAULT ''::text NOT NULL,
    excerpt text DEFAULT ''::text NOT NULL
);

CREATE TABLE webhook_deliveries (
    id bigint NOT NULL,
    message_id text NOT NULL,
    client_id text NOT NULL,
    secret text NOT NULL,
    url text NOT NULL,
    forward boolean NOT NULL,
    type text NOT NULL,
    record_kind text NOT NULL,
    record_id text NOT NULL,
    body text NOT NULL,
    status text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at bigint NOT NULL,
    lease_until bigint DEFAULT 0 NOT NULL,
    last_error text DEFAULT ''::text NOT NULL,
    last_status_code integer DEFAULT 0 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

ALTER TABLE webhook_deliveries ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME webhook_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

ALTER TABLE ONLY webhook_attempts
    ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (delivery_id, n);

ALTER TABLE ONLY webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_message_id_url_key UNIQUE (message_id, url);

ALTER TABLE ONLY webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id);

CREATE INDEX webhook_deliveries_finished ON webhook_deliveries USING btree (updated_at) WHERE (status = ANY (ARRAY['delivered'::text, 'dead'::text, 'skipped'::text]));

CREATE INDEX webhook_deliveries_first ON webhook_deliveries USING btree (next_attempt_at, id) WHERE ((status = 'pending'::text) AND (attempts = 0));

CREATE INDEX webhook_deliveries_record ON webhook_deliveries USING btree (record_id, id);

CREATE INDEX webhook_deliveries_retry ON webhook_deliveries USING btree (next_attempt_at, id) WHERE ((status = 'pending'::text) AND (attempts > 0));

ALTER TABLE ONLY webhook_attempts
    ADD CONSTRAINT webhook_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES webhook_deliveries(id) ON DELETE CASCADE;
