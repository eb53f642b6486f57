package checkout

import (
	"fmt"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ReasonCode says, in a stable code, why an order's state changed (an entry of its history) or
// why a payment attempt failed. The code and the Reason's parameters are stored; the words are
// the reader's: the dashboard renders them in its language, the merchant API in English
// (Reason.String).
type ReasonCode string

// Reason codes. The parameters of each are named beside it.
const (
	ReasonNone           ReasonCode = ""                  // no code: Detail alone (a note stored before codes)
	ReasonOrderPlaced    ReasonCode = "order_placed"      // the shopper placed the order
	ReasonQRGenerated    ReasonCode = "qr_generated"      // the first QR code is ready
	ReasonQRRenewed      ReasonCode = "qr_renewed"        // Attempt: a new QR code is ready
	ReasonDeposit        ReasonCode = "deposit"           // DepositStatus, Detail (the gateway's message), Paid > Amount when overpaid
	ReasonLatePayment    ReasonCode = "late_payment"      // paid after the QR code's deadline; Paid > Amount when overpaid
	ReasonUnderpaid      ReasonCode = "underpaid"         // Paid of Amount
	ReasonPaidTwice      ReasonCode = "paid_twice"        // Paid (to refund) through DepositID
	ReasonQRExpired      ReasonCode = "qr_expired"        // DepositStatus and Detail when the gateway reported it
	ReasonGatewayRefused ReasonCode = "gateway_refused"   // Detail: the gateway's (or the client's) error
	ReasonNoTransaction  ReasonCode = "no_transaction_id" // the gateway answered without a transaction id
	ReasonNoPixCode      ReasonCode = "no_pix_code"       // the gateway answered without a PIX code
	ReasonAmountMismatch ReasonCode = "amount_mismatch"   // the transaction asks Asked, the order is Amount
	ReasonBRCodeInvalid  ReasonCode = "brcode_invalid"    // Detail: why the PIX code does not decode
	ReasonBRCodeAmount   ReasonCode = "brcode_amount"     // the PIX code asks Asked, the order is Amount
	// ReasonLinkBeyondCap: paid through a payment link after its every place was taken (the
	// QR code's place had gone to another payer); Paid is to refund.
	ReasonLinkBeyondCap ReasonCode = "link_beyond_cap"
	// The merchant's actions (fulfilment.go); each is recorded with who did it in the audit log.
	ReasonShipped         ReasonCode = "order_shipped"     // Carrier, TrackingCode
	ReasonDelivered       ReasonCode = "order_delivered"   // delivered to the shopper
	ReasonCanceled        ReasonCode = "order_canceled"    // canceled before it was paid
	ReasonNoteAdded       ReasonCode = "note_added"        // Detail: the internal note (never shown to shoppers nor sent out); Key
	ReasonRefundRecorded  ReasonCode = "refund_recorded"   // Paid (refunded), EndToEnd, On: a refund made outside the checkout
	ReasonPaidAfterCancel ReasonCode = "paid_after_cancel" // Paid (to refund) through DepositID: paid after the order was canceled
)

// Announced reports whether an entry of the history with this code, one that leaves the
// order's state as it was, is announced to the merchant as an event of its own (EventType).
func (c ReasonCode) Announced() bool {
	return c == ReasonShipped || c == ReasonDelivered || c == ReasonRefundRecorded
}

// ReasonCodes lists every code but ReasonNone, for documentation and tests.
func ReasonCodes() []ReasonCode {
	return []ReasonCode{ReasonOrderPlaced, ReasonQRGenerated, ReasonQRRenewed, ReasonDeposit, ReasonLatePayment,
		ReasonUnderpaid, ReasonPaidTwice, ReasonQRExpired, ReasonGatewayRefused, ReasonNoTransaction,
		ReasonNoPixCode, ReasonAmountMismatch, ReasonBRCodeInvalid, ReasonBRCodeAmount, ReasonLinkBeyondCap,
		ReasonShipped, ReasonDelivered, ReasonCanceled, ReasonNoteAdded, ReasonRefundRecorded, ReasonPaidAfterCancel}
}

// Reason is why an order's state changed, or why an attempt failed: a code and its parameters
// (the JSON fields, stored beside the code), plus Detail, text that no code can hold: the
// gateway's own message, or the whole reason of an entry stored before codes (Code ReasonNone).
type Reason struct {
	Code          ReasonCode                  `json:"-"`
	Attempt       int                         `json:"attempt,omitempty"`
	DepositStatus gatewayclient.DepositStatus `json:"depositStatus,omitempty"`
	DepositID     string                      `json:"depositId,omitempty"`
	Paid          gatewayclient.Cents         `json:"paid,omitempty"`
	Asked         gatewayclient.Cents         `json:"asked,omitempty"`
	Amount        gatewayclient.Cents         `json:"amount,omitempty"`
	Carrier       string                      `json:"carrier,omitempty"`
	TrackingCode  string                      `json:"trackingCode,omitempty"`
	EndToEnd      string                      `json:"endToEnd,omitempty"`
	On            string                      `json:"on,omitempty"`  // a date, YYYY-MM-DD (São Paulo)
	Key           string                      `json:"key,omitempty"` // the request key of a merchant's action, for retries
	Detail        string                      `json:"-"`
}

// Note is a reason without code: text shown as it is.
func Note(text string) Reason { return Reason{Detail: text} }

// IsZero reports whether r says nothing.
func (r Reason) IsZero() bool { return r == Reason{} }

// Overpaid reports whether a payment reason records more paid than the order's amount.
func (r Reason) Overpaid() bool { return r.Amount > 0 && r.Paid > r.Amount }

// String is the reason in English, in the words stored before codes existed (the merchant
// API's history "reason" keeps them, and logs use them); "" for the zero Reason.
func (r Reason) String() string {
	for _, text := range []func() (string, bool){r.paymentText, r.gatewayText, r.fulfilmentText} {
		if s, ok := text(); ok {
			return s
		}
	}
	return r.Detail
}

// paymentText words the reasons about the shopper's payment: its QR codes and deposits.
func (r Reason) paymentText() (string, bool) {
	switch r.Code {
	case ReasonOrderPlaced:
		return "order placed", true
	case ReasonQRGenerated:
		return "qr code generated", true
	case ReasonQRRenewed:
		return fmt.Sprintf("new qr code (attempt %d)", r.Attempt), true
	case ReasonDeposit:
		return "deposit " + string(r.DepositStatus) + withDetail(r.Detail) + r.overpaidText(), true
	case ReasonLatePayment:
		return "late payment" + r.overpaidText(), true
	case ReasonUnderpaid:
		return fmt.Sprintf("underpaid: %d of %d cents paid", int64(r.Paid), int64(r.Amount)), true
	case ReasonPaidTwice:
		return fmt.Sprintf("paid twice: refund %d cents (deposit %s)", int64(r.Paid), r.DepositID), true
	case ReasonQRExpired:
		if r.DepositStatus == "" {
			return "qr expired", true
		}
		return "qr expired (deposit " + string(r.DepositStatus) + withDetail(r.Detail) + ")", true
	case ReasonLinkBeyondCap:
		return fmt.Sprintf("paid beyond the payment link's maximum of payments: refund %d cents", int64(r.Paid)), true
	case ReasonPaidAfterCancel:
		return fmt.Sprintf("paid after it was canceled: refund %d cents (deposit %s)", int64(r.Paid), r.DepositID), true
	}
	return "", false
}

// gatewayText words the reasons about what the gateway answered when asked for a charge.
func (r Reason) gatewayText() (string, bool) {
	switch r.Code {
	case ReasonGatewayRefused:
		return "gateway refused the transaction: " + r.Detail, true
	case ReasonNoTransaction:
		return "the gateway answered without a transaction id", true
	case ReasonNoPixCode:
		return "the gateway answered without a PIX code", true
	case ReasonAmountMismatch:
		return fmt.Sprintf("the transaction amount %d differs from the order amount %d", int64(r.Asked), int64(r.Amount)), true
	case ReasonBRCodeInvalid:
		return "the PIX code does not decode: " + r.Detail, true
	case ReasonBRCodeAmount:
		return fmt.Sprintf("the PIX code is for %d cents, the order for %d", int64(r.Asked), int64(r.Amount)), true
	}
	return "", false
}

// fulfilmentText words the reasons about what the merchant did with the order.
func (r Reason) fulfilmentText() (string, bool) {
	switch r.Code {
	case ReasonShipped:
		return "shipped with " + r.Carrier + ", tracking code " + r.TrackingCode, true
	case ReasonDelivered:
		return "delivered", true
	case ReasonCanceled:
		return "canceled by the merchant", true
	case ReasonNoteAdded:
		return "internal note", true // the note's text stays in the dashboard
	case ReasonRefundRecorded:
		return fmt.Sprintf("refund of %d cents recorded (made on %s, end-to-end id %s)", int64(r.Paid), r.On, r.EndToEnd), true
	}
	return "", false
}

func withDetail(d string) string {
	if d == "" {
		return ""
	}
	return ": " + d
}

func (r Reason) overpaidText() string {
	if !r.Overpaid() {
		return ""
	}
	return fmt.Sprintf(" (overpaid: %d cents paid for %d)", int64(r.Paid), int64(r.Amount))
}
