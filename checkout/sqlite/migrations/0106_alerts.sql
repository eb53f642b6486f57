-- The merchant's alerts (issue 33): which e-mails each dashboard user receives, chosen in
-- their own account (a user without a row gets the defaults of their role:
-- merchant.DefaultAlertPrefs); they die with their user.
CREATE TABLE alert_preferences (
    user_id TEXT PRIMARY KEY REFERENCES dashboard_users (id) ON DELETE CASCADE,
    paid TEXT NOT NULL,                     -- off, each (one e-mail per paid order) or daily (the summary at 08:00)
    refund_due INTEGER NOT NULL DEFAULT 0,
    gateway INTEGER NOT NULL DEFAULT 0,
    export INTEGER NOT NULL DEFAULT 0,
    lang TEXT NOT NULL,                     -- the e-mails' language: pt-BR or en
    updated_at INTEGER NOT NULL
);

-- The gateway's outages long enough to alert of (failing for more than five minutes), shared
-- by every instance so that an outage is alerted once, with one start (its e-mails' cause),
-- across restarts and instances. At most one is open (recovered_at 0) at a time.
CREATE TABLE gateway_outages (
    started_at INTEGER PRIMARY KEY,
    recovered_at INTEGER NOT NULL DEFAULT 0
);

CREATE UNIQUE INDEX gateway_outages_open ON gateway_outages (recovered_at) WHERE recovered_at = 0;
