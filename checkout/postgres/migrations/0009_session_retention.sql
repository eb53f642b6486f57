-- The retention sweep deletes checkout sessions that expired long ago without an order: find
-- them by their expiry.

CREATE INDEX checkout_sessions_expires_at ON checkout_sessions (expires_at);
