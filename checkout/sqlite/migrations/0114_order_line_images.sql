-- Each order line keeps the picture it was bought with (image_key, image_type, image_width,
-- image_height, as products keep theirs): the order's pages show it without reading the
-- catalogue. The lines stored before are given the picture those pages showed: their
-- product's, or an ad-hoc item's from its checkout session's lines. Pictures are never deleted
-- (their key is a digest of their bytes), so a line's picture stays servable.
-- PostgreSQL's migration 0114 is the same.
ALTER TABLE order_lines ADD COLUMN image_key TEXT NOT NULL DEFAULT '';
ALTER TABLE order_lines ADD COLUMN image_type TEXT NOT NULL DEFAULT '';
ALTER TABLE order_lines ADD COLUMN image_width INTEGER NOT NULL DEFAULT 0;
ALTER TABLE order_lines ADD COLUMN image_height INTEGER NOT NULL DEFAULT 0;

UPDATE order_lines SET image_key = p.image_key, image_type = p.image_type, image_width = p.image_width,
        image_height = p.image_height
    FROM products p
    WHERE order_lines.product_id <> '' AND p.id = order_lines.product_id;

UPDATE order_lines SET image_key = json_extract(s.lines, '$[' || order_lines.position || '].imageKey'),
        image_type = COALESCE(json_extract(s.lines, '$[' || order_lines.position || '].imageExt'), ''),
        image_width = COALESCE(json_extract(s.lines, '$[' || order_lines.position || '].imageWidth'), 0),
        image_height = COALESCE(json_extract(s.lines, '$[' || order_lines.position || '].imageHeight'), 0)
    FROM orders o JOIN checkout_sessions s ON s.id = o.session_id
    WHERE order_lines.product_id = '' AND o.id = order_lines.order_id
        AND json_extract(s.lines, '$[' || order_lines.position || '].imageKey') IS NOT NULL;
