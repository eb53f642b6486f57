-- The overview's top products (issue 39) from daily totals instead of the lines of every order
-- paid in the last 30 days, which it aggregated at each view: product_days holds, by São Paulo
-- calendar day of payment (as money_days: days since 1970-01-01 at UTC-3), per product the
-- units and the revenue (unit price × quantity) of the lines of the orders paid that day. A
-- line without a product counts under its title (name; '' for a line of a product); title is
-- the greatest of the product's titles that day. The triggers below keep it in the
-- transaction that writes the order or its lines: lines are written once, with their order,
-- and count when it is paid; an order whose payment moves to another day (or goes) moves its
-- lines' totals with it, and a paid order deleted takes them away.
CREATE TABLE product_days (
    day INTEGER NOT NULL,
    product_id TEXT NOT NULL,
    name TEXT NOT NULL,
    title TEXT NOT NULL,
    units INTEGER NOT NULL DEFAULT 0,
    revenue INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, product_id, name)
) WITHOUT ROWID;

INSERT INTO product_days (day, product_id, name, title, units, revenue)
SELECT (o.paid_at - 10800000) / 86400000, l.product_id, CASE WHEN l.product_id = '' THEN l.title ELSE '' END,
    MAX(l.title), SUM(l.quantity), SUM(l.unit_price * l.quantity)
    FROM orders o JOIN order_lines l ON l.order_id = o.id WHERE o.paid_at > 0 GROUP BY 1, 2, 3;

CREATE TRIGGER order_lines_product_days AFTER INSERT ON order_lines BEGIN
    INSERT INTO product_days (day, product_id, name, title, units, revenue)
        SELECT (o.paid_at - 10800000) / 86400000, NEW.product_id, CASE WHEN NEW.product_id = '' THEN NEW.title ELSE '' END,
            NEW.title, NEW.quantity, NEW.unit_price * NEW.quantity FROM orders o WHERE o.id = NEW.order_id AND o.paid_at > 0
        ON CONFLICT (day, product_id, name) DO UPDATE SET title = max(title, excluded.title),
            units = units + excluded.units, revenue = revenue + excluded.revenue;
END;

CREATE TRIGGER orders_product_days_update AFTER UPDATE OF paid_at ON orders
    WHEN (CASE WHEN OLD.paid_at > 0 THEN (OLD.paid_at - 10800000) / 86400000 END)
        IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.paid_at - 10800000) / 86400000 END) BEGIN
    INSERT INTO product_days (day, product_id, name, title, units, revenue)
        SELECT (OLD.paid_at - 10800000) / 86400000, l.product_id, CASE WHEN l.product_id = '' THEN l.title ELSE '' END,
            MAX(l.title), -SUM(l.quantity), -SUM(l.unit_price * l.quantity) FROM order_lines l
            WHERE l.order_id = OLD.id AND OLD.paid_at > 0 GROUP BY 1, 2, 3
        ON CONFLICT (day, product_id, name) DO UPDATE SET units = units + excluded.units, revenue = revenue + excluded.revenue;
    INSERT INTO product_days (day, product_id, name, title, units, revenue)
        SELECT (NEW.paid_at - 10800000) / 86400000, l.product_id, CASE WHEN l.product_id = '' THEN l.title ELSE '' END,
            MAX(l.title), SUM(l.quantity), SUM(l.unit_price * l.quantity) FROM order_lines l
            WHERE l.order_id = NEW.id AND NEW.paid_at > 0 GROUP BY 1, 2, 3
        ON CONFLICT (day, product_id, name) DO UPDATE SET title = max(title, excluded.title),
            units = units + excluded.units, revenue = revenue + excluded.revenue;
END;

-- Before the delete: the lines go with the order (ON DELETE CASCADE).
CREATE TRIGGER orders_product_days_delete BEFORE DELETE ON orders WHEN OLD.paid_at > 0 BEGIN
    INSERT INTO product_days (day, product_id, name, title, units, revenue)
        SELECT (OLD.paid_at - 10800000) / 86400000, l.product_id, CASE WHEN l.product_id = '' THEN l.title ELSE '' END,
            MAX(l.title), -SUM(l.quantity), -SUM(l.unit_price * l.quantity) FROM order_lines l
            WHERE l.order_id = OLD.id GROUP BY 1, 2, 3
        ON CONFLICT (day, product_id, name) DO UPDATE SET units = units + excluded.units, revenue = revenue + excluded.revenue;
END;
