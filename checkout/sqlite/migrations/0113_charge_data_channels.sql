-- Charges' personal data and the overview's channels (issues 35 and 36).
--
-- A charge keeps its customer's name, document, e-mail and phone until it is final (paid or
-- canceled) and past the retention of personal data, or until the data subject asks: then they
-- are anonymised as an order's are (the document kept masked and as a keyed hash, the e-mail as
-- a keyed hash, so that a later request still finds the charge; anonymised_at says when). The
-- document is kept as its characters (digits, a CNPJ's letters), as orders keep it, so that a
-- request finds it through its index whatever way it was typed.
ALTER TABLE charges ADD COLUMN customer_document_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE charges ADD COLUMN customer_email_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE charges ADD COLUMN anonymised_at INTEGER NOT NULL DEFAULT 0;

UPDATE charges SET customer_document = upper(replace(replace(replace(replace(customer_document, '.', ''), '-', ''), '/', ''), ' ', ''));

CREATE INDEX charges_customer_document ON charges (customer_document);
CREATE INDEX charges_customer_email ON charges (lower(customer_email));
CREATE INDEX charges_document_hash ON charges (customer_document_hash) WHERE customer_document_hash <> '';
CREATE INDEX charges_email_hash ON charges (customer_email_hash) WHERE customer_email_hash <> '';
CREATE INDEX charges_personal_data_due ON charges (updated_at) WHERE anonymised_at = 0 AND status IN ('paid', 'canceled');

-- money_days gains the order's channel (shop, session, link, charge, pos), so that the overview
-- totals and filters by channel from the same few hundred rows: its totals are made again from
-- the orders, and its triggers (0104's, with the channel) keep them.
DROP TRIGGER orders_money_insert;
DROP TRIGGER orders_money_delete;
DROP TRIGGER orders_money_update;
DROP TABLE money_days;

CREATE TABLE money_days (
    day INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('placed', 'placed_paid', 'received', 'fee', 'fee_unknown', 'refunded', 'held')),
    channel TEXT NOT NULL,
    amount INTEGER NOT NULL DEFAULT 0,
    n INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, kind, channel)
) WITHOUT ROWID;

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

CREATE TRIGGER orders_money_insert AFTER INSERT ON orders BEGIN
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.created_at - 10800000) / 86400000, 'placed', NEW.channel, NEW.amount, 1
        WHERE true ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.created_at - 10800000) / 86400000, 'placed_paid', NEW.channel, NEW.amount, 1
        WHERE NEW.paid_at > 0 ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'received', NEW.channel, NEW.amount, 1
        WHERE NEW.paid_at > 0 ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'fee', NEW.channel, NEW.fee, 1
        WHERE NEW.paid_at > 0 AND NEW.fee >= 0 ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'fee_unknown', NEW.channel, NEW.amount, 1
        WHERE NEW.paid_at > 0 AND NEW.fee < 0 ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.refunded_at - 10800000) / 86400000, 'refunded', NEW.channel, NEW.amount, 1
        WHERE NEW.paid_at > 0 AND NEW.refunded_at > 0 AND NEW.status IN ('refunding', 'refunded') ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.held_at - 10800000) / 86400000, 'held', NEW.channel, NEW.amount, 1
        WHERE NEW.held_at > 0 AND NEW.status = 'under_review' ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
END;

CREATE TRIGGER orders_money_delete AFTER DELETE ON orders BEGIN
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.created_at - 10800000) / 86400000, 'placed', OLD.channel, -OLD.amount, -1
        WHERE true ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.created_at - 10800000) / 86400000, 'placed_paid', OLD.channel, -OLD.amount, -1
        WHERE OLD.paid_at > 0 ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'received', OLD.channel, -OLD.amount, -1
        WHERE OLD.paid_at > 0 ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'fee', OLD.channel, -OLD.fee, -1
        WHERE OLD.paid_at > 0 AND OLD.fee >= 0 ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'fee_unknown', OLD.channel, -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND OLD.fee < 0 ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.refunded_at - 10800000) / 86400000, 'refunded', OLD.channel, -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND OLD.refunded_at > 0 AND OLD.status IN ('refunding', 'refunded') ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.held_at - 10800000) / 86400000, 'held', OLD.channel, -OLD.amount, -1
        WHERE OLD.held_at > 0 AND OLD.status = 'under_review' ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
END;

CREATE TRIGGER orders_money_update AFTER UPDATE OF status, amount, created_at, paid_at, fee, refunded_at, held_at, channel ON orders BEGIN
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.created_at - 10800000) / 86400000, 'placed', OLD.channel, -OLD.amount, -1
        WHERE true AND (CASE WHEN true THEN (OLD.created_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN true THEN (NEW.created_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.created_at - 10800000) / 86400000, 'placed', NEW.channel, NEW.amount, 1
        WHERE true AND (CASE WHEN true THEN (OLD.created_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN true THEN (NEW.created_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.created_at - 10800000) / 86400000, 'placed_paid', OLD.channel, -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND (CASE WHEN OLD.paid_at > 0 THEN (OLD.created_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.created_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.created_at - 10800000) / 86400000, 'placed_paid', NEW.channel, NEW.amount, 1
        WHERE NEW.paid_at > 0 AND (CASE WHEN OLD.paid_at > 0 THEN (OLD.created_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.created_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'received', OLD.channel, -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND (CASE WHEN OLD.paid_at > 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'received', NEW.channel, NEW.amount, 1
        WHERE NEW.paid_at > 0 AND (CASE WHEN OLD.paid_at > 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'fee', OLD.channel, -OLD.fee, -1
        WHERE OLD.paid_at > 0 AND OLD.fee >= 0 AND (CASE WHEN OLD.paid_at > 0 AND OLD.fee >= 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.fee || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.fee >= 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.fee || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'fee', NEW.channel, NEW.fee, 1
        WHERE NEW.paid_at > 0 AND NEW.fee >= 0 AND (CASE WHEN OLD.paid_at > 0 AND OLD.fee >= 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.fee || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.fee >= 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.fee || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.paid_at - 10800000) / 86400000, 'fee_unknown', OLD.channel, -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND OLD.fee < 0 AND (CASE WHEN OLD.paid_at > 0 AND OLD.fee < 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.fee < 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.paid_at - 10800000) / 86400000, 'fee_unknown', NEW.channel, NEW.amount, 1
        WHERE NEW.paid_at > 0 AND NEW.fee < 0 AND (CASE WHEN OLD.paid_at > 0 AND OLD.fee < 0 THEN (OLD.paid_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.fee < 0 THEN (NEW.paid_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.refunded_at - 10800000) / 86400000, 'refunded', OLD.channel, -OLD.amount, -1
        WHERE OLD.paid_at > 0 AND OLD.refunded_at > 0 AND OLD.status IN ('refunding', 'refunded') AND (CASE WHEN OLD.paid_at > 0 AND OLD.refunded_at > 0 AND OLD.status IN ('refunding', 'refunded') THEN (OLD.refunded_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.refunded_at > 0 AND NEW.status IN ('refunding', 'refunded') THEN (NEW.refunded_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.refunded_at - 10800000) / 86400000, 'refunded', NEW.channel, NEW.amount, 1
        WHERE NEW.paid_at > 0 AND NEW.refunded_at > 0 AND NEW.status IN ('refunding', 'refunded') AND (CASE WHEN OLD.paid_at > 0 AND OLD.refunded_at > 0 AND OLD.status IN ('refunding', 'refunded') THEN (OLD.refunded_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.paid_at > 0 AND NEW.refunded_at > 0 AND NEW.status IN ('refunding', 'refunded') THEN (NEW.refunded_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (OLD.held_at - 10800000) / 86400000, 'held', OLD.channel, -OLD.amount, -1
        WHERE OLD.held_at > 0 AND OLD.status = 'under_review' AND (CASE WHEN OLD.held_at > 0 AND OLD.status = 'under_review' THEN (OLD.held_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.held_at > 0 AND NEW.status = 'under_review' THEN (NEW.held_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
    INSERT INTO money_days (day, kind, channel, amount, n) SELECT (NEW.held_at - 10800000) / 86400000, 'held', NEW.channel, NEW.amount, 1
        WHERE NEW.held_at > 0 AND NEW.status = 'under_review' AND (CASE WHEN OLD.held_at > 0 AND OLD.status = 'under_review' THEN (OLD.held_at - 10800000) / 86400000 || '/' || OLD.amount || '/' || OLD.channel END) IS NOT (CASE WHEN NEW.held_at > 0 AND NEW.status = 'under_review' THEN (NEW.held_at - 10800000) / 86400000 || '/' || NEW.amount || '/' || NEW.channel END) ON CONFLICT (day, kind, channel) DO UPDATE SET amount = amount + excluded.amount, n = n + excluded.n;
END;
