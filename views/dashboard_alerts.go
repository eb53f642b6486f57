package views

// AlertsView is the account page's choice of e-mail alerts.
type AlertsView struct {
	Action string // POST: paid (off, each, daily), alert (repeated: refund_due, gateway, export), lang
	Paid   string // merchant.PaidMode
	// On says which of the other alerts are chosen, Allowed which the user's role may receive
	// (by kind: paid, refund_due, gateway, export).
	On, Allowed map[string]bool
	Lang        string // the e-mails' language
	NoServer    bool   // no SMTP server: the alerts stay in the e-mail log
}

// alertChecks are the alerts chosen by a checkbox, and their labels' keys.
var alertChecks = []struct{ Kind, Key string }{
	{"refund_due", "account.alerts_refund_due"},
	{"gateway", "account.alerts_gateway"},
	{"export", "account.alerts_export"},
}

// paidModes are the choices of paid orders, and their labels' keys.
var paidModes = []struct{ Mode, Key string }{
	{"off", "account.alerts_paid_off"},
	{"each", "account.alerts_paid_each"},
	{"daily", "account.alerts_paid_daily"},
}
