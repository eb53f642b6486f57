package views

import "time"

// MailView is the e-mail log's page: the messages, newest first, paged by key, and the
// suppressed addresses.
type MailView struct {
	DashPage
	Rows         []MailRow
	State, To    string   // the filter in force
	States       []string // every state, for the filter
	FilterAction string   // GET target of the filter
	NewerURL     string   // the previous page, "" on the first
	OlderURL     string   // the next page, "" on the last
	// NoServer: no SMTP server is configured; messages are kept, not sent.
	NoServer     bool
	TestAction   string // POST target of "send a test e-mail" ("" without the right)
	TestTo       string // where the test e-mail goes (the user's own address)
	Suppressed   []SuppressedRow
	ClearAction  string // POST target of clearing an address ("" without the right)
	Notice       string // said after an action (aria-live)
	Failed       string
	PersonalData bool // recipients and bodies in full; otherwise masked
}

// MailRow is one message of the e-mail log.
type MailRow struct {
	ID        int64
	URL       string // the message's page
	To        string // masked without the personal-data right
	Subject   string
	Type      string
	State     string // queued, sent, failed, notsent
	Reason    string // the last failure, the server's reply
	CreatedAt time.Time
	UpdatedAt time.Time
}

// SuppressedRow is an address on the suppression list.
type SuppressedRow struct {
	Address string // masked without the personal-data right
	Reply   string
	At      time.Time
}

// MailMessageView is one message of the e-mail log in full.
type MailMessageView struct {
	DashPage
	MailRow
	MessageID    string
	MessageLang  string // the message's language
	Attempts     int
	Text         string // the plain-text body ("" when masked)
	HTMLURL      string // the HTML body as a sandboxed document ("" when masked)
	ResendAction string // POST target of resending ("" when it cannot be)
	BackURL      string
	Masked       bool // the body holds personal data the user may not see
	SecretLink   bool // the body carries a live sign-in link: shown to no one
	Notice       string
}
