-- Self-service password resets (issue 33): a link valid for an hour, used once. Only the
-- SHA-256 of the link's token is kept; a reset dies with its user.
CREATE TABLE password_resets (
    id text PRIMARY KEY,
    user_id text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    token_hash text NOT NULL UNIQUE,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint DEFAULT 0 NOT NULL
);

CREATE INDEX password_resets_user ON password_resets (user_id);
