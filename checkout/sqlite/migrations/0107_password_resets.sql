-- Self-service password resets (issue 33): a link valid for an hour, used once. Only the
-- SHA-256 of the link's token is kept; a reset dies with its user.
CREATE TABLE password_resets (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX password_resets_user ON password_resets (user_id);
