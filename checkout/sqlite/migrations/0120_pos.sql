-- The point of sale (issue 36).
--
-- The role cashier joins the roles a user and an invitation may hold. SQLite cannot alter a
-- CHECK constraint, and rebuilding dashboard_users would cascade the deletion of every table
-- that references it (sign-ins, alerts, resets): the constraint's text is widened in place,
-- as SQLite documents for loosening a CHECK (every stored row still satisfies it). The Go step
-- of this migration then bumps schema_version, so that every connection reloads the schema.
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, '''operator'', ''viewer''))', '''operator'', ''viewer'', ''cashier''))')
    WHERE type = 'table' AND name IN ('dashboard_users', 'dashboard_invitations');
PRAGMA writable_schema = RESET;

-- Terminals ("Caixa 1", "Caixa 2"): made, renamed and archived by owners; a sale belongs to
-- one. An archived terminal keeps its sales and takes no new one. A new install has one.
CREATE TABLE pos_terminals (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    archived_at INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE UNIQUE INDEX pos_terminals_name ON pos_terminals (name) WHERE archived_at = 0;

INSERT INTO pos_terminals (id, name, created_at, updated_at)
    VALUES ('caixa-1', 'Caixa 1', CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000);

-- Which terminals a cashier may use, beside the role's permissions (team.Permissions): a
-- cashier without rows may use every terminal, until an owner narrows them to some.
CREATE TABLE pos_cashier_terminals (
    user_id TEXT NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    terminal_id TEXT NOT NULL REFERENCES pos_terminals (id),
    PRIMARY KEY (user_id, terminal_id)
);

-- The point of sale's settings: how long a sale's QR code lives, and how long a cashier's
-- session may stay idle (the shift), in seconds.
CREATE TABLE pos_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    qr_seconds INTEGER NOT NULL,
    idle_seconds INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- A sale is an order of channel pos, made at a terminal by a cashier (a dashboard user's id;
-- '' for the orders of other channels).
ALTER TABLE orders ADD COLUMN terminal_id TEXT NOT NULL DEFAULT '';
ALTER TABLE orders ADD COLUMN cashier_id TEXT NOT NULL DEFAULT '';

CREATE INDEX orders_terminal ON orders (terminal_id, created_at) WHERE terminal_id <> '';
CREATE INDEX orders_cashier ON orders (cashier_id, created_at) WHERE cashier_id <> '';
