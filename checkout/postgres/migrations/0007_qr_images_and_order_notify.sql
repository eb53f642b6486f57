-- An attempt's qr_png held the gateway's picture; it now holds the checkout's own drawing of the
-- verified BR Code, made when the attempt becomes active. The gateway's pictures are dropped:
-- the pages draw those attempts' images from their codes.
UPDATE attempts SET qr_png = NULL;

-- Every change of an order is announced on the channel checkout_orders, as "id:version", when
-- its transaction commits, whichever instance (or session) made it: every instance listens, so
-- that its live pages and the orders it keeps in memory follow changes made elsewhere.
CREATE FUNCTION checkout_order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('checkout_orders', NEW.id || ':' || NEW.version);
    RETURN NULL;
END;
$$;

CREATE TRIGGER orders_changed AFTER UPDATE ON orders
    FOR EACH ROW EXECUTE FUNCTION checkout_order_changed();
