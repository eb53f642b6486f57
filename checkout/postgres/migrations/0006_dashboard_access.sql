-- The dashboard's users, the failed sign-ins counted per account and per client address, and
-- the sessions of the dashboard and of the shopper pages (scs's pgxstore schema).

CREATE TABLE dashboard_users (
    id            TEXT PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);

CREATE TABLE login_failures (
    throttle_key TEXT PRIMARY KEY,
    failures     INTEGER NOT NULL CHECK (failures > 0),
    last_at      BIGINT NOT NULL
);

CREATE INDEX login_failures_last_at ON login_failures (last_at);

CREATE TABLE sessions (
    token  TEXT PRIMARY KEY,
    data   BYTEA NOT NULL,
    expiry TIMESTAMPTZ NOT NULL
);

CREATE INDEX sessions_expiry_idx ON sessions (expiry);
