-- Money that adds up (issue 39). Each order keeps the gateway's fee of the deposit that paid it
-- (fee, cents as the gateway's feeAmount is read; -1 while unknown), when its refund began
-- (refunded_at: its first move to refunding or refunded) and when it last went under review
-- (held_at), all Unix milliseconds. money_days holds the overview's totals by São Paulo
-- calendar day (days since 1970-01-01 at UTC-3, the zone's offset since 2019): per kind, the
-- sum of amounts and the number of orders. The triggers below keep it in the transaction that
-- writes the order, so that the overview reads at most a few hundred rows whatever the number
-- of orders. Kinds: placed and placed_paid by the day an order was placed (the conversion),
-- received, fee and fee_unknown by the day it was paid, refunded by the day its refund began,
-- held by the day it went under review (while it is).
ALTER TABLE orders ADD COLUMN fee INTEGER NOT NULL DEFAULT -1;
ALTER TABLE orders ADD COLUMN refunded_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN held_at INTEGER NOT NULL DEFAULT 0;

UPDATE orders SET refunded_at = COALESCE((SELECT MIN(h.at) FROM order_history h
    WHERE h.order_id = orders.id AND h.to_status IN ('refunding', 'refunded')), updated_at)
    WHERE status IN ('refunding', 'refunded');
UPDATE orders SET held_at = COALESCE((SELECT MAX(h.at) FROM order_history h
    WHERE h.order_id = orders.id AND h.to_status = 'under_review'), updated_at)
    WHERE status = 'under_review';

CREATE TABLE money_days (
    day INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('placed', 'placed_paid', 'received', 'fee', 'fee_unknown', 'refunded', 'held')),
    amount INTEGER NOT NULL DEFAULT 0,
    n INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, kind)
) WITHOUT ROWID;

INSERT INTO money_days (day, kind, amount, n)
SELECT day, kind, SUM(amount), COUNT(*) FROM (
    SELECT (o.created_at - 10800000) / 86400000 AS day, 'placed' AS kind, o.amount AS amount FROM orders o
    UNION ALL SELECT (o.created_at - 10800000) / 86400000 AS day, 'placed_paid' AS kind, o.amount AS amount FROM orders o WHERE o.paid_at > 0
    UNION ALL SELECT (o.paid_at - 10800000) / 86400000 AS day, 'received' AS kind, o.amount AS amount FROM orders o WHERE o.paid_at > 0
    UNION ALL SELECT (o.paid_at - 10800000) / 86400000 AS day, 'fee' AS kind, o.fee AS amount FROM orders o WHERE o.paid_at > 0 AND o.fee >= 0
    UNION ALL SELECT (o.paid_at - 10800000) / 86400000 AS day, 'fee_unknown' AS kind, o.amount AS amount FROM orders o WHERE o.paid_at > 0 AND o.fee < 0
    UNION ALL SELECT (o.refunded_at - 10800000) / 86400000 AS day, 'refunded' AS kind, o.amount AS amount FROM orders o WHERE o.paid_at > 0 AND o.refunded_at > 0 AND o.status IN ('refunding', 'refunded')
    UNION ALL SELECT (o.held_at - 10800000) / 86400000 AS day, 'held' AS kind, o.amount AS amount FROM orders o WHERE o.held_at > 0 AND o.status = 'under_review'
) AS parts GROUP BY day, kind;

CREATE TRIGGER orders_money_insert AFTER INSERT ON orders BEGIN
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.created_at - 10800000) / 86400000, 'placed', NEW.amount, 1
        WHERE true ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.created_at - 10800000) / 86400000, 'placed_paid', NEW.amount, 1
        WHERE NEW.paid_at > 0 ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'received', NEW.amount, 1
        WHERE NEW.paid_at > 0 ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'fee', NEW.fee, 1
        WHERE NEW.paid_at > 0 AND NEW.fee >= 0 ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'fee_unknown', NEW.amount, 1
        WHERE NEW.paid_at > 0 AND NEW.fee < 0 ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.refunded_at - 10800000) / 86400000, 'refunded', NEW.amount, 1
        WHERE NEW.paid_at > 0 AND NEW.refunded_at > 0 AND NEW.status IN ('refunding', 'refunded') ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.held_at - 10800000) / 86400000, 'held', NEW.amount, 1
        WHERE NEW.held_at > 0 AND NEW.status = 'under_review' ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
END;

CREATE TRIGGER orders_money_delete AFTER DELETE ON orders BEGIN
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.created_at - 10800000) / 86400000, 'placed', -OLD.amount, -1
        WHERE true ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.created_at - 10800000) / 86400000, 'placed_paid', -OLD.amount, -1
        WHERE OLD.paid_at > 0 ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'received', -OLD.amount, -1
        WHERE OLD.paid_at > 0 ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'fee', -OLD.fee, -1
        WHERE OLD.paid_at > 0 AND OLD.fee >= 0 ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'fee_unknown', -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND OLD.fee < 0 ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.refunded_at - 10800000) / 86400000, 'refunded', -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND OLD.refunded_at > 0 AND OLD.status IN ('refunding', 'refunded') ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.held_at - 10800000) / 86400000, 'held', -OLD.amount, -1
        WHERE OLD.held_at > 0 AND OLD.status = 'under_review' ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
END;

CREATE TRIGGER orders_money_update AFTER UPDATE OF status, amount, created_at, paid_at, fee, refunded_at, held_at ON orders BEGIN
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.created_at - 10800000) / 86400000, 'placed', -OLD.amount, -1
        WHERE true AND ((OLD.created_at - 10800000) / 86400000 || '/' || OLD.amount) IS NOT ((NEW.created_at - 10800000) / 86400000 || '/' || NEW.amount) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.created_at - 10800000) / 86400000, 'placed', NEW.amount, 1
        WHERE true AND ((OLD.created_at - 10800000) / 86400000 || '/' || OLD.amount) IS NOT ((NEW.created_at - 10800000) / 86400000 || '/' || NEW.amount) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.created_at - 10800000) / 86400000, 'placed_paid', -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND (CASE WHEN OLD.paid_at > 0 THEN (OLD.created_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.created_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.created_at - 10800000) / 86400000, 'placed_paid', NEW.amount, 1
        WHERE NEW.paid_at > 0 AND (CASE WHEN OLD.paid_at > 0 THEN (OLD.created_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.created_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'received', -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND (CASE WHEN OLD.paid_at > 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'received', NEW.amount, 1
        WHERE NEW.paid_at > 0 AND (CASE WHEN OLD.paid_at > 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'fee', -OLD.fee, -1
        WHERE OLD.paid_at > 0 AND OLD.fee >= 0 AND (CASE WHEN OLD.paid_at > 0 AND OLD.fee >= 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.fee END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.fee >= 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.fee END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'fee', NEW.fee, 1
        WHERE NEW.paid_at > 0 AND NEW.fee >= 0 AND (CASE WHEN OLD.paid_at > 0 AND OLD.fee >= 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.fee END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.fee >= 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.fee END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'fee_unknown', -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND OLD.fee < 0 AND (CASE WHEN OLD.paid_at > 0 AND OLD.fee < 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.fee < 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'fee_unknown', NEW.amount, 1
        WHERE NEW.paid_at > 0 AND NEW.fee < 0 AND (CASE WHEN OLD.paid_at > 0 AND OLD.fee < 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.fee < 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.refunded_at - 10800000) / 86400000, 'refunded', -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND OLD.refunded_at > 0 AND OLD.status IN ('refunding', 'refunded') AND (CASE WHEN OLD.paid_at > 0 AND OLD.refunded_at > 0 AND OLD.status IN ('refunding', 'refunded') THEN (OLD.refunded_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.refunded_at > 0 AND NEW.status IN ('refunding', 'refunded') THEN (NEW.refunded_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.refunded_at - 10800000) / 86400000, 'refunded', NEW.amount, 1
        WHERE NEW.paid_at > 0 AND NEW.refunded_at > 0 AND NEW.status IN ('refunding', 'refunded') AND (CASE WHEN OLD.paid_at > 0 AND OLD.refunded_at > 0 AND OLD.status IN ('refunding', 'refunded') THEN (OLD.refunded_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.refunded_at > 0 AND NEW.status IN ('refunding', 'refunded') THEN (NEW.refunded_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (OLD.held_at - 10800000) / 86400000, 'held', -OLD.amount, -1
        WHERE OLD.held_at > 0 AND OLD.status = 'under_review' AND (CASE WHEN OLD.held_at > 0 AND OLD.status = 'under_review' THEN (OLD.held_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.held_at > 0 AND NEW.status = 'under_review' THEN (NEW.held_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, amount, n) SELECT (NEW.held_at - 10800000) / 86400000, 'held', NEW.amount, 1
        WHERE NEW.held_at > 0 AND NEW.status = 'under_review' AND (CASE WHEN OLD.held_at > 0 AND OLD.status = 'under_review' THEN (OLD.held_at - 10800000) / 86400000 || '/' || OLD.amount END) IS NOT (CASE WHEN NEW.held_at > 0 AND NEW.status = 'under_review' THEN (NEW.held_at - 10800000) / 86400000 || '/' || NEW.amount END) ON CONFLICT (day, kind) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
END;

