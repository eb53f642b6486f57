-- Money that adds up (issue 39). Each order keeps the gateway's fee of the deposit that paid it
-- (fee, cents as the gateway's feeAmount is read; -1 while unknown), when its refund began
-- (refunded_at: its first move to refunding or refunded) and when it last went under review
-- (held_at), all Unix milliseconds. money_days holds the overview's totals by São Paulo
-- calendar day (days since 1970-01-01 at UTC-3, the zone's offset since 2019): per kind, the
-- sum of amounts and the number of orders. The trigger below keeps it in the transaction that
-- writes the order, so that the overview reads at most a few hundred rows whatever the number
-- of orders. Kinds: placed and placed_paid by the day an order was placed (the conversion),
-- received, fee and fee_unknown by the day it was paid, refunded by the day its refund began,
-- held by the day it went under review (while it is). SQLite's migration 0104 is the same.
ALTER TABLE orders ADD COLUMN fee bigint DEFAULT -1 NOT NULL;
ALTER TABLE orders ADD COLUMN refunded_at bigint DEFAULT 0 NOT NULL;
ALTER TABLE orders ADD COLUMN held_at bigint DEFAULT 0 NOT NULL;

UPDATE orders SET refunded_at = COALESCE((SELECT MIN(h.at) FROM order_history h
    WHERE h.order_id = orders.id AND h.to_status IN ('refunding', 'refunded')), updated_at)
    WHERE status IN ('refunding', 'refunded');
UPDATE orders SET held_at = COALESCE((SELECT MAX(h.at) FROM order_history h
    WHERE h.order_id = orders.id AND h.to_status = 'under_review'), updated_at)
    WHERE status = 'under_review';

CREATE TABLE money_days (
    day bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('placed', 'placed_paid', 'received', 'fee', 'fee_unknown', 'refunded', 'held')),
    amount bigint DEFAULT 0 NOT NULL,
    n bigint DEFAULT 0 NOT NULL,
    PRIMARY KEY (day, kind)
);

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

-- checkout_money_part is what order r adds to money_days under kind k: the instant whose day it
-- counts on (NULL: nothing) and the amount.
CREATE FUNCTION checkout_money_part(r orders, k text, OUT at bigint, OUT amount bigint)
    LANGUAGE plpgsql IMMUTABLE
    AS $$
BEGIN
    amount := r.amount;
    CASE k
    WHEN 'placed' THEN at := r.created_at;
    WHEN 'placed_paid' THEN IF r.paid_at > 0 THEN at := r.created_at; END IF;
    WHEN 'received' THEN IF r.paid_at > 0 THEN at := r.paid_at; END IF;
    WHEN 'fee' THEN IF r.paid_at > 0 AND r.fee >= 0 THEN at := r.paid_at; amount := r.fee; END IF;
    WHEN 'fee_unknown' THEN IF r.paid_at > 0 AND r.fee < 0 THEN at := r.paid_at; END IF;
    WHEN 'refunded' THEN
        IF r.paid_at > 0 AND r.refunded_at > 0 AND r.status IN ('refunding', 'refunded') THEN at := r.refunded_at; END IF;
    WHEN 'held' THEN IF r.held_at > 0 AND r.status = 'under_review' THEN at := r.held_at; END IF;
    END CASE;
END;
$$;

-- checkout_money_days moves an order's parts in money_days: the old row's out, the new row's
-- in, only where they differ (so that an update touching none writes nothing), kinds always in
-- the same order (so that concurrent writers lock the days' rows in one order).
CREATE FUNCTION checkout_money_days() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    k text;
    oat bigint;
    oam bigint;
    nat bigint;
    nam bigint;
    od bigint;
    nd bigint;
BEGIN
    FOREACH k IN ARRAY ARRAY['placed', 'placed_paid', 'received', 'fee', 'fee_unknown', 'refunded', 'held'] LOOP
        oat := NULL;
        nat := NULL;
        IF TG_OP <> 'INSERT' THEN
            SELECT p.at, p.amount INTO oat, oam FROM checkout_money_part(OLD, k) p;
        END IF;
        IF TG_OP <> 'DELETE' THEN
            SELECT p.at, p.amount INTO nat, nam FROM checkout_money_part(NEW, k) p;
        END IF;
        od := (oat - 10800000) / 86400000;
        nd := (nat - 10800000) / 86400000;
        CONTINUE WHEN od IS NOT DISTINCT FROM nd AND (od IS NULL OR oam = nam);
        IF od IS NOT NULL THEN
            INSERT INTO money_days (day, kind, amount, n) VALUES (od, k, -oam, -1)
                ON CONFLICT (day, kind) DO UPDATE SET amount = money_days.amount + EXCLUDED.amount, n = money_days.n + EXCLUDED.n;
        END IF;
        IF nd IS NOT NULL THEN
            INSERT INTO money_days (day, kind, amount, n) VALUES (nd, k, nam, 1)
                ON CONFLICT (day, kind) DO UPDATE SET amount = money_days.amount + EXCLUDED.amount, n = money_days.n + EXCLUDED.n;
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;

CREATE TRIGGER orders_money AFTER INSERT OR DELETE OR UPDATE OF status, amount, created_at, paid_at, fee, refunded_at, held_at
    ON orders FOR EACH ROW EXECUTE FUNCTION checkout_money_days();
