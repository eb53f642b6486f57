package sandbox

import (
	"net/http"
	"slices"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// depositTransitions is the deposit state machine: the states each state may move to. The
// spec lists the states but not the transitions; this table is the sandbox's choice (see the
// package doc). FAILED → PAID is allowed only for a deposit that failed because its QR code
// expired (a late payment is still accepted); canMoveDeposit checks that guard.
var depositTransitions = map[gc.DepositStatus][]gc.DepositStatus{
	gc.DepositPending:              {gc.DepositPaid, gc.DepositFailed, gc.DepositPendingCompliance},
	gc.DepositPixQRCodeGenerated:   {gc.DepositPaid, gc.DepositFailed, gc.DepositPendingCompliance},
	gc.DepositPixKeyGenerated:      {gc.DepositPaid, gc.DepositFailed, gc.DepositPendingCompliance},
	gc.DepositPaid:                 {gc.DepositProcessingRefund, gc.DepositBlocked, gc.DepositPendingCompliance},
	gc.DepositProcessingRefund:     {gc.DepositRefunded},
	gc.DepositBlocked:              {gc.DepositProcessingInfraction, gc.DepositPaid},
	gc.DepositProcessingInfraction: {gc.DepositInfraction, gc.DepositPaid},
	gc.DepositPendingCompliance:    {gc.DepositPending, gc.DepositPixQRCodeGenerated, gc.DepositPixKeyGenerated, gc.DepositPaid, gc.DepositFailed},
	gc.DepositFailed:               {gc.DepositPaid},
	gc.DepositRefunded:             nil,
	gc.DepositInfraction:           nil,
}

// withdrawalTransitions is the withdrawal state machine (the sandbox's choice, see the
// package doc).
var withdrawalTransitions = map[gc.WithdrawalStatus][]gc.WithdrawalStatus{
	gc.WithdrawalPending:           {gc.WithdrawalProcessing, gc.WithdrawalCanceled, gc.WithdrawalRejected, gc.WithdrawalFailed, gc.WithdrawalPendingCompliance},
	gc.WithdrawalPendingCompliance: {gc.WithdrawalPending, gc.WithdrawalRejected},
	gc.WithdrawalProcessing:        {gc.WithdrawalProcessed, gc.WithdrawalFailed},
	gc.WithdrawalProcessed:         {gc.WithdrawalRefunded},
	gc.WithdrawalFailed:            nil,
	gc.WithdrawalCanceled:          nil,
	gc.WithdrawalRejected:          nil,
	gc.WithdrawalRefunded:          nil,
}

// canMoveDeposit reports whether d may move to the state to.
func canMoveDeposit(d *gc.Deposit, to gc.DepositStatus) bool {
	if !slices.Contains(depositTransitions[d.Status], to) {
		return false
	}
	if d.Status == gc.DepositFailed && to == gc.DepositPaid {
		return d.ErrorMessage == expiredReason
	}
	return true
}

// canMoveWithdrawal reports whether a withdrawal in state from may move to the state to.
func canMoveWithdrawal(from, to gc.WithdrawalStatus) bool {
	return slices.Contains(withdrawalTransitions[from], to)
}

// conflictStatus is the answer to a refused transition. 409 is the sandbox's choice: the
// request is well formed but does not fit the record's current state.
const conflictStatus = http.StatusConflict

// refused is the error of an impossible transition.
func refused(kind, from, to string) *apiError {
	return newAPIError(conflictStatus, "cannot move %s from %s to %s", kind, from, to)
}
