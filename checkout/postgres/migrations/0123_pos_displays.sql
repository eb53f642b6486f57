-- The customer's displays of the point of sale (issue 36).
--
-- A pairing code, shown on a terminal's screen, pairs a display with that terminal: six digits,
-- kept as their SHA-256 only, valid ten minutes and used once (used_at set by the pairing).
CREATE TABLE pos_display_codes (
    code_hash text PRIMARY KEY,
    terminal_id text NOT NULL REFERENCES pos_terminals (id),
    expires_at bigint NOT NULL,
    used_at bigint DEFAULT 0 NOT NULL,
    created_at bigint NOT NULL
);

CREATE INDEX pos_display_codes_expiry ON pos_display_codes (expires_at);

-- A paired display: its long-lived token is kept as its SHA-256 only; it shows its terminal's
-- current sale until an owner revokes it (revoked_at).
CREATE TABLE pos_displays (
    id text PRIMARY KEY,
    terminal_id text NOT NULL REFERENCES pos_terminals (id),
    token_hash text NOT NULL UNIQUE,
    created_at bigint NOT NULL,
    revoked_at bigint DEFAULT 0 NOT NULL
);

CREATE INDEX pos_displays_terminal ON pos_displays (terminal_id, created_at);

-- Every change of a sale is announced on the change feed's channel a second time, as the kind
-- "pos_terminal/" and its terminal's id (never an order's id: those are lower-case base32 with
-- no slash) with the order's version, so that every instance tells the displays of that
-- terminal, whose current sale it may be. A sale is announced from its insertion: the display
-- shows it the moment the cashier charges.
CREATE FUNCTION pos_terminal_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('checkout_orders', 'pos_terminal/' || NEW.terminal_id || ':' || NEW.version);
    RETURN NEW;
END;
$$;

CREATE TRIGGER pos_terminal_changed AFTER INSERT OR UPDATE ON orders
    FOR EACH ROW WHEN (NEW.terminal_id <> '') EXECUTE FUNCTION pos_terminal_changed();
