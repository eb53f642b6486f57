-- The schema of release 0.1.0: the checkout's PostgreSQL store. This baseline makes, on an empty
-- database, what the development chain it replaced made (0001 to 0066_api_key_personal_data.sql),
-- and was made from that chain's own schema (SQLite's sqlite_schema; pg_dump on PostgreSQL).
-- TestReleaseSchemas compares what it makes with the chain's dump, testdata/schema-0.1.0.* of
-- checkout/sqlite, checkout/postgres and gatewayclient/sandbox. Later schema changes are new
-- migrations numbered after this one (0101, 0102, ...): this file never changes.

-- Order search: pg_trgm ships with PostgreSQL and is a trusted extension (13+); an extension is
-- once per database, in public whatever the store's search_path.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE FUNCTION checkout_order_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('checkout_orders', NEW.id || ':' || NEW.version);
    RETURN NULL;
END;
$$;

CREATE TABLE api_keys (
    id text NOT NULL,
    name text NOT NULL,
    hint text NOT NULL,
    hash bytea NOT NULL,
    created_at bigint NOT NULL,
    last_used_at bigint DEFAULT 0 NOT NULL,
    revoked_at bigint DEFAULT 0 NOT NULL,
    scope text DEFAULT 'write'::text NOT NULL,
    created_by text DEFAULT ''::text NOT NULL,
    last_used_address text DEFAULT ''::text NOT NULL,
    personal_data boolean DEFAULT false NOT NULL,
    CONSTRAINT api_keys_scope_check CHECK ((scope = ANY (ARRAY['read'::text, 'write'::text])))
);

CREATE TABLE attempts (
    id text NOT NULL,
    order_id text NOT NULL,
    n integer NOT NULL,
    idempotency_key text NOT NULL,
    state text NOT NULL,
    transaction_id text,
    br_code text DEFAULT ''::text NOT NULL,
    qr_png bytea,
    expires_at bigint DEFAULT 0 NOT NULL,
    deposit_status text DEFAULT ''::text NOT NULL,
    error text DEFAULT ''::text NOT NULL,
    violations jsonb,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    request text,
    end_to_end text DEFAULT ''::text NOT NULL,
    error_code text DEFAULT ''::text NOT NULL,
    error_params text DEFAULT ''::text NOT NULL
);

CREATE TABLE audit_log (
    id bigint NOT NULL,
    at bigint NOT NULL,
    actor text NOT NULL,
    action text NOT NULL,
    object text NOT NULL,
    address text NOT NULL,
    detail text NOT NULL
);

ALTER TABLE audit_log ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME audit_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE cart_lines (
    cart_id text NOT NULL,
    product_id text NOT NULL,
    "position" integer NOT NULL,
    quantity integer NOT NULL,
    CONSTRAINT cart_lines_quantity_check CHECK (((quantity >= 1) AND (quantity <= 100)))
);

CREATE TABLE carts (
    id text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE checkout_sessions (
    id text NOT NULL,
    idempotency_key text,
    request_hash text NOT NULL,
    external_code text DEFAULT ''::text NOT NULL,
    embed_origin text DEFAULT ''::text NOT NULL,
    success_url text DEFAULT ''::text NOT NULL,
    cancel_url text DEFAULT ''::text NOT NULL,
    amount bigint NOT NULL,
    lines text NOT NULL,
    customer_name text DEFAULT ''::text NOT NULL,
    customer_document text DEFAULT ''::text NOT NULL,
    customer_email text DEFAULT ''::text NOT NULL,
    customer_phone text DEFAULT ''::text NOT NULL,
    has_address boolean DEFAULT false NOT NULL,
    zip_code text DEFAULT ''::text NOT NULL,
    street text DEFAULT ''::text NOT NULL,
    street_number text DEFAULT ''::text NOT NULL,
    complement text DEFAULT ''::text NOT NULL,
    neighborhood text DEFAULT ''::text NOT NULL,
    city text DEFAULT ''::text NOT NULL,
    state text DEFAULT ''::text NOT NULL,
    country text DEFAULT ''::text NOT NULL,
    metadata text DEFAULT ''::text NOT NULL,
    api_key_id text DEFAULT ''::text NOT NULL,
    expires_at bigint NOT NULL,
    created_at bigint NOT NULL,
    shipping bigint DEFAULT 0 NOT NULL,
    delivery_days integer DEFAULT 0 NOT NULL,
    customer_document_hash text DEFAULT ''::text NOT NULL,
    customer_email_hash text DEFAULT ''::text NOT NULL,
    CONSTRAINT checkout_sessions_amount_check CHECK ((amount > 0))
);

CREATE TABLE dashboard_invitations (
    id text NOT NULL,
    token_hash text NOT NULL,
    email text NOT NULL,
    role text NOT NULL,
    invited_by text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint DEFAULT 0 NOT NULL,
    CONSTRAINT dashboard_invitations_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'developer'::text, 'operator'::text, 'viewer'::text])))
);

CREATE TABLE dashboard_sessions (
    id text NOT NULL,
    user_id text NOT NULL,
    created_at bigint NOT NULL,
    seen_at bigint NOT NULL,
    address text NOT NULL,
    user_agent text NOT NULL
);

CREATE TABLE dashboard_users (
    id text NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    role text NOT NULL,
    last_sign_in_at bigint DEFAULT 0 NOT NULL,
    totp_secret text DEFAULT ''::text NOT NULL,
    totp_enabled_at bigint DEFAULT 0 NOT NULL,
    totp_last_step bigint DEFAULT 0 NOT NULL,
    CONSTRAINT dashboard_users_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'developer'::text, 'operator'::text, 'viewer'::text])))
);

CREATE TABLE export_chunks (
    job_id text NOT NULL,
    seq integer NOT NULL,
    data bytea NOT NULL
);

CREATE TABLE export_jobs (
    id text NOT NULL,
    user_id text NOT NULL,
    kind text NOT NULL,
    format text NOT NULL,
    query text NOT NULL,
    state text NOT NULL,
    total bigint NOT NULL,
    rows_written bigint DEFAULT 0 NOT NULL,
    size bigint DEFAULT 0 NOT NULL,
    error text DEFAULT ''::text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    finished_at bigint DEFAULT 0 NOT NULL,
    CONSTRAINT export_jobs_state_check CHECK ((state = ANY (ARRAY['running'::text, 'ready'::text, 'failed'::text])))
);

CREATE TABLE login_failures (
    throttle_key text NOT NULL,
    failures integer NOT NULL,
    last_at bigint NOT NULL,
    CONSTRAINT login_failures_failures_check CHECK ((failures > 0))
);

CREATE TABLE merchant_settings (
    id integer NOT NULL,
    webhook_url text DEFAULT ''::text NOT NULL,
    webhook_secret text DEFAULT ''::text NOT NULL,
    frame_origins text DEFAULT '[]'::text NOT NULL,
    updated_at bigint NOT NULL,
    previous_secret text DEFAULT ''::text NOT NULL,
    previous_until bigint DEFAULT 0 NOT NULL,
    shipping_flat_rate bigint DEFAULT 0 NOT NULL,
    shipping_free_above bigint DEFAULT 0 NOT NULL,
    shipping_delivery_days integer DEFAULT 0 NOT NULL,
    notify_personal_data boolean DEFAULT false NOT NULL,
    CONSTRAINT merchant_settings_id_check CHECK ((id = 1))
);

CREATE TABLE order_history (
    order_id text NOT NULL,
    "position" integer NOT NULL,
    from_status text NOT NULL,
    to_status text NOT NULL,
    at bigint NOT NULL,
    reason text DEFAULT ''::text NOT NULL,
    reason_code text DEFAULT ''::text NOT NULL,
    reason_params text DEFAULT ''::text NOT NULL
);

CREATE TABLE order_lines (
    order_id text NOT NULL,
    "position" integer NOT NULL,
    product_id text NOT NULL,
    title text NOT NULL,
    unit_price bigint NOT NULL,
    quantity integer NOT NULL,
    physical boolean DEFAULT false NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    CONSTRAINT order_lines_quantity_check CHECK (((quantity >= 1) AND (quantity <= 100))),
    CONSTRAINT order_lines_unit_price_check CHECK ((unit_price > 0))
);

CREATE TABLE order_refunds (
    end_to_end text NOT NULL,
    order_id text NOT NULL
);

CREATE TABLE orders (
    id text NOT NULL,
    number text NOT NULL,
    external_code text NOT NULL,
    request_key text NOT NULL,
    status text NOT NULL,
    amount bigint NOT NULL,
    customer_name text NOT NULL,
    customer_document text NOT NULL,
    customer_email text DEFAULT ''::text NOT NULL,
    customer_phone text DEFAULT ''::text NOT NULL,
    has_address boolean DEFAULT false NOT NULL,
    zip_code text DEFAULT ''::text NOT NULL,
    street text DEFAULT ''::text NOT NULL,
    street_number text DEFAULT ''::text NOT NULL,
    complement text DEFAULT ''::text NOT NULL,
    neighborhood text DEFAULT ''::text NOT NULL,
    city text DEFAULT ''::text NOT NULL,
    state text DEFAULT ''::text NOT NULL,
    country text DEFAULT ''::text NOT NULL,
    physical boolean DEFAULT false NOT NULL,
    late_payment boolean DEFAULT false NOT NULL,
    lang text DEFAULT ''::text NOT NULL,
    shopper_ip text DEFAULT ''::text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    paid_at bigint DEFAULT 0 NOT NULL,
    version bigint DEFAULT 1 NOT NULL,
    refund_due bigint DEFAULT 0 NOT NULL,
    session_id text DEFAULT ''::text NOT NULL,
    merchant_reference text DEFAULT ''::text NOT NULL,
    pay_by bigint DEFAULT 0 NOT NULL,
    shipping bigint DEFAULT 0 NOT NULL,
    delivery_days integer DEFAULT 0 NOT NULL,
    link_id text DEFAULT ''::text NOT NULL,
    carrier text DEFAULT ''::text NOT NULL,
    tracking_code text DEFAULT ''::text NOT NULL,
    shipped_at bigint DEFAULT 0 NOT NULL,
    delivered_at bigint DEFAULT 0 NOT NULL,
    customer_document_hash text DEFAULT ''::text NOT NULL,
    customer_email_hash text DEFAULT ''::text NOT NULL,
    anonymised_at bigint DEFAULT 0 NOT NULL,
    channel text DEFAULT 'shop'::text NOT NULL,
    CONSTRAINT orders_amount_check CHECK ((amount > 0)),
    CONSTRAINT orders_channel_check CHECK ((channel = ANY (ARRAY['shop'::text, 'session'::text, 'link'::text, 'charge'::text, 'pos'::text])))
);

CREATE TABLE payment_link_holds (
    order_key text NOT NULL,
    link_id text NOT NULL,
    until bigint NOT NULL
);

CREATE TABLE payment_links (
    id text NOT NULL,
    slug text NOT NULL,
    idempotency_key text,
    request_hash text DEFAULT ''::text NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    kind text NOT NULL,
    lines text DEFAULT ''::text NOT NULL,
    amount bigint DEFAULT 0 NOT NULL,
    min_amount bigint DEFAULT 0 NOT NULL,
    max_amount bigint DEFAULT 0 NOT NULL,
    require_address boolean DEFAULT false NOT NULL,
    ask_email boolean DEFAULT true NOT NULL,
    ask_phone boolean DEFAULT true NOT NULL,
    max_payments integer DEFAULT 0 NOT NULL,
    expires_at bigint DEFAULT 0 NOT NULL,
    active boolean DEFAULT true NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

CREATE TABLE personal_data_key (
    id integer NOT NULL,
    created_at bigint NOT NULL,
    key_text text DEFAULT ''::text NOT NULL,
    CONSTRAINT personal_data_key_id_check CHECK ((id = 1))
);

CREATE TABLE product_images (
    image_key text NOT NULL,
    size text NOT NULL,
    content_type text NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    data bytea NOT NULL,
    created_at bigint NOT NULL,
    CONSTRAINT product_images_size_check CHECK ((size = ANY (ARRAY['s'::text, 'l'::text])))
);

CREATE TABLE products (
    id text NOT NULL,
    slug text NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    unit_price bigint NOT NULL,
    physical boolean DEFAULT false NOT NULL,
    active boolean DEFAULT true NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    image_key text DEFAULT ''::text NOT NULL,
    image_type text DEFAULT ''::text NOT NULL,
    image_width integer DEFAULT 0 NOT NULL,
    image_height integer DEFAULT 0 NOT NULL,
    CONSTRAINT products_unit_price_check CHECK ((unit_price > 0))
);

CREATE TABLE secret_key_check (
    id integer NOT NULL,
    sealed text NOT NULL,
    CONSTRAINT secret_key_check_id_check CHECK ((id = 1))
);

CREATE TABLE sessions (
    token text NOT NULL,
    data bytea NOT NULL,
    expiry timestamp with time zone NOT NULL
);

CREATE TABLE team_settings (
    id integer NOT NULL,
    require_totp boolean DEFAULT false NOT NULL,
    CONSTRAINT team_settings_id_check CHECK ((id = 1))
);

CREATE TABLE totp_recovery_codes (
    user_id text NOT NULL,
    hash bytea NOT NULL,
    used_at bigint DEFAULT 0 NOT NULL
);

CREATE TABLE webhook_events (
    id text NOT NULL,
    received_at bigint NOT NULL
);

ALTER TABLE ONLY api_keys
    ADD CONSTRAINT api_keys_hash_key UNIQUE (hash);

ALTER TABLE ONLY api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

ALTER TABLE ONLY attempts
    ADD CONSTRAINT attempts_idempotency_key_key UNIQUE (idempotency_key);

ALTER TABLE ONLY attempts
    ADD CONSTRAINT attempts_order_id_n_key UNIQUE (order_id, n);

ALTER TABLE ONLY attempts
    ADD CONSTRAINT attempts_pkey PRIMARY KEY (id);

ALTER TABLE ONLY attempts
    ADD CONSTRAINT attempts_transaction_id_key UNIQUE (transaction_id);

ALTER TABLE ONLY audit_log
    ADD CONSTRAINT audit_log_pkey PRIMARY KEY (id);

ALTER TABLE ONLY cart_lines
    ADD CONSTRAINT cart_lines_pkey PRIMARY KEY (cart_id, product_id);

ALTER TABLE ONLY carts
    ADD CONSTRAINT carts_pkey PRIMARY KEY (id);

ALTER TABLE ONLY checkout_sessions
    ADD CONSTRAINT checkout_sessions_idempotency_key_key UNIQUE (idempotency_key);

ALTER TABLE ONLY checkout_sessions
    ADD CONSTRAINT checkout_sessions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY dashboard_invitations
    ADD CONSTRAINT dashboard_invitations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY dashboard_invitations
    ADD CONSTRAINT dashboard_invitations_token_hash_key UNIQUE (token_hash);

ALTER TABLE ONLY dashboard_sessions
    ADD CONSTRAINT dashboard_sessions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY dashboard_users
    ADD CONSTRAINT dashboard_users_email_key UNIQUE (email);

ALTER TABLE ONLY dashboard_users
    ADD CONSTRAINT dashboard_users_pkey PRIMARY KEY (id);

ALTER TABLE ONLY export_chunks
    ADD CONSTRAINT export_chunks_pkey PRIMARY KEY (job_id, seq);

ALTER TABLE ONLY export_jobs
    ADD CONSTRAINT export_jobs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY login_failures
    ADD CONSTRAINT login_failures_pkey PRIMARY KEY (throttle_key);

ALTER TABLE ONLY merchant_settings
    ADD CONSTRAINT merchant_settings_pkey PRIMARY KEY (id);

ALTER TABLE ONLY order_history
    ADD CONSTRAINT order_history_pkey PRIMARY KEY (order_id, "position");

ALTER TABLE ONLY order_lines
    ADD CONSTRAINT order_lines_pkey PRIMARY KEY (order_id, "position");

ALTER TABLE ONLY order_refunds
    ADD CONSTRAINT order_refunds_pkey PRIMARY KEY (end_to_end);

ALTER TABLE ONLY orders
    ADD CONSTRAINT orders_external_code_key UNIQUE (external_code);

ALTER TABLE ONLY orders
    ADD CONSTRAINT orders_number_key UNIQUE (number);

ALTER TABLE ONLY orders
    ADD CONSTRAINT orders_pkey PRIMARY KEY (id);

ALTER TABLE ONLY orders
    ADD CONSTRAINT orders_request_key_key UNIQUE (request_key);

ALTER TABLE ONLY payment_link_holds
    ADD CONSTRAINT payment_link_holds_pkey PRIMARY KEY (order_key);

ALTER TABLE ONLY payment_links
    ADD CONSTRAINT payment_links_idempotency_key_key UNIQUE (idempotency_key);

ALTER TABLE ONLY payment_links
    ADD CONSTRAINT payment_links_pkey PRIMARY KEY (id);

ALTER TABLE ONLY payment_links
    ADD CONSTRAINT payment_links_slug_key UNIQUE (slug);

ALTER TABLE ONLY personal_data_key
    ADD CONSTRAINT personal_data_key_pkey PRIMARY KEY (id);

ALTER TABLE ONLY product_images
    ADD CONSTRAINT product_images_pkey PRIMARY KEY (image_key, size);

ALTER TABLE ONLY products
    ADD CONSTRAINT products_pkey PRIMARY KEY (id);

ALTER TABLE ONLY products
    ADD CONSTRAINT products_slug_key UNIQUE (slug);

ALTER TABLE ONLY secret_key_check
    ADD CONSTRAINT secret_key_check_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sessions
    ADD CONSTRAINT sessions_pkey PRIMARY KEY (token);

ALTER TABLE ONLY team_settings
    ADD CONSTRAINT team_settings_pkey PRIMARY KEY (id);

ALTER TABLE ONLY totp_recovery_codes
    ADD CONSTRAINT totp_recovery_codes_pkey PRIMARY KEY (user_id, hash);

ALTER TABLE ONLY webhook_events
    ADD CONSTRAINT webhook_events_pkey PRIMARY KEY (id);

CREATE INDEX attempts_state_expires ON attempts USING btree (state, expires_at);

CREATE INDEX audit_log_action ON audit_log USING btree (action, id);

CREATE INDEX audit_log_actor ON audit_log USING btree (actor, id);

CREATE INDEX audit_log_at ON audit_log USING btree (at);

CREATE INDEX carts_updated ON carts USING btree (updated_at);

CREATE INDEX checkout_sessions_document ON checkout_sessions USING btree (customer_document) WHERE (customer_document <> ''::text);

CREATE INDEX checkout_sessions_document_hash ON checkout_sessions USING btree (customer_document_hash) WHERE (customer_document_hash <> ''::text);

CREATE INDEX checkout_sessions_email ON checkout_sessions USING btree (lower(customer_email)) WHERE (customer_email <> ''::text);

CREATE INDEX checkout_sessions_email_hash ON checkout_sessions USING btree (customer_email_hash) WHERE (customer_email_hash <> ''::text);

CREATE INDEX checkout_sessions_expires_at ON checkout_sessions USING btree (expires_at);

CREATE INDEX dashboard_sessions_seen ON dashboard_sessions USING btree (seen_at);

CREATE INDEX dashboard_sessions_user ON dashboard_sessions USING btree (user_id);

CREATE INDEX dashboard_users_role ON dashboard_users USING btree (role);

CREATE INDEX export_jobs_state ON export_jobs USING btree (state, updated_at);

CREATE INDEX export_jobs_user ON export_jobs USING btree (user_id, created_at);

CREATE INDEX login_failures_last_at ON login_failures USING btree (last_at);

CREATE INDEX order_refunds_order ON order_refunds USING btree (order_id);

CREATE INDEX orders_amount_id ON orders USING btree (amount, id);

CREATE INDEX orders_awaiting_shipment ON orders USING btree (created_at, id) WHERE ((status = 'paid'::text) AND physical AND (shipped_at = 0));

CREATE INDEX orders_created_id ON orders USING btree (created_at, id);

CREATE INDEX orders_customer_document ON orders USING btree (customer_document);

CREATE INDEX orders_customer_email ON orders USING btree (lower(customer_email));

CREATE INDEX orders_document_hash ON orders USING btree (customer_document_hash) WHERE (customer_document_hash <> ''::text);

CREATE INDEX orders_email_hash ON orders USING btree (customer_email_hash) WHERE (customer_email_hash <> ''::text);

CREATE INDEX orders_link ON orders USING btree (link_id, created_at) WHERE (link_id <> ''::text);

CREATE INDEX orders_merchant_reference ON orders USING btree (merchant_reference, created_at) WHERE (merchant_reference <> ''::text);

CREATE INDEX orders_paid ON orders USING btree (paid_at, amount, created_at);

CREATE INDEX orders_personal_data_due ON orders USING btree (updated_at) WHERE ((anonymised_at = 0) AND (status = ANY (ARRAY['paid'::text, 'expired'::text, 'failed'::text, 'refunded'::text])));

CREATE INDEX orders_refund_due ON orders USING btree (created_at, id) WHERE (refund_due > 0);

CREATE INDEX orders_search ON orders USING gin (lower(number) public.gin_trgm_ops, lower(external_code) public.gin_trgm_ops, lower(merchant_reference) public.gin_trgm_ops, lower(customer_email) public.gin_trgm_ops, lower(customer_name) public.gin_trgm_ops, upper(customer_document) public.gin_trgm_ops);

CREATE INDEX orders_session ON orders USING btree (session_id) WHERE (session_id <> ''::text);

CREATE INDEX orders_status_amount ON orders USING btree (status, amount, id);

CREATE INDEX orders_status_created ON orders USING btree (status, created_at, id);

CREATE INDEX orders_status_updated ON orders USING btree (status, updated_at);

CREATE INDEX payment_link_holds_link ON payment_link_holds USING btree (link_id, until);

CREATE INDEX sessions_expiry_idx ON sessions USING btree (expiry);

CREATE INDEX webhook_deliveries_status_id ON webhook_deliveries USING btree (status, id);

CREATE INDEX webhook_events_received ON webhook_events USING btree (received_at);

CREATE TRIGGER orders_changed AFTER UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION checkout_order_changed();

ALTER TABLE ONLY attempts
    ADD CONSTRAINT attempts_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE CASCADE;

ALTER TABLE ONLY cart_lines
    ADD CONSTRAINT cart_lines_cart_id_fkey FOREIGN KEY (cart_id) REFERENCES carts(id) ON DELETE CASCADE;

ALTER TABLE ONLY cart_lines
    ADD CONSTRAINT cart_lines_product_id_fkey FOREIGN KEY (product_id) REFERENCES products(id);

ALTER TABLE ONLY dashboard_sessions
    ADD CONSTRAINT dashboard_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES dashboard_users(id) ON DELETE CASCADE;

ALTER TABLE ONLY export_chunks
    ADD CONSTRAINT export_chunks_job_id_fkey FOREIGN KEY (job_id) REFERENCES export_jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY order_history
    ADD CONSTRAINT order_history_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE CASCADE;

ALTER TABLE ONLY order_lines
    ADD CONSTRAINT order_lines_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE CASCADE;

ALTER TABLE ONLY order_refunds
    ADD CONSTRAINT order_refunds_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders(id) ON DELETE CASCADE;

ALTER TABLE ONLY payment_link_holds
    ADD CONSTRAINT payment_link_holds_link_id_fkey FOREIGN KEY (link_id) REFERENCES payment_links(id);

ALTER TABLE ONLY totp_recovery_codes
    ADD CONSTRAINT totp_recovery_codes_user_id_fkey FOREIGN KEY (user_id) REFERENCES dashboard_users(id) ON DELETE CASCADE;
