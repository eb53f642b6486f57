-- Roles of the dashboard's users (merchant.Permissions says what each may do) and the time of
-- each user's last sign-in. Users made before roles existed could do everything: they become
-- owners, so that nobody loses access by upgrading; new users always name their role.

ALTER TABLE dashboard_users ADD COLUMN role TEXT NOT NULL DEFAULT 'owner'
    CHECK (role IN ('owner', 'developer', 'operator', 'viewer'));
ALTER TABLE dashboard_users ALTER COLUMN role DROP DEFAULT;
ALTER TABLE dashboard_users ADD COLUMN last_sign_in_at BIGINT NOT NULL DEFAULT 0;

CREATE INDEX dashboard_users_role ON dashboard_users (role);
