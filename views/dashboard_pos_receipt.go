package views

import (
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// ReceiptWidths are the widths, in millimetres, of the thermal printers' paper the point of
// sale's receipt is made for.
var ReceiptWidths = []int{58, 80}

// POSReceiptView is a paid sale's receipt, printed through the browser's print dialog on a
// thermal printer's roll of Width millimetres (ticket.css's named pages).
type POSReceiptView struct {
	DashPage
	Width    int
	Number   string
	Lines    []POSReceiptLine
	Amount   checkout.Cents
	PaidAt   time.Time
	EndToEnd string
	Terminal string
	Cashier  string
	// CustomerDocument is the CPF the cashier typed for the receipt ("" none).
	CustomerDocument string
	// AutoPrint opens the print dialog as the page loads (the sale's "print" button).
	AutoPrint bool
	// Where its links go: the sale, and the receipt at each width.
	BackURL   string
	WidthURLs map[int]string
}

// POSReceiptLine is one line of a receipt: a product (or the keypad's description), its
// quantity, unit price and total.
type POSReceiptLine struct {
	Title     string
	Quantity  int
	UnitPrice checkout.Cents
	Total     checkout.Cents
}

// page is the named page (ticket.css) of the receipt's width.
func (v POSReceiptView) page() string { return "t" + strconv.Itoa(v.Width) }

// POSSendReceipt is the paid sale's "send the receipt": printed, by e-mail, by WhatsApp.
type POSSendReceipt struct {
	// PrintURLs are the receipt's page at each width, opening the print dialog.
	PrintURLs map[int]string
	// MailAction is the e-mail form's POST target ("": no e-mail sent from here); MailTo the
	// address as typed, MailError its problem, MailSent that it was queued.
	MailAction, MailTo, MailError string
	MailSent                      bool
	// WhatsAppURL opens WhatsApp with the message and the order page's link, the contact to be
	// chosen there; WhatsAppAction is the form's target that opens it to a phone typed, Phone
	// and PhoneError the phone as typed and its problem.
	WhatsAppURL, WhatsAppAction, Phone, PhoneError string
}
