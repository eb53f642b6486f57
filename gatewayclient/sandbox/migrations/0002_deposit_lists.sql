-- What GET /deposit reads over millions of deposits (see lists.go; 0003 drops the count tables).

-- Newest-first pages, by date alone or within statuses, and amount ranges. Each index holds
-- every filter column, so a page's ids and a count come from the index alone.
CREATE INDEX deposits_by_date ON deposits (client_id, created_at, id, status, origin, amount);
CREATE INDEX deposits_by_status ON deposits (client_id, status, created_at, id, origin, amount);
CREATE INDEX deposits_by_amount ON deposits (client_id, amount, created_at, id, status, origin);

-- The expiry sweep, run before every read, looks only at deposits awaiting payment.
CREATE INDEX deposits_awaiting ON deposits (expires_at) WHERE status = 'PIX_QRCODE_GENERATED';

-- Deposit counts per client, status and origin, in cells of one UTC day (day: Unix ms / one
-- day, rounded down) by one amount bucket (amountBucket), kept in step with every write. A
-- list's total sums the cells inside its filter instead of counting index entries. The two
-- coarser tables hold the same counts summed over buckets and over days: fewer rows to add
-- up when a filter has no amount range, or no date range.
CREATE TABLE deposit_counts (
	client_id TEXT    NOT NULL,
	day       INTEGER NOT NULL,
	bucket    INTEGER NOT NULL,
	status    TEXT    NOT NULL,
	origin    TEXT    NOT NULL,
	n         INTEGER NOT NULL,
	PRIMARY KEY (client_id, day, status, origin, bucket)
) WITHOUT ROWID;

CREATE TABLE deposit_counts_by_day (
	client_id TEXT    NOT NULL,
	day       INTEGER NOT NULL,
	status    TEXT    NOT NULL,
	origin    TEXT    NOT NULL,
	n         INTEGER NOT NULL,
	PRIMARY KEY (client_id, day, status, origin)
) WITHOUT ROWID;

CREATE TABLE deposit_counts_by_bucket (
	client_id TEXT    NOT NULL,
	bucket    INTEGER NOT NULL,
	status    TEXT    NOT NULL,
	origin    TEXT    NOT NULL,
	n         INTEGER NOT NULL,
	PRIMARY KEY (client_id, bucket, status, origin)
) WITHOUT ROWID;
