-- Two-factor sign-in (TOTP, RFC 6238): each user's shared secret, when it was turned on, and
-- the last time step a code was accepted for (a code is accepted once); ten single-use
-- recovery codes per user, kept as SHA-256; and the owners' setting that requires a second
-- factor of every user.

ALTER TABLE dashboard_users ADD COLUMN totp_secret TEXT NOT NULL DEFAULT '';
ALTER TABLE dashboard_users ADD COLUMN totp_enabled_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE dashboard_users ADD COLUMN totp_last_step INTEGER NOT NULL DEFAULT 0;

CREATE TABLE totp_recovery_codes (
    user_id TEXT NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    hash    BLOB NOT NULL,
    used_at INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, hash)
);

CREATE TABLE team_settings (
    id           INTEGER PRIMARY KEY CHECK (id = 1),
    require_totp INTEGER NOT NULL DEFAULT 0
);
