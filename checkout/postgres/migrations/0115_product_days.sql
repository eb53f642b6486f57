-- The overview's top products (issue 39) from daily totals instead of the lines of every order
-- paid in the last 30 days, which it aggregated at each view: product_days holds, by São Paulo
-- calendar day of payment (as money_days: days since 1970-01-01 at UTC-3), per product the
-- units and the revenue (unit price × quantity) of the lines of the orders paid that day. A
-- line without a product counts under its title (name; '' for a line of a product); title is
-- the greatest of the product's titles that day. The triggers below keep it in the
-- transaction that writes the order or its lines: lines are written once, with their order,
-- and count when it is paid; an order whose payment moves to another day (or goes) moves its
-- lines' totals with it, and a paid order deleted takes them away. SQLite's migration 0115 is
-- the same.
CREATE TABLE product_days (
    day bigint NOT NULL,
    product_id text NOT NULL,
    name text NOT NULL,
    title text NOT NULL,
    units bigint DEFAULT 0 NOT NULL,
    revenue bigint DEFAULT 0 NOT NULL,
    PRIMARY KEY (day, product_id, name)
);

INSERT INTO product_days (day, product_id, name, title, units, revenue)
SELECT (o.paid_at - 10800000) / 86400000, l.product_id, CASE WHEN l.product_id = '' THEN l.title ELSE '' END,
    MAX(l.title), SUM(l.quantity), SUM(l.unit_price * l.quantity)
    FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.paid_at > 0 GROUP BY 1, 2, 3;

-- checkout_product_days_add adds the lines of the order order_ref to paid_day: units and
-- revenue times factor (1 or -1), one row per product (an upsert may not touch a row twice).
CREATE FUNCTION checkout_product_days_add(order_ref text, paid_day bigint, factor bigint) RETURNS void
    LANGUAGE sql
    AS $$
    INSERT INTO product_days (day, product_id, name, title, units, revenue)
        SELECT paid_day, l.product_id, CASE WHEN l.product_id = '' THEN l.title ELSE '' END,
            MAX(l.title), factor * SUM(l.quantity), factor * SUM(l.unit_price * l.quantity)
            FROM order_lines l WHERE l.order_id = order_ref GROUP BY 2, 3
        ON CONFLICT (day, product_id, name) DO UPDATE SET title = GREATEST(product_days.title, EXCLUDED.title),
            units = product_days.units + EXCLUDED.units, revenue = product_days.revenue + EXCLUDED.revenue;
$$;

CREATE FUNCTION checkout_product_days_line() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO product_days (day, product_id, name, title, units, revenue)
        SELECT (o.paid_at - 10800000) / 86400000, NEW.product_id, CASE WHEN NEW.product_id = '' THEN NEW.title ELSE '' END,
            NEW.title, NEW.quantity, NEW.unit_price * NEW.quantity FROM orders o WHERE o.id = NEW.order_id AND o.paid_at > 0
        ON CONFLICT (day, product_id, name) DO UPDATE SET title = GREATEST(product_days.title, EXCLUDED.title),
            units = product_days.units + EXCLUDED.units, revenue = product_days.revenue + EXCLUDED.revenue;
    RETURN NULL;
END;
$$;

-- checkout_product_days_order moves an order's lines from the day of its old payment to the
-- day of its new one (none: unpaid or deleted), only when the day changes. It runs before a
-- delete, while the lines are there (they go with the order, ON DELETE CASCADE).
CREATE FUNCTION checkout_product_days_order() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    od bigint;
    nd bigint;
BEGIN
    IF OLD.paid_at > 0 THEN
        od := (OLD.paid_at - 10800000) / 86400000;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.paid_at > 0 THEN
        nd := (NEW.paid_at - 10800000) / 86400000;
    END IF;
    IF od IS DISTINCT FROM nd THEN
        IF od IS NOT NULL THEN
            PERFORM checkout_product_days_add(OLD.id, od, -1);
        END IF;
        IF nd IS NOT NULL THEN
            PERFORM checkout_product_days_add(NEW.id, nd, 1);
        END IF;
    END IF;
    RETURN OLD;
END;
$$;

CREATE TRIGGER order_lines_product_days AFTER INSERT ON order_lines
    FOR EACH ROW EXECUTE FUNCTION checkout_product_days_line();
CREATE TRIGGER orders_product_days AFTER UPDATE OF paid_at ON orders
    FOR EACH ROW EXECUTE FUNCTION checkout_product_days_order();
CREATE TRIGGER orders_product_days_delete BEFORE DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION checkout_product_days_order();
