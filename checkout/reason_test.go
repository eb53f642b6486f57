package checkout_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestReasonWords: every code prints its English words; a note prints as it is.
func TestReasonWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r    checkout.Reason
		text string
	}{
		{checkout.Reason{Code: checkout.ReasonOrderPlaced}, "order placed"},
		{checkout.Reason{Code: checkout.ReasonQRGenerated}, "qr code generated"},
		{checkout.Reason{Code: checkout.ReasonQRRenewed, Attempt: 4}, "new qr code (attempt 4)"},
		{checkout.Reason{Code: checkout.ReasonDeposit, DepositStatus: "PAID"}, "deposit PAID"},
		{checkout.Reason{Code: checkout.ReasonDeposit, DepositStatus: "PAID", Paid: 3000, Amount: 2990},
			"deposit PAID (overpaid: 3000 cents paid for 2990)"},
		{checkout.Reason{Code: checkout.ReasonDeposit, DepositStatus: "FAILED", Detail: "limit: exceeded: try later"},
			"deposit FAILED: limit: exceeded: try later"},
		{checkout.Reason{Code: checkout.ReasonLatePayment}, "late payment"},
		{checkout.Reason{Code: checkout.ReasonLatePayment, Paid: 5000, Amount: 2990}, "late payment (overpaid: 5000 cents paid for 2990)"},
		{checkout.Reason{Code: checkout.ReasonUnderpaid, Paid: 1, Amount: 2990}, "underpaid: 1 of 2990 cents paid"},
		{checkout.Reason{Code: checkout.ReasonPaidTwice, Paid: 2990, DepositID: "dep-1"}, "paid twice: refund 2990 cents (deposit dep-1)"},
		{checkout.Reason{Code: checkout.ReasonQRExpired}, "qr expired"},
		{checkout.Reason{Code: checkout.ReasonQRExpired, DepositStatus: "FAILED"}, "qr expired (deposit FAILED)"},
		{checkout.Reason{Code: checkout.ReasonQRExpired, DepositStatus: "FAILED", Detail: "expired"}, "qr expired (deposit FAILED: expired)"},
		{checkout.Reason{Code: checkout.ReasonGatewayRefused, Detail: "gatewayclient: 422: amount"}, "gateway refused the transaction: gatewayclient: 422: amount"},
		{checkout.Reason{Code: checkout.ReasonNoTransaction}, "the gateway answered without a transaction id"},
		{checkout.Reason{Code: checkout.ReasonNoPixCode}, "the gateway answered without a PIX code"},
		{checkout.Reason{Code: checkout.ReasonAmountMismatch, Asked: 100, Amount: 2990}, "the transaction amount 100 differs from the order amount 2990"},
		{checkout.Reason{Code: checkout.ReasonBRCodeInvalid, Detail: "brcode: bad CRC"}, "the PIX code does not decode: brcode: bad CRC"},
		{checkout.Reason{Code: checkout.ReasonBRCodeAmount, Asked: 100, Amount: 2990}, "the PIX code is for 100 cents, the order for 2990"},
		{checkout.Note("a merchant's note"), "a merchant's note"},
		// Notes that look like words of a code print as they are.
		{checkout.Note("deposit paid by hand"), "deposit paid by hand"},
		{checkout.Note("new qr code (attempt two)"), "new qr code (attempt two)"},
		{checkout.Note("underpaid: some of it"), "underpaid: some of it"},
		{checkout.Note("late payment (it happens)"), "late payment (it happens)"},
		{checkout.Note("qr expired (deposit failed)"), "qr expired (deposit failed)"},
	} {
		if got := c.r.String(); got != c.text {
			t.Errorf("%#v prints %q, want %q", c.r, got, c.text)
		}
	}
	seen := map[checkout.ReasonCode]bool{}
	for _, c := range checkout.ReasonCodes() {
		if c == checkout.ReasonNone || seen[c] {
			t.Errorf("code %q listed twice or empty", c)
		}
		seen[c] = true
	}
}
