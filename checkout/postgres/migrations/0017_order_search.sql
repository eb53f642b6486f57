-- The dashboard's search box finds an order by any part of its number, externalCode, merchant
-- reference, customer e-mail, name or document (lower(column) LIKE '%…%', upper for the
-- document). Without an index that read every order; pg_trgm's GIN index finds the orders
-- holding a piece of text (3 characters or more) on any of these columns, one bitmap per
-- column of the OR. pg_trgm ships with PostgreSQL and is a trusted extension (13+): the
-- database's owner may create it. An extension is once per database: in public, whatever the
-- search_path of this store, and its operator class named there.

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;

CREATE INDEX orders_search ON orders USING gin (
    lower(number) public.gin_trgm_ops, lower(external_code) public.gin_trgm_ops, lower(merchant_reference) public.gin_trgm_ops,
    lower(customer_email) public.gin_trgm_ops, lower(customer_name) public.gin_trgm_ops, upper(customer_document) public.gin_trgm_ops
);

-- A whole e-mail address typed in the search box is looked up as the customer's.
CREATE INDEX orders_customer_email ON orders (lower(customer_email));
