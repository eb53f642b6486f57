-- The secrets kept in the database are sealed with a key kept outside it (checkout/sealed). The
-- one row of secret_key_check holds a value sealed at the first start with that key, so that an
-- instance given another key refuses to start rather than seal secrets the others cannot open.

CREATE TABLE secret_key_check (
	id     INTEGER PRIMARY KEY CHECK (id = 1),
	sealed TEXT    NOT NULL
);
