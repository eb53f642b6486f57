package email

import (
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
)

// The shopper's e-mails about an order: its receipt once paid, and the news of its life after
// (see OrderMail). Each says the order's number and links to the order's page, which follows
// the order live.

// ReceiptMail is the receipt of a paid order: what the paid page shows, as a message to keep.
type ReceiptMail struct {
	Number   string // the order's number, e.g. "PX-7K3M9QZ2"
	Name     string // the shopper's name, as typed
	OrderURL string // the order's page, under the public URL
	Lines    []views.SummaryLine
	Shipping views.ShippingLine // included in Amount
	Amount   checkout.Cents
	PaidAt   time.Time
	EndToEnd string // the PIX transfer's end-to-end id, "" when the gateway did not say it
	Late     bool   // paid after the QR code's deadline, and received
	// Payee is who was paid, as the shopper's bank shows it: the legal name (the store's name
	// when empty) and document.
	Payee views.Merchant
}

// ReceiptSubject is a receipt's subject.
func ReceiptSubject(f Frame, m ReceiptMail) string {
	return f.T("email.receipt.subject", m.Number, f.StoreName)
}

// payee is who was paid: the legal name (else the store's name), and its document when valid.
func (m ReceiptMail) payee(f Frame) string {
	name := m.Payee.LegalName
	if name == "" {
		name = f.StoreName
	}
	if doc := m.document(); doc != "" {
		return name + ", " + doc
	}
	return name
}

// document is the payee's CNPJ or CPF, labelled and punctuated ("CNPJ 11.222.333/0001-81"), or
// "" when there is none valid.
func (m ReceiptMail) document() string {
	kind := brdoc.ClassifyDocument(m.Payee.Document)
	if kind == brdoc.DocumentInvalid {
		return ""
	}
	return kind.String() + " " + brdoc.FormatDocument(m.Payee.Document)
}

// paidAt is when it was paid, in Brasília, saying so.
func (m ReceiptMail) paidAt(f Frame) string {
	return views.FormatDateTime(f.Lang, m.PaidAt) + " (" + f.T("time.zone") + ")"
}

// shippingText is the shipping's price, or "free".
func (m ReceiptMail) shippingText(f Frame) string {
	if m.Shipping.Amount <= 0 {
		return f.T("shipping.free")
	}
	return views.FormatMoney(f.Lang, m.Shipping.Amount)
}

// greeting is "Olá, Ana!" with the shopper's first name, or "Olá!" without a name.
func greeting(f Frame, name string) string {
	if first := strings.Fields(name); len(first) > 0 {
		return f.T("email.hello_name", first[0])
	}
	return f.T("email.hello")
}

// ReceiptText is a receipt's plain text.
func ReceiptText(f Frame, m ReceiptMail) string {
	var b strings.Builder
	b.WriteString(greeting(f, m.Name) + "\n\n" + f.T("paid.thanks", m.Number) + "\n")
	if m.Late {
		b.WriteString(f.T("paid.late") + "\n")
	}
	b.WriteString("\n" + f.T("summary.title") + "\n")
	for _, l := range m.Lines {
		b.WriteString("  " + f.T("summary.line", l.Quantity, l.Title) + ": " + views.FormatMoney(f.Lang, l.LineTotal) + "\n")
	}
	if m.Shipping.Physical {
		b.WriteString("  " + f.T("email.receipt.shipping") + ": " + m.shippingText(f) + "\n")
	}
	b.WriteString("  " + f.T("cart.total") + ": " + views.FormatMoney(f.Lang, m.Amount) + "\n\n")
	b.WriteString(f.T("email.receipt.payee") + ": " + m.payee(f) + "\n")
	for _, line := range m.Payee.AddressLines() {
		b.WriteString("  " + line + "\n")
	}
	b.WriteString(f.T("paid.paid_at") + ": " + m.paidAt(f) + "\n")
	if m.EndToEnd != "" {
		b.WriteString(f.T("paid.e2e") + ": " + m.EndToEnd + "\n")
	}
	b.WriteString("\n" + f.T("email.order.follow") + "\n" + m.OrderURL + "\n" + TextFooter(f))
	return b.String()
}

// NewsMail is a shopper's e-mail about their order other than the receipt (the order placed,
// shipped, delivered, canceled, money returned or to return): a heading, paragraphs, facts
// (a label and its value: the carrier, the tracking code…), a code to copy (the PIX code), and
// links, each under the public URL. Its words are the caller's, in the frame's language.
type NewsMail struct {
	Heading    string
	Name       string // the shopper's name, as typed
	Paragraphs []string
	Facts      []Fact
	// Code is text to copy as it is (the PIX copy-and-paste code), "" none; CodeLabel names it.
	Code, CodeLabel string
	Links           []Link
}

// Fact is a label and its value.
type Fact struct{ Label, Value string }

// Link is a link's address (under the public URL) and its text.
type Link struct{ URL, Text string }

// NewsText is a news e-mail's plain text.
func NewsText(f Frame, m NewsMail) string {
	var b strings.Builder
	b.WriteString(greeting(f, m.Name) + "\n\n")
	for _, p := range m.Paragraphs {
		b.WriteString(p + "\n\n")
	}
	for _, x := range m.Facts {
		b.WriteString(x.Label + ": " + x.Value + "\n")
	}
	if len(m.Facts) > 0 {
		b.WriteString("\n")
	}
	if m.Code != "" {
		b.WriteString(m.CodeLabel + ":\n" + m.Code + "\n\n")
	}
	for _, l := range m.Links {
		b.WriteString(l.Text + ":\n" + l.URL + "\n")
	}
	return b.String() + TextFooter(f)
}
