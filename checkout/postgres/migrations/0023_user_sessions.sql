-- The dashboard sessions of each user, as the user sees them on their account page (where
-- they signed in from, when, last seen) and ends them. The session data stays in scs's
-- sessions table; a session whose row here is gone is over.

CREATE TABLE dashboard_sessions (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    seen_at    BIGINT NOT NULL,
    address    TEXT NOT NULL,
    user_agent TEXT NOT NULL
);

CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id);
CREATE INDEX dashboard_sessions_seen ON dashboard_sessions (seen_at);
