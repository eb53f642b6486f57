-- Background exports of the dashboard: an export of more rows than a download streams in one
-- go is written by a worker of the server into the database, in gzip-compressed chunks, so
-- that any instance (PostgreSQL with several) serves the page and the download. The worker
-- notes its rows and the time (heartbeat) as it goes; a job left running without a heartbeat
-- was interrupted. Jobs and their chunks are deleted a day after they end.
CREATE TABLE export_jobs (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL,
    kind         TEXT NOT NULL, -- deposits, withdrawals
    format       TEXT NOT NULL, -- csv, excel
    query        TEXT NOT NULL, -- the filter as asked
    state        TEXT NOT NULL CHECK (state IN ('running', 'ready', 'failed')),
    total        INTEGER NOT NULL, -- the rows the list counted when it started
    rows_written INTEGER NOT NULL DEFAULT 0,
    size         INTEGER NOT NULL DEFAULT 0, -- bytes of the file, uncompressed
    error        TEXT NOT NULL DEFAULT '', -- why it failed: a code the dashboard says in words
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL, -- the heartbeat while running
    finished_at  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX export_jobs_user ON export_jobs (user_id, created_at);
CREATE INDEX export_jobs_state ON export_jobs (state, updated_at);

CREATE TABLE export_chunks (
    job_id TEXT NOT NULL REFERENCES export_jobs (id) ON DELETE CASCADE,
    seq    INTEGER NOT NULL,
    data   BLOB NOT NULL,
    PRIMARY KEY (job_id, seq)
);
