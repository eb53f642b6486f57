-- E-mail (issue 33): the addresses an SMTP server refused for good (a 5xx to RCPT TO, a hard
-- bounce). Nothing more is sent to them until an owner clears the address in the e-mail log.
-- The messages themselves are in the outbox (component "outbox", channel 'smtp').

CREATE TABLE mail_suppressions (
    address TEXT PRIMARY KEY,
    reply TEXT NOT NULL,
    created_at INTEGER NOT NULL
) WITHOUT ROWID;
