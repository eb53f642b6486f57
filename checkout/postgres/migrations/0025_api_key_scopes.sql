-- API keys carry a scope: read (GET endpoints only) or write (everything the API offers).
-- Keys made before scopes existed could do everything: they are write keys, so that every
-- integration keeps working. A key also records who made it and the address of its last use.

ALTER TABLE api_keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'write' CHECK (scope IN ('read', 'write'));
ALTER TABLE api_keys ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
ALTER TABLE api_keys ADD COLUMN last_used_address TEXT NOT NULL DEFAULT '';
