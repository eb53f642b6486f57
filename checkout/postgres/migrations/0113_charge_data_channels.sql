-- Charges' personal data and the overview's channels (issues 35 and 36). SQLite's migration
-- 0113 is the same.
--
-- A charge keeps its customer's name, document, e-mail and phone until it is final (paid or
-- canceled) and past the retention of personal data, or until the data subject asks: then they
-- are anonymised as an order's are (the document kept masked and as a keyed hash, the e-mail as
-- a keyed hash, so that a later request still finds the charge; anonymised_at says when). The
-- document is kept as its characters (digits, a CNPJ's letters), as orders keep it, so that a
-- request finds it through its index whatever way it was typed.
ALTER TABLE charges ADD COLUMN customer_document_hash text DEFAULT '' NOT NULL;
ALTER TABLE charges ADD COLUMN customer_email_hash text DEFAULT '' NOT NULL;
ALTER TABLE charges ADD COLUMN anonymised_at bigint DEFAULT 0 NOT NULL;

UPDATE charges SET customer_document = upper(replace(replace(replace(replace(customer_document, '.', ''), '-', ''), '/', ''), ' ', ''));

CREATE INDEX charges_customer_document ON charges (customer_document);
CREATE INDEX charges_customer_email ON charges (lower(customer_email));
CREATE INDEX charges_document_hash ON charges (customer_document_hash) WHERE customer_document_hash <> '';
CREATE INDEX charges_email_hash ON charges (customer_email_hash) WHERE customer_email_hash <> '';
CREATE INDEX charges_personal_data_due ON charges (updated_at) WHERE anonymised_at = 0 AND status IN ('paid', 'canceled');

-- money_days gains the order's channel (shop, session, link, charge, pos), so that the overview
-- totals and filters by channel from the same few hundred rows: its totals are made again from
-- the orders, and the trigger (0104's, with the channel) keeps them.
DROP TRIGGER orders_money ON orders;
DROP FUNCTION checkout_money_days();
DROP TABLE money_days;

CREATE TABLE money_days (
    day bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('placed', 'placed_paid', 'received', 'fee', 'fee_unknown', 'refunded', 'held')),
    channel text NOT NULL,
    amount bigint DEFAULT 0 NOT NULL,
    n bigint DEFAULT 0 NOT NULL,
    PRIMARY KEY (day, kind, channel)
);

INSERT INTO money_days (day, kind, channel, amount, n)
SELECT day, kind, channel, SUM(amount), COUNT(*) FROM (
    SELECT (o.created_at - 10800000) / 86400000 AS day, 'placed' AS kind, o.channel AS channel, o.amount AS amount FROM orders o
    UNION ALL SELECT (o.created_at - 10800000) / 86400000 AS day, 'placed_paid' AS kind, o.channel AS channel, o.amount AS amount FROM orders o WHERE o.paid_at > 0
    UNION ALL SELECT (o.paid_at - 10800000) / 86400000 AS day, 'received' AS kind, o.channel AS channel, o.amount AS amount FROM orders o WHERE o.paid_at > 0
    UNION ALL SELECT (o.paid_at - 10800000) / 86400000 AS day, 'fee' AS kind, o.channel AS channel, o.fee AS amount FROM orders o WHERE o.paid_at > 0 AND o.fee >= 0
    UNION ALL SELECT (o.paid_at - 10800000) / 86400000 AS day, 'fee_unknown' AS kind, o.channel AS channel, o.amount AS amount FROM orders o WHERE o.paid_at > 0 AND o.fee < 0
    UNION ALL SELECT (o.refunded_at - 10800000) / 86400000 AS day, 'refunded' AS kind, o.channel AS channel, o.amount AS amount FROM orders o WHERE o.paid_at > 0 AND o.refunded_at > 0 AND o.status IN ('refunding', 'refunded')
    UNION ALL SELECT (o.held_at - 10800000) / 86400000 AS day, 'held' AS kind, o.channel AS channel, o.amount AS amount FROM orders o WHERE o.held_at > 0 AND o.status = 'under_review'
) AS parts GROUP BY day, kind, channel;

-- checkout_money_days moves an order's parts (checkout_money_part, 0104) in money_days: the
-- old row's out, the new row's in, only where they differ (so that an update touching none
-- writes nothing), kinds always in the same order (so that concurrent writers lock the days'
-- rows in one order).
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
    och text;
    nch text;
BEGIN
    IF TG_OP <> 'INSERT' THEN och := OLD.channel; END IF;
    IF TG_OP <> 'DELETE' THEN nch := NEW.channel; END IF;
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
        CONTINUE WHEN od IS NOT DISTINCT FROM nd AND (od IS NULL OR (oam = nam AND och = nch));
        IF od IS NOT NULL THEN
            INSERT INTO money_days (day, kind, channel, amount, n) VALUES (od, k, och, -oam, -1)
                ON CONFLICT (day, kind, channel) DO UPDATE SET amount = money_days.amount + EXCLUDED.amount, n = money_days.n + EXCLUDED.n;
        END IF;
        IF nd IS NOT NULL THEN
            INSERT INTO money_days (day, kind, channel, amount, n) VALUES (nd, k, nch, nam, 1)
                ON CONFLICT (day, kind, channel) DO UPDATE SET amount = money_days.amount + EXCLUDED.amount, n = money_days.n + EXCLUDED.n;
        END IF;
    END LOOP;
    RETURN NULL;
END;
$$;

CREATE TRIGGER orders_money AFTER INSERT OR DELETE OR UPDATE OF status, amount, created_at, paid_at, fee, refunded_at, held_at, channel
    ON orders FOR EACH ROW EXECUTE FUNCTION checkout_money_days();
