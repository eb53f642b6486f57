-- An attempt keeps the start of the answer's body, printable, so that a delivery log shows
-- what the receiver said (a test notification's answer, a 2xx's body too).
ALTER TABLE webhook_attempts ADD COLUMN excerpt TEXT NOT NULL DEFAULT '';
