package views

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// actionSamples renders the pages of the merchant's actions in lang: an order with every
// action's form (one refused beside its field), its fulfilment, refunds and every action's
// history entry; the refunds page with a payer of each kind; the overview's attention figures.
func actionSamples(lang Lang) map[string]templ.Component {
	at := time.Date(2026, 3, 1, 15, 4, 5, 0, time.UTC)
	v := OrderView{DashPage: dashSample(lang, "orders"), BackURL: "/dashboard/orders"}
	v.Order = OrderDetail{ID: "ord-1", Number: "PX-7K3M9QZ2", Status: "canceled", StatusText: StatusText(lang, checkout.StatusCanceled),
		Amount: 2990, RefundDue: 1990, LatePayment: true, Physical: true, CreatedAt: at, UpdatedAt: at}
	for _, r := range []checkout.Reason{{Code: checkout.ReasonShipped, Carrier: "Correios", TrackingCode: "AA123456789BR"},
		{Code: checkout.ReasonDelivered}, {Code: checkout.ReasonCanceled}, {Code: checkout.ReasonNoteAdded, Detail: "Ligar antes"},
		{Code: checkout.ReasonRefundRecorded, Paid: 1000, On: "2026-03-01", EndToEnd: "D12345678202603011504abcdefghijk"},
		{Code: checkout.ReasonPaidAfterCancel, Paid: 2990, DepositID: sampleEVP}} {
		v.History = append(v.History, HistoryView{From: "canceled", To: "canceled", FromText: StatusText(lang, checkout.StatusCanceled),
			ToText: StatusText(lang, checkout.StatusCanceled), At: at, Reason: r})
	}
	v.Actions = OrderActions{Write: true, CanShip: true, CanDeliver: true, CanCancel: true, CanRefund: true,
		ShipURL: "/s", DeliverURL: "/d", CancelURL: "/c", NoteURL: "/n", RefundURL: "/r", NoteKey: "k",
		Form: "refund", Values: map[string]string{"refundAmount": "99,00"}, Errors: checkout.ValidationError{Violations: []checkout.Violation{{Field: "refundAmount", Code: checkout.CodeMax, Message: T(lang, "actions.err.amount_max", FormatMoney(lang, 1990))}}},
		Physical: true, Carrier: "Correios", TrackingCode: "AA123456789BR", ShippedAt: at, DeliveredAt: at, RefundDue: 1990,
		Refunds: []checkout.RecordedRefund{{On: "2026-03-01", Amount: 1000, EndToEnd: "D12345678202603011504abcdefghijk", RecordedAt: at}},
		Today:   "2026-03-01", Notice: T(lang, "actions.done.refund")}
	pages := map[string]templ.Component{"order with actions": OrderPage(v)}
	refunds := RefundsView{DashPage: dashSample(lang, "refunds")}
	for i, h := range sampleHolders() {
		refunds.Rows = append(refunds.Rows, RefundDueRow{OrderID: "ord-" + string(rune('a'+i)), Number: "PX-7K3M9QZ2", OrderURL: "/o",
			Status: "paid", StatusText: StatusText(lang, checkout.StatusPaid), RefundDue: 2990,
			Payments: []DuePaymentView{{DepositID: sampleEVP, DepositURL: "/d", Amount: 2990, At: at, Payer: h,
				Reason: checkout.Reason{Code: checkout.ReasonPaidTwice, Paid: 2990, DepositID: sampleEVP}}},
			Form: OrderActions{Write: true, RefundURL: "/r", Today: "2026-03-01"}})
	}
	pages["refunds"] = RefundsPage(refunds)
	pages["overview"] = OverviewPage(OverviewView{DashPage: dashSample(lang, "overview"),
		Attention: AttentionView{RefundsDue: 2, RefundAmount: 5980, RefundsURL: "/r", AwaitingShipment: 3, AwaitingShipmentURL: "/o"}})
	return pages
}

// TestActionPagesSpeakOneLanguage: the pages of the merchant's actions show no stored code
// and no unformatted value, and no English on the pt-BR pages.
func TestActionPagesSpeakOneLanguage(t *testing.T) {
	t.Parallel()
	for _, lang := range Langs() {
		for name, c := range actionSamples(lang) {
			text := visibleText(render(t, c))
			for _, m := range rawCode.FindAllString(text, -1) {
				if !allowedCaps[m] {
					t.Errorf("%s, %s: the code %q is shown as it is stored", lang, name, m)
				}
			}
			for _, v := range bareValues {
				if strings.Contains(text, v) {
					t.Errorf("%s, %s: %q is shown unformatted", lang, name, v)
				}
			}
			if lang == PtBR {
				for _, w := range []string{"shipped", "delivered", "refund", "note", "canceled", "tracking"} {
					if strings.Contains(strings.ToLower(text), w) {
						t.Errorf("%s: English %q in the pt-BR page: …%s…", name, w, around(text, w))
					}
				}
			}
		}
	}
}
