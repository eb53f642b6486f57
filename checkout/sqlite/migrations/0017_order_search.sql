-- The dashboard's search box finds an order by any part of its number, externalCode, merchant
-- reference, customer e-mail, name or document. A LIKE '%…%' on those columns read every order;
-- an FTS5 table with the trigram tokenizer finds the orders holding a piece of text (3
-- characters or more) through its index, case aside.
--
-- Its rows are keyed by order_search's integer ids, not by the orders' rowids, which VACUUM
-- (and a backup's VACUUM INTO) may renumber in a table without an INTEGER PRIMARY KEY.
-- Triggers keep it in step with the orders.

CREATE TABLE order_search (
    id       INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL UNIQUE
);

CREATE VIRTUAL TABLE order_search_text USING fts5(
    number, external_code, merchant_reference, customer_email, customer_name, customer_document,
    tokenize = 'trigram'
);

INSERT INTO order_search (order_id) SELECT id FROM orders ORDER BY created_at, id;
INSERT INTO order_search_text (rowid, number, external_code, merchant_reference, customer_email, customer_name, customer_document)
    SELECT s.id, o.number, o.external_code, o.merchant_reference, o.customer_email, o.customer_name, o.customer_document
    FROM order_search s JOIN orders o ON o.id = s.order_id;

CREATE TRIGGER order_search_insert AFTER INSERT ON orders BEGIN
    INSERT INTO order_search (order_id) VALUES (new.id);
    INSERT INTO order_search_text (rowid, number, external_code, merchant_reference, customer_email, customer_name, customer_document)
        VALUES ((SELECT id FROM order_search WHERE order_id = new.id), new.number, new.external_code,
            new.merchant_reference, new.customer_email, new.customer_name, new.customer_document);
END;

CREATE TRIGGER order_search_update AFTER UPDATE OF number, external_code, merchant_reference, customer_email,
    customer_name, customer_document ON orders BEGIN
    DELETE FROM order_search_text WHERE rowid = (SELECT id FROM order_search WHERE order_id = old.id);
    INSERT INTO order_search_text (rowid, number, external_code, merchant_reference, customer_email, customer_name, customer_document)
        VALUES ((SELECT id FROM order_search WHERE order_id = new.id), new.number, new.external_code,
            new.merchant_reference, new.customer_email, new.customer_name, new.customer_document);
END;

CREATE TRIGGER order_search_delete AFTER DELETE ON orders BEGIN
    DELETE FROM order_search_text WHERE rowid = (SELECT id FROM order_search WHERE order_id = old.id);
    DELETE FROM order_search WHERE order_id = old.id;
END;

-- A whole e-mail address typed in the search box is looked up as the customer's.
CREATE INDEX orders_customer_email ON orders (lower(customer_email));
