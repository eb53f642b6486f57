-- The schedule of the e-mail reminders of charges with due dates (issue 35), as the merchant
-- set it in the settings: a JSON object (charges.Reminders); '' when never set, which is the
-- default schedule (when issued, 3 days before, on the due date, 1, 3 and 7 days overdue).
ALTER TABLE merchant_settings ADD COLUMN charge_reminders TEXT NOT NULL DEFAULT '';
