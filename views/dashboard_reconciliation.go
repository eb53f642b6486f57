package views

import (
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ReconView is the reconciliation page: a period's deposits of the gateway beside the shop's
// orders, their totals on both sides, the divergences by kind and the rows.
type ReconView struct {
	DashPage
	// Filter holds the period (from, to: São Paulo dates) and the kind listed alone, as typed,
	// with their errors and the date presets.
	Filter FilterView
	Banner *GatewayBanner // the gateway failed
	Failed string         // the period cannot be reconciled (too large, the store failed)
	Ran    bool           // the period was reconciled: the figures below are its
	From   time.Time      // the period's first and last São Paulo days
	To     time.Time
	// Money are the overview's figures of the period: the checkout's, then the gateway's, each
	// linked to the list behind it.
	Money []MoneyColumn
	// Outside are the deposits paid with no order of this checkout.
	Outside    PaidFigure
	OutsideURL string
	Kinds      []ReconKind // the divergences, each with its count and the rows of that kind alone
	AllURL     string      // every row
	Kind       string      // the kind listed alone ("" every row)
	Divergent  int         // rows with at least one divergence
	Unchecked  int         // orders whose deposit was not read (too many to read one by one)
	Rows       []ReconRowView
	More       int // rows left out of the page (the export holds them)
	CSVURL     string
	Exports    MyExports
}

// ReconKind is one kind of divergence: its key ("outside", "state", "amount", "refund",
// "fee", "extra"), how many rows have it, and the page listing them alone.
type ReconKind struct {
	Key     string
	Count   int
	URL     string
	Current bool
}

// ReconRowView is one row: a deposit and its order, either possibly missing.
type ReconRowView struct {
	Issues []string // the divergences' keys; none: they agree
	// The deposit ("" DepositID: the gateway shows none).
	DepositID, DepositURL string
	DepositStatus         string // the gateway's code
	PaymentDate           time.Time
	Paid, GatewayRefund   checkout.Cents
	Fee                   *checkout.Cents
	// The order ("" OrderID: none of this checkout).
	OrderID, OrderNumber, OrderURL string
	OrderStatus                    checkout.OrderStatus
	OrderAmount, RefundHere        checkout.Cents
	OrderFee                       *checkout.Cents
	MatchedBy                      string // "id" or "externalCode"
	Checked                        bool   // false: the order's deposit was not read
}

// reconSummary is the line above the figures: the period and how many rows diverge.
func reconSummary(v ReconView) string {
	period := FormatDay(v.Lang, v.From.Format(time.DateOnly))
	if !v.To.Equal(v.From) {
		period = v.t("recon.period_range", FormatDay(v.Lang, v.From.Format(time.DateOnly)), FormatDay(v.Lang, v.To.Format(time.DateOnly)))
	}
	if v.Divergent == 0 {
		return v.t("recon.summary_none", period)
	}
	return v.t("recon.summary", period, v.count(v.Divergent))
}

// joinIssues is a row's divergences as one attribute ("state amount").
func joinIssues(issues []string) string { return strings.Join(issues, " ") }

// depositStatusOf is a deposit state's code as its type.
func depositStatusOf(s string) gatewayclient.DepositStatus { return gatewayclient.DepositStatus(s) }

// feeText is a fee, or "unknown" when nil (never zero: the gateway did not say it).
func feeText(p DashPage, c *checkout.Cents) string {
	if c == nil {
		return p.t("recon.fee_unknown")
	}
	return p.money(*c)
}

// reconKindPrefix starts the catalogue's key of each divergence ("recon.kind.outside").
const reconKindPrefix = "recon.kind."
