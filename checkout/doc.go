// Package checkout is the domain of the PIX checkout: the catalogue, carts, orders and their
// payment through the gateway.
//
// # Orders and attempts
//
// An order snapshots its cart (lines at catalogue prices), the customer and the address. Each
// request for a QR code is an Attempt with its own idempotency key; the first attempt is written
// together with the order, in one store transaction, before the gateway is called. A retry of the
// same attempt (a double click, a lost answer, a crash) reuses the key, so the gateway replays
// the transaction it made instead of making another. A new QR code after expiry is a new
// attempt with a new key.
//
// Before an attempt becomes active its BR Code is decoded and its amount compared with the
// order's: a mismatch fails the attempt (and the order), and its QR code is never shown. The
// shopper may ask for a new QR code (RegenerateQR), as after an expiry.
//
// # States
//
// Order states and their meaning are documented on OrderStatus; the deposit states of the
// gateway map to them through MapDepositStatus and the allowed moves are the table behind
// CanTransition. Orders move forward only. Payments always win: a payment after expiry, after
// a failure or of a replaced QR code still makes the order paid, flagged LatePayment.
//
// # Decisions
//
//   - Input is checked with the gateway client's own validation before anything is stored;
//     violations come back as *ValidationError keyed by form field (FormField).
//   - Every text taken (checkout sessions, the customer form, products, and through package
//     merchant API key names, e-mails and notification URLs) follows one rule, CheckText: no
//     control characters and no invisible text-direction marks, refused with CodeText on the
//     field before any other rule, so that no order holds what a database refuses or what
//     disguises a text.
//   - When the gateway does not answer, PlaceOrder still returns the stored order, pending;
//     EnsurePayment (called by the PIX page and by the Reconciler) retries with the same key.
//   - A 422 of the gateway fails the attempt and the order, and is returned as *ValidationError,
//     also when the same form submission is replayed; the form is shown again with a new
//     request key. The cart is kept.
//   - A failed order, like an expired one, may get a new QR code (RegenerateQR): the way
//     forward after a refused BR Code or a failed deposit.
//   - A deposit FAILED after its QR code's expiry is an expiry, not a failure.
//
// # Payment links
//
// A PaymentLink is a stored checkout recipe with a public page; PlaceOrder places its
// orders (tagged Order.LinkID) through the same checks and attempts as a cart's. A link with a
// maximum of payments holds a place (LinkStore.HoldLinkPlace) before each PIX code is made,
// its own or a new one's (RegenerateQR): ErrLinkFull when none is left. A code paid after its
// place went to another payer still pays its order, flagged late with a refund due
// (ReasonLinkBeyondCap).
//
// # The merchant's actions
//
// MarkShipped, MarkDelivered, CancelOrder, AddNote and RecordRefund (fulfilment.go) are the
// merchant's: each checks its input whole, then changes the order with compare-and-set like
// every update, so that it happens once whatever the retries and instances; asking again for
// what is done changes nothing, asking for something else is refused (ErrAlreadyShipped, a
// refund beyond RefundDue). Canceled is final: the gateway cannot cancel a code, so a payment
// that still arrives leaves the order canceled with a refund due (ReasonPaidAfterCancel).
//
// # Following payments
//
// Webhooks are hints (HandleWebhook): the deposit is read again from the gateway and applied.
// The Reconciler does the same on a timer, so payments are seen with webhooks switched off.
// Subscribe delivers status changes to the pages in this process.
package checkout
