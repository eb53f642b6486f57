package checkout

import "github.com/pixcheckout/pixcheckout/gatewayclient"

// OrderStatus is the state of an order.
type OrderStatus string

// Order states.
const (
	// StatusPending: the order and its first attempt are written; the gateway has not answered
	// yet (or its answer was lost). EnsurePayment resolves it.
	StatusPending OrderStatus = "pending"
	// StatusAwaitingPayment: a QR code is shown and not expired.
	StatusAwaitingPayment OrderStatus = "awaiting_payment"
	// StatusPaid: the deposit was paid (possibly late: see Order.LatePayment).
	StatusPaid OrderStatus = "paid"
	// StatusExpired: the QR code expired unpaid. The shopper may ask for a new one; a late
	// payment of the old one still makes the order paid.
	StatusExpired OrderStatus = "expired"
	// StatusFailed: the gateway refused the transaction, its BR Code did not match the order, or
	// the deposit failed. The shopper may ask for a new QR code (a new attempt).
	StatusFailed OrderStatus = "failed"
	// StatusUnderReview: the gateway holds the deposit (compliance review, infraction, MED block).
	StatusUnderReview OrderStatus = "under_review"
	// StatusRefunding: a refund of the paid deposit is in progress.
	StatusRefunding OrderStatus = "refunding"
	// StatusRefunded: the deposit was refunded (by the merchant or through a MED). Final.
	StatusRefunded OrderStatus = "refunded"
	// StatusCanceled: the merchant canceled the order before it was paid (Service.CancelOrder):
	// its QR code is no longer shown and no new one is made. Final: a payment that still
	// arrives leaves it canceled, with the amount as a refund due (ReasonPaidAfterCancel).
	StatusCanceled OrderStatus = "canceled"
)

// OrderStatuses lists every order state.
func OrderStatuses() []OrderStatus {
	return []OrderStatus{StatusPending, StatusAwaitingPayment, StatusPaid, StatusExpired, StatusFailed,
		StatusUnderReview, StatusRefunding, StatusRefunded, StatusCanceled}
}

// Valid reports whether s is an order state.
func (s OrderStatus) Valid() bool {
	_, ok := transitions[s]
	return ok
}

// WasPaid reports whether an order in state s was paid: paid, or refunding or refunded since.
// The shopper's receipt is shown for these.
func (s OrderStatus) WasPaid() bool {
	return s == StatusPaid || s == StatusRefunding || s == StatusRefunded
}

// Final reports whether no transition leaves s.
func (s OrderStatus) Final() bool {
	return s.Valid() && len(transitions[s]) == 0
}

// depositToOrder maps every deposit state of the spec to the order state it means.
var depositToOrder = map[gatewayclient.DepositStatus]OrderStatus{
	gatewayclient.DepositPending:              StatusAwaitingPayment, // created, not yet processed: still payable
	gatewayclient.DepositPixQRCodeGenerated:   StatusAwaitingPayment,
	gatewayclient.DepositPixKeyGenerated:      StatusAwaitingPayment, // generated through a PIX key: payable
	gatewayclient.DepositPaid:                 StatusPaid,
	gatewayclient.DepositPendingCompliance:    StatusUnderReview,
	gatewayclient.DepositProcessingInfraction: StatusUnderReview,
	gatewayclient.DepositBlocked:              StatusUnderReview, // a MED was opened
	gatewayclient.DepositProcessingRefund:     StatusRefunding,
	gatewayclient.DepositRefunded:             StatusRefunded,
	gatewayclient.DepositInfraction:           StatusRefunded, // refunded through MED
	gatewayclient.DepositFailed:               StatusFailed,
}

// MapDepositStatus returns the order state a deposit state means, or "" for a state the spec
// does not know (such a deposit changes nothing).
func MapDepositStatus(s gatewayclient.DepositStatus) OrderStatus {
	return depositToOrder[s]
}

// transitions is the table of allowed order transitions. Transitions move forward only; the
// two ways back to awaiting_payment (from expired and from failed) happen only when the shopper
// asks for a new QR code, that is a new attempt (Service.RegenerateQR), never because of a
// deposit update. Paid may be reached from every non-final state but refunding and refunded: a
// payment after expiry or failure is still money received (Order.LatePayment flags it). A paid
// order goes under review when a MED is opened on its deposit (BLOCKED): the merchant must not
// ship meanwhile; the MED ends with the deposit paid again or refunded (INFRACTION). The
// merchant may cancel an order that is not paid and not being made (awaiting payment, expired
// or failed): canceled is final.
var transitions = map[OrderStatus][]OrderStatus{
	StatusPending:         {StatusAwaitingPayment, StatusPaid, StatusExpired, StatusFailed, StatusUnderReview, StatusRefunding, StatusRefunded},
	StatusAwaitingPayment: {StatusPaid, StatusExpired, StatusFailed, StatusUnderReview, StatusRefunding, StatusRefunded, StatusCanceled},
	StatusExpired:         {StatusAwaitingPayment, StatusPaid, StatusUnderReview, StatusRefunding, StatusRefunded, StatusCanceled},
	StatusFailed:          {StatusAwaitingPayment, StatusPaid, StatusUnderReview, StatusRefunding, StatusRefunded, StatusCanceled},
	StatusUnderReview:     {StatusPaid, StatusFailed, StatusRefunding, StatusRefunded},
	StatusPaid:            {StatusUnderReview, StatusRefunding, StatusRefunded},
	StatusRefunding:       {StatusRefunded},
	StatusRefunded:        {},
	StatusCanceled:        {},
}

// CanTransition reports whether an order may move from one state to another. Staying in the
// same state is not a transition.
func CanTransition(from, to OrderStatus) bool {
	for _, s := range transitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// renewal reports whether from -> to is one of the transitions reserved for a new attempt.
func renewal(from, to OrderStatus) bool {
	return to == StatusAwaitingPayment && (from == StatusExpired || from == StatusFailed)
}
