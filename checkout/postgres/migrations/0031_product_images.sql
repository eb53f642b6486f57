-- Product pictures, kept in the database so that every instance serves them (PostgreSQL with
-- several instances): each upload's two re-encoded variants ('s' 320 px, 'l' 640 px wide at
-- most) under a key that is a digest of their bytes, and each product's current picture (its
-- key, its type and the large variant's size, for the pages' width and height attributes).
CREATE TABLE product_images (
    image_key    TEXT NOT NULL,
    size         TEXT NOT NULL CHECK (size IN ('s', 'l')),
    content_type TEXT NOT NULL,
    width        INTEGER NOT NULL,
    height       INTEGER NOT NULL,
    data         BYTEA NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (image_key, size)
);
ALTER TABLE products ADD COLUMN image_key TEXT NOT NULL DEFAULT '';
ALTER TABLE products ADD COLUMN image_type TEXT NOT NULL DEFAULT '';
ALTER TABLE products ADD COLUMN image_width INTEGER NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN image_height INTEGER NOT NULL DEFAULT 0;
