package email

import (
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// The merchant's alerts: e-mails to the dashboard's users about the shop, each leading to the
// dashboard's page behind it (Link, under the public URL). They carry no shopper's personal
// data: the page behind shows what the reader's role may see.

// PaidAlert is a paid order's alert.
type PaidAlert struct {
	Number string
	Amount checkout.Cents
	PaidAt time.Time
	Link   string // the order's dashboard page
}

// RefundDueAlert is a refund due's alert: a payment to return (paid twice, after a cancel,
// beyond a payment link's maximum).
type RefundDueAlert struct {
	Number string
	Amount checkout.Cents // this payment, to return
	Reason string         // checkout.ReasonCode: paid_twice, paid_after_cancel, link_beyond_cap
	At     time.Time
	Link   string // the refunds' page
}

// GatewayAlert is the gateway's outage (Recovered zero: failing still) or its end.
type GatewayAlert struct {
	Cause     string // health.Cause ("server_error", …)
	Since     time.Time
	Recovered time.Time
	Link      string // the deposits' page
}

// ExportAlert is a background export's alert: ready to download.
type ExportAlert struct {
	Kind      string // deposits, withdrawals, orders, audit
	Rows      int
	ExpiresAt time.Time
	Link      string // the export's page
}

// SummaryAlert is the daily summary: a São Paulo day's paid orders and money, as the overview
// counts them.
type SummaryAlert struct {
	Day   time.Time // the day's first instant
	Money checkout.MoneyTotals
	// Orders are the day's paid orders, the first of them (Money.Received.Orders counts all).
	Orders   []PaidAlert
	OrdersAt string // the list of the day's paid orders
	Overview string // the overview
	// Reconciliation is the day's reconciliation page ("": the recipient may not open it, and
	// the summary says nothing of it); Divergences, its rows with a divergence between the
	// gateway's deposits and the orders, or -1 when the gateway could not be read.
	Reconciliation string
	Divergences    int
}

// reconciled says the day's divergences with the gateway ("" when the summary has none to say).
func (m SummaryAlert) reconciled(f Frame) string {
	switch {
	case m.Reconciliation == "":
		return ""
	case m.Divergences < 0:
		return f.T("alert.summary.recon_unknown")
	case m.Divergences == 0:
		return f.T("alert.summary.recon_none")
	case m.Divergences == 1:
		return f.T("alert.summary.recon_one")
	}
	return f.T("alert.summary.recon_n", views.FormatCount(f.Lang, m.Divergences))
}

// PaidSubject is a paid order's subject.
func PaidSubject(f Frame, m PaidAlert) string {
	return f.T("alert.paid.subject", m.Number, views.FormatMoney(f.Lang, m.Amount))
}

// PaidText is a paid order's plain text.
func PaidText(f Frame, m PaidAlert) string {
	return PaidSubject(f, m) + "\n\n" + f.T("alert.paid.body", m.Number, views.FormatMoney(f.Lang, m.Amount),
		views.FormatDateTime(f.Lang, m.PaidAt)) + "\n\n" + m.Link + "\n" + alertFooter(f)
}

// RefundDueSubject is a refund due's subject.
func RefundDueSubject(f Frame, m RefundDueAlert) string {
	return f.T("alert.refund.subject", m.Number, views.FormatMoney(f.Lang, m.Amount))
}

// refundWhy says why the payment is to return.
func (m RefundDueAlert) why(f Frame) string { return f.T("alert.refund.why." + m.Reason) }

// RefundDueText is a refund due's plain text.
func RefundDueText(f Frame, m RefundDueAlert) string {
	return RefundDueSubject(f, m) + "\n\n" + m.why(f) + "\n" + f.T("alert.refund.body", views.FormatMoney(f.Lang, m.Amount)) +
		"\n\n" + m.Link + "\n" + alertFooter(f)
}

// GatewaySubject is the gateway alert's subject.
func GatewaySubject(f Frame, m GatewayAlert) string {
	if m.Recovered.IsZero() {
		return f.T("alert.gateway.failing_subject", f.StoreName)
	}
	return f.T("alert.gateway.back_subject", f.StoreName)
}

// body is what the gateway alert says.
func (m GatewayAlert) body(f Frame) string {
	if m.Recovered.IsZero() {
		cause := "dash.gateway_cause." + m.Cause
		if !views.HasKey(cause) {
			cause = "dash.gateway_cause.other"
		}
		return f.T("alert.gateway.failing_body", views.FormatDateTime(f.Lang, m.Since)) + " " + f.T(cause)
	}
	minutes := int(m.Recovered.Sub(m.Since).Round(time.Minute) / time.Minute)
	return f.T("alert.gateway.back_body", views.FormatDateTime(f.Lang, m.Since), views.FormatDateTime(f.Lang, m.Recovered), minutes)
}

// GatewayText is the gateway alert's plain text.
func GatewayText(f Frame, m GatewayAlert) string {
	return GatewaySubject(f, m) + "\n\n" + m.body(f) + "\n\n" + m.Link + "\n" + alertFooter(f)
}

// ExportSubject is an export alert's subject.
func ExportSubject(f Frame, m ExportAlert) string { return f.T("alert.export.subject", m.kind(f)) }

func (m ExportAlert) kind(f Frame) string {
	if k := "alert.export.kind." + m.Kind; views.HasKey(k) {
		return f.T(k)
	}
	return m.Kind
}

// body is what the export alert says.
func (m ExportAlert) body(f Frame) string {
	return f.T("alert.export.body", m.kind(f), views.FormatCount(f.Lang, m.Rows), views.FormatDateTime(f.Lang, m.ExpiresAt))
}

// ExportText is an export alert's plain text.
func ExportText(f Frame, m ExportAlert) string {
	return ExportSubject(f, m) + "\n\n" + m.body(f) + "\n\n" + m.Link + "\n" + alertFooter(f)
}

// SummarySubject is the daily summary's subject.
func SummarySubject(f Frame, m SummaryAlert) string {
	return f.T("alert.summary.subject", m.day(f), m.Money.Received.Orders, views.FormatMoney(f.Lang, m.Money.Net()))
}

func (m SummaryAlert) day(f Frame) string {
	if f.Lang == views.En {
		return m.Day.Format("Jan 2")
	}
	return m.Day.Format("02/01")
}

// summaryLine is one figure of the summary: its label and value.
type summaryLine struct{ Label, Value string }

// lines are the summary's money, as the overview says it.
func (m SummaryAlert) lines(f Frame) []summaryLine {
	money := func(t checkout.PaidTotal) string {
		return views.FormatMoney(f.Lang, t.Amount) + " · " + f.T("alert.summary.orders", t.Orders)
	}
	fees := views.FormatMoney(f.Lang, m.Money.Fees.Amount)
	if m.Money.FeeUnknown > 0 {
		fees += " · " + f.T("alert.summary.fee_unknown", m.Money.FeeUnknown)
	}
	return []summaryLine{
		{f.T("alert.summary.received"), money(m.Money.Received)},
		{f.T("alert.summary.refunded"), money(m.Money.Refunded)},
		{f.T("alert.summary.fees"), fees},
		{f.T("alert.summary.net"), views.FormatMoney(f.Lang, m.Money.Net())},
	}
}

// more is how many paid orders the summary does not list.
func (m SummaryAlert) more() int { return max(m.Money.Received.Orders-len(m.Orders), 0) }

// SummaryText is the daily summary's plain text.
func SummaryText(f Frame, m SummaryAlert) string {
	var b strings.Builder
	b.WriteString(SummarySubject(f, m) + "\n\n")
	for _, l := range m.lines(f) {
		b.WriteString(l.Label + ": " + l.Value + "\n")
	}
	b.WriteString("\n" + f.T("alert.summary.paid_orders") + "\n")
	if len(m.Orders) == 0 {
		b.WriteString(f.T("alert.summary.none") + "\n")
	}
	for _, o := range m.Orders {
		b.WriteString(o.Number + "  " + views.FormatMoney(f.Lang, o.Amount) + "  " + views.FormatClock(f.Lang, o.PaidAt) + "  " + o.Link + "\n")
	}
	if n := m.more(); n > 0 {
		b.WriteString(f.T("alert.summary.more", views.FormatCount(f.Lang, n)) + "\n")
	}
	b.WriteString("\n" + f.T("alert.summary.all_orders") + ": " + m.OrdersAt + "\n" + f.T("alert.summary.overview") + ": " + m.Overview + "\n")
	if r := m.reconciled(f); r != "" {
		b.WriteString("\n" + f.T("alert.summary.recon") + ": " + r + "\n" + m.Reconciliation + "\n")
	}
	return b.String() + alertFooter(f)
}

// alertFooter ends every alert's text: why it came, where to change it, and the frame's footer.
func alertFooter(f Frame) string {
	return "\n" + f.T("alert.why", f.URL("/dashboard/account")) + "\n" + TextFooter(f)
}
