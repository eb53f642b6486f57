package checkout

import (
	"errors"
	"time"
)

// Observer is told of what the Service and its Reconciler do, for an operator's metrics. Each
// call is made by the process that did the work, after it was stored (an order changed by
// another instance is counted there, once); it must be quick and must not block.
type Observer interface {
	// Placement: placing an order of channel took d and ended as outcome (PlacementQRReady,
	// ...); created is true when the order was stored for the first time (not a replay of the
	// same submission).
	Placement(d time.Duration, channel Channel, outcome string, created bool)
	// StatusChanged: this process moved an order from one status to another.
	StatusChanged(from, to OrderStatus)
	// ReconcilePass: a reconciliation pass ended as result (err with PassError), having
	// applied found payments that no webhook had brought.
	ReconcilePass(found int, result PassResult, err error)
}

// PassResult is how a reconciliation pass ended (Observer.ReconcilePass).
type PassResult string

// The results of a reconciliation pass. Skipped and standby are apart so that an alert on
// passes skipped because the gateway fails does not fire on the instances that merely wait
// while another one reconciles.
const (
	PassOK      PassResult = "ok"      // made
	PassError   PassResult = "error"   // failed to list orders or deposits
	PassSkipped PassResult = "skipped" // the gateway fails: no call was made, or the pass stopped
	PassStandby PassResult = "standby" // another instance holds the reconciler's lease
)

// PassResults are every result, for a metric to start each at zero.
func PassResults() []PassResult { return []PassResult{PassOK, PassError, PassSkipped, PassStandby} }

// Placement outcomes (Observer.Placement).
const (
	PlacementQRReady = "qr_ready" // the QR code is ready
	PlacementPending = "pending"  // stored; the QR code comes later (gateway down or pacing)
	PlacementFailed  = "failed"   // the gateway refused the transaction
	PlacementInvalid = "invalid"  // refused before anything was stored (a payment link's places taken too)
	PlacementError   = "error"    // anything else
)

// placementOutcome names how a placement ended.
func placementOutcome(res *Order, err error) string {
	switch {
	case res != nil && res.Status == StatusAwaitingPayment:
		return PlacementQRReady
	case res != nil && res.Status == StatusPending:
		return PlacementPending
	case res != nil && res.Status == StatusFailed:
		return PlacementFailed
	case ErrorCode(err) == CodeInvalid, errors.Is(err, ErrLinkFull):
		return PlacementInvalid
	}
	return PlacementError
}
