-- The store's own face (issue 34): the name, legal identity, address, contacts, colours, note
-- and thank-you text shoppers see, set in the dashboard (one row), and its logo's pictures.
-- The configuration's CHECKOUT_MERCHANT_* and CHECKOUT_SUPPORT_* fill the row at the first
-- start; from then on the dashboard is the source. version grows by one at each save: the
-- stylesheet's URL and the other instances' caches follow it.
CREATE TABLE store_profile (
    id integer PRIMARY KEY CHECK (id = 1),
    version integer NOT NULL,
    name text NOT NULL,
    legal_name text DEFAULT '' NOT NULL,
    document text DEFAULT '' NOT NULL,
    address text DEFAULT '' NOT NULL,
    support_email text DEFAULT '' NOT NULL,
    support_phone text DEFAULT '' NOT NULL,
    support_url text DEFAULT '' NOT NULL,
    brand_color text DEFAULT '' NOT NULL,
    accent_color text DEFAULT '' NOT NULL,
    note text DEFAULT '' NOT NULL,
    thanks text DEFAULT '' NOT NULL,
    logo_key text DEFAULT '' NOT NULL,
    updated_at bigint NOT NULL
);

-- The logo's pictures, re-encoded at the sizes pages, e-mails and the favicon need; a new
-- upload gets a new key (a digest), so a URL never changes content.
CREATE TABLE store_logo_images (
    logo_key text NOT NULL,
    size text NOT NULL,
    content_type text NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    data bytea NOT NULL,
    created_at bigint NOT NULL,
    PRIMARY KEY (logo_key, size)
);

-- Every save of the store's face is announced on the change feed's channel, as the kind
-- "store_profile" (never an order's id: those are lower-case base32) with the new version,
-- so that every instance drops what it kept of it.
CREATE FUNCTION store_profile_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('checkout_orders', 'store_profile:' || NEW.version);
    RETURN NEW;
END;
$$;

CREATE TRIGGER store_profile_changed AFTER INSERT OR UPDATE ON store_profile
    FOR EACH ROW EXECUTE FUNCTION store_profile_changed();
