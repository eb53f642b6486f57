-- An API key carries the personal-data right (documents and phones in full, the data-subject
-- routes) only when its maker has it. Keys made before roles existed (no maker recorded: every
-- user was an owner then), keys made on the server's shell and keys of owners carry it; the
-- others do not.

ALTER TABLE api_keys ADD COLUMN personal_data BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE api_keys SET personal_data = TRUE
WHERE created_by IN ('', 'cli') OR created_by IN (SELECT email FROM dashboard_users WHERE role = 'owner');
