package views

// ResetRequestView is the page where someone who forgot their password asks for a link
// (/dashboard/password-reset): the form, or, once posted, the same answer whatever the e-mail.
type ResetRequestView struct {
	DashPage
	Action   string // POST target
	CSRF     string // the form's token (the visitor is not signed in: the session holds it)
	Email    string // as typed
	Sent     bool   // posted: the one answer, whether the e-mail is a user's or not
	LoginURL string
}

// ResetView is the page of a reset link, where the user chooses a new password.
type ResetView struct {
	DashPage
	Email  string // the user's, for password managers
	Action string // POST target: the link itself
	Error  string // the refused password, in words
}
