-- The sandbox's records. Each keeps the columns that filters and sorting need, plus the whole
-- record as JSON (doc). Times are Unix milliseconds. Lists are newest first with id as the
-- tie-breaker, so every index that serves a list ends in (created_at, id).

CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE deposits (
	id            TEXT PRIMARY KEY,
	client_id     TEXT NOT NULL,
	status        TEXT NOT NULL,
	amount        INTEGER NOT NULL,
	origin        TEXT NOT NULL,
	created_at    INTEGER NOT NULL,
	expires_at    INTEGER NOT NULL DEFAULT 0,
	external_code TEXT,
	doc           TEXT NOT NULL
);

CREATE TABLE withdrawals (
	id                TEXT PRIMARY KEY,
	client_id         TEXT NOT NULL,
	status            TEXT NOT NULL,
	amount            INTEGER NOT NULL,
	created_at        INTEGER NOT NULL,
	external_code     TEXT,
	end_to_end        TEXT,
	end_to_end_refund TEXT,
	pix_key           TEXT,
	doc               TEXT NOT NULL
);
CREATE INDEX withdrawals_client_created ON withdrawals (client_id, created_at, id, status, amount);
CREATE INDEX withdrawals_client_status_created ON withdrawals (client_id, status, created_at, id);
CREATE INDEX withdrawals_external_code ON withdrawals (client_id, external_code);
CREATE INDEX withdrawals_end_to_end ON withdrawals (client_id, end_to_end);
CREATE INDEX withdrawals_end_to_end_refund ON withdrawals (client_id, end_to_end_refund);
CREATE INDEX withdrawals_pix_key ON withdrawals (client_id, pix_key);

-- The first answer to each (client, idempotencyKey), replayed to the same request.
CREATE TABLE idempotency (
	client_id   TEXT NOT NULL,
	key         TEXT NOT NULL,
	body_hash   TEXT NOT NULL,
	status_code INTEGER NOT NULL,
	response    BLOB NOT NULL,
	created_at  INTEGER NOT NULL,
	PRIMARY KEY (client_id, key)
) WITHOUT ROWID;
