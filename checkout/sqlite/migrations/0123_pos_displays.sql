-- The customer's displays of the point of sale (issue 36).
--
-- A pairing code, shown on a terminal's screen, pairs a display with that terminal: six digits,
-- kept as their SHA-256 only, valid ten minutes and used once (used_at set by the pairing).
CREATE TABLE pos_display_codes (
    code_hash TEXT PRIMARY KEY,
    terminal_id TEXT NOT NULL REFERENCES pos_terminals (id),
    expires_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
);

CREATE INDEX pos_display_codes_expiry ON pos_display_codes (expires_at);

-- A paired display: its long-lived token is kept as its SHA-256 only; it shows its terminal's
-- current sale until an owner revokes it (revoked_at).
CREATE TABLE pos_displays (
    id TEXT PRIMARY KEY,
    terminal_id TEXT NOT NULL REFERENCES pos_terminals (id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX pos_displays_terminal ON pos_displays (terminal_id, created_at);
