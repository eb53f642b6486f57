-- Invitations to the dashboard (a link an owner sends, valid once for 72 hours; only the
-- SHA-256 of its token is kept) and the audit log: an append-only record of who changed what.

CREATE TABLE dashboard_invitations (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL UNIQUE,
    email       TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('owner', 'developer', 'operator', 'viewer')),
    invited_by  TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL,
    used_at     BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE audit_log (
    id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at      BIGINT NOT NULL,
    actor   TEXT NOT NULL,
    action  TEXT NOT NULL,
    object  TEXT NOT NULL,
    address TEXT NOT NULL,
    detail  TEXT NOT NULL
);

CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_actor ON audit_log (actor, id);
CREATE INDEX audit_log_action ON audit_log (action, id);
