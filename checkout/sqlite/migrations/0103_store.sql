-- The store's own face (issue 34): the name, legal identity, address, contacts, colours, note
-- and thank-you text shoppers see, set in the dashboard (one row), and its logo's pictures.
-- The configuration's CHECKOUT_MERCHANT_* and CHECKOUT_SUPPORT_* fill the row at the first
-- start; from then on the dashboard is the source. version grows by one at each save: the
-- stylesheet's URL and the other instances' caches follow it.
CREATE TABLE store_profile (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    legal_name TEXT NOT NULL DEFAULT '',
    document TEXT NOT NULL DEFAULT '',
    address TEXT NOT NULL DEFAULT '',
    support_email TEXT NOT NULL DEFAULT '',
    support_phone TEXT NOT NULL DEFAULT '',
    support_url TEXT NOT NULL DEFAULT '',
    brand_color TEXT NOT NULL DEFAULT '',
    accent_color TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    thanks TEXT NOT NULL DEFAULT '',
    logo_key TEXT NOT NULL DEFAULT '',
    updated_at INTEGER NOT NULL
);

-- The logo's pictures, re-encoded at the sizes pages, e-mails and the favicon need; a new
-- upload gets a new key (a digest), so a URL never changes content.
CREATE TABLE store_logo_images (
    logo_key TEXT NOT NULL,
    size TEXT NOT NULL,
    content_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    data BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (logo_key, size)
);
