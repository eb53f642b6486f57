-- The point of sale (issue 36).
--
-- The role cashier joins the roles a user and an invitation may hold.
ALTER TABLE dashboard_users DROP CONSTRAINT dashboard_users_role_check,
    ADD CONSTRAINT dashboard_users_role_check CHECK (role IN ('owner', 'developer', 'operator', 'viewer', 'cashier'));
ALTER TABLE dashboard_invitations DROP CONSTRAINT dashboard_invitations_role_check,
    ADD CONSTRAINT dashboard_invitations_role_check CHECK (role IN ('owner', 'developer', 'operator', 'viewer', 'cashier'));

-- Terminals ("Caixa 1", "Caixa 2"): made, renamed and archived by owners; a sale belongs to
-- one. An archived terminal keeps its sales and takes no new one. A new install has one.
CREATE TABLE pos_terminals (
    id text PRIMARY KEY,
    name text NOT NULL,
    archived_at bigint DEFAULT 0 NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL
);

CREATE UNIQUE INDEX pos_terminals_name ON pos_terminals (name) WHERE archived_at = 0;

INSERT INTO pos_terminals (id, name, created_at, updated_at)
    VALUES ('caixa-1', 'Caixa 1', (extract(epoch FROM now()) * 1000)::bigint, (extract(epoch FROM now()) * 1000)::bigint);

-- Which terminals a cashier may use, beside the role's permissions (team.Permissions): a
-- cashier without rows may use every terminal, until an owner narrows them to some.
CREATE TABLE pos_cashier_terminals (
    user_id text NOT NULL REFERENCES dashboard_users (id) ON DELETE CASCADE,
    terminal_id text NOT NULL REFERENCES pos_terminals (id),
    PRIMARY KEY (user_id, terminal_id)
);

-- The point of sale's settings: how long a sale's QR code lives, and how long a cashier's
-- session may stay idle (the shift), in seconds.
CREATE TABLE pos_settings (
    id integer PRIMARY KEY CHECK (id = 1),
    qr_seconds integer NOT NULL,
    idle_seconds integer NOT NULL,
    updated_at bigint NOT NULL
);

-- A sale is an order of channel pos, made at a terminal by a cashier (a dashboard user's id;
-- '' for the orders of other channels).
ALTER TABLE orders ADD COLUMN terminal_id text DEFAULT ''::text NOT NULL;
ALTER TABLE orders ADD COLUMN cashier_id text DEFAULT ''::text NOT NULL;

CREATE INDEX orders_terminal ON orders (terminal_id, created_at) WHERE terminal_id <> '';
CREATE INDEX orders_cashier ON orders (cashier_id, created_at) WHERE cashier_id <> '';
