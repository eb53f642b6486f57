package views

import "github.com/pixcheckout/pixcheckout/checkout"

// ChargeRemindersView is the settings' form of the schedule of the charges' e-mail reminders:
// the values as stored or as typed, and their errors by input name (reminder_before,
// reminder_after).
type ChargeRemindersView struct {
	Action         string // POST: reminder_issued, reminder_before, reminder_due, reminder_after, reminder_lang
	OnIssue, OnDue bool
	Before, After  string // days, "3" or "1, 3, 7"
	Lang           Lang
	Errors         checkout.ValidationError
}
