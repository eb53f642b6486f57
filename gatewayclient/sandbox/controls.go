package sandbox

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// DepositAction names a simulation control of a deposit (POST sandbox/deposits/{id}/{action}).
type DepositAction string

// Deposit controls. Each moves the deposit one step; see the package doc for the paths.
const (
	ActionPay        DepositAction = "pay"        // → PAID (optional amountPaid, payer)
	ActionFail       DepositAction = "fail"       // → FAILED (optional errorMessage)
	ActionExpire     DepositAction = "expire"     // PIX_QRCODE_GENERATED → FAILED "QR code expired"
	ActionRefund     DepositAction = "refund"     // PAID → PROCESSING_REFUND → REFUNDED (optional refundAmount)
	ActionInfraction DepositAction = "infraction" // PAID → BLOCKED → PROCESSING_INFRACTION → INFRACTION; outcome "reject" → PAID
	ActionCompliance DepositAction = "compliance" // → PENDING_COMPLIANCE; outcome "approve" → back, "reject" → FAILED
)

// DepositControl is the optional JSON body of a deposit control.
type DepositControl struct {
	AmountPaid   *gc.Cents         `json:"amountPaid,omitempty"`   // pay: default the deposit amount
	Payer        *gc.AccountHolder `json:"payer,omitempty"`        // pay: default a generated payer
	ErrorMessage string            `json:"errorMessage,omitempty"` // fail: default "payment failed"
	RefundAmount *gc.Cents         `json:"refundAmount,omitempty"` // refund (first step): default amountPaid
	Outcome      string            `json:"outcome,omitempty"`      // infraction: "reject"; compliance: "approve" or "reject"
}

// handleDepositControl is POST sandbox/deposits/{id}/{action}.
func (s *Sandbox) handleDepositControl(w http.ResponseWriter, r *http.Request, p principal) {
	var body DepositControl
	if err := decodeControlBody(r, &body); err != nil {
		s.respondError(w, r, err)
		return
	}
	d, err := s.ControlDeposit(r.Context(), p.clientID, r.PathValue("id"), DepositAction(r.PathValue("action")), body)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// beforeReview is the target of the compliance approval: the state the deposit held before
// its review (stateBeforeCompliance).
const beforeReview gc.DepositStatus = "its state before compliance review"

// depositControl is one control of a deposit (an action, with an outcome for infraction and
// compliance) and the moves it makes: from each state it accepts, the state it moves to.
// Every move is one of depositTransitions; from any other state the control is refused
// with 409, and the console offers it only from the states listed here.
type depositControl struct {
	action  DepositAction
	outcome string
	label   string // the console's button
	moves   map[gc.DepositStatus]gc.DepositStatus
}

// depositControls is every deposit control. FAILED → PAID (pay) is further limited by
// canMoveDeposit to deposits whose QR code expired.
var depositControls = []depositControl{
	{ActionPay, "", "pay", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositPending: gc.DepositPaid, gc.DepositPixQRCodeGenerated: gc.DepositPaid,
		gc.DepositPixKeyGenerated: gc.DepositPaid, gc.DepositFailed: gc.DepositPaid}},
	{ActionFail, "", "fail", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositPending: gc.DepositFailed, gc.DepositPixQRCodeGenerated: gc.DepositFailed,
		gc.DepositPixKeyGenerated: gc.DepositFailed}},
	{ActionExpire, "", "expire", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositPixQRCodeGenerated: gc.DepositFailed}},
	{ActionRefund, "", "refund", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositPaid: gc.DepositProcessingRefund, gc.DepositProcessingRefund: gc.DepositRefunded}},
	{ActionInfraction, "", "infraction", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositPaid: gc.DepositBlocked, gc.DepositBlocked: gc.DepositProcessingInfraction,
		gc.DepositProcessingInfraction: gc.DepositInfraction}},
	{ActionInfraction, "reject", "reject MED", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositBlocked: gc.DepositPaid, gc.DepositProcessingInfraction: gc.DepositPaid}},
	{ActionCompliance, "", "compliance", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositPending: gc.DepositPendingCompliance, gc.DepositPixQRCodeGenerated: gc.DepositPendingCompliance,
		gc.DepositPixKeyGenerated: gc.DepositPendingCompliance, gc.DepositPaid: gc.DepositPendingCompliance}},
	{ActionCompliance, "approve", "approve", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositPendingCompliance: beforeReview}},
	{ActionCompliance, "reject", "reject", map[gc.DepositStatus]gc.DepositStatus{
		gc.DepositPendingCompliance: gc.DepositFailed}},
}

// findDepositControl returns the control of action with outcome.
func findDepositControl(action DepositAction, outcome string) (depositControl, bool) {
	for _, c := range depositControls {
		if c.action == action && c.outcome == outcome {
			return c, true
		}
	}
	return depositControl{}, false
}

// target returns where c moves d, or the 409 when c does not move deposits in d's state.
func (c depositControl) target(d *gc.Deposit) (gc.DepositStatus, error) {
	to, ok := c.moves[d.Status]
	if !ok {
		return "", c.refusal(d.Status)
	}
	if to == beforeReview {
		to = stateBeforeCompliance(d)
	}
	return to, nil
}

// refusal is the 409 of c on a deposit in state from: it names the move the control makes
// and the states it accepts.
func (c depositControl) refusal(from gc.DepositStatus) *apiError {
	var to gc.DepositStatus
	var accepted []string
	for _, st := range gc.DepositStatuses() { // a stable order
		if t, ok := c.moves[st]; ok {
			accepted = append(accepted, string(st))
			if to == "" {
				to = t
			}
		}
	}
	name := string(c.action)
	if c.outcome != "" {
		name += ` with outcome "` + c.outcome + `"`
	}
	e := refused("deposit", string(from), string(to))
	e.message = fmt.Sprintf("%s: %s applies to deposits in %s only", e.message, name, strings.Join(accepted, ", "))
	return e
}

// allowed reports whether c may act on d now.
func (c depositControl) allowed(d *gc.Deposit) bool {
	to, err := c.target(d)
	return err == nil && canMoveDeposit(d, to)
}

// applyFunc fills the fields that come with a move of d at now (d still holds its old
// state) and returns the date of the new statusHistory entry.
type applyFunc func(d *gc.Deposit, now time.Time, r *rand.Rand) (time.Time, error)

// ControlDeposit applies a simulation control to the deposit id of clientID and returns the
// record as GET /deposit/{id} shows it. A control on a deposit in a state it does not move
// is refused with a 409 whose message reads "cannot move deposit from X to Y: …".
func (s *Sandbox) ControlDeposit(ctx context.Context, clientID, id string, action DepositAction, body DepositControl) (gc.Deposit, error) {
	if !brdoc.ValidUUID(id) {
		return gc.Deposit{}, violation(gc.KindValidation, "id", gc.CodeUUID, "must be a UUID")
	}
	id = strings.ToLower(id)
	var apply applyFunc
	switch action {
	case ActionPay:
		a, err := payApply(body)
		if err != nil {
			return gc.Deposit{}, err
		}
		apply = a
	case ActionFail:
		msg := body.ErrorMessage
		if msg == "" {
			msg = "payment failed"
		}
		apply = func(d *gc.Deposit, now time.Time, _ *rand.Rand) (time.Time, error) {
			d.ErrorMessage = msg
			return now, nil
		}
	case ActionExpire:
		return s.changeDeposit(ctx, clientID, id, expireChange(true))
	case ActionRefund:
		apply = refundApply(body.RefundAmount)
	case ActionInfraction:
		if body.Outcome != "" && body.Outcome != "reject" {
			return gc.Deposit{}, violation(gc.KindValidation, "outcome", gc.CodeEnum, `must be "reject" or empty`)
		}
		apply = infractionApply(body.Outcome == "reject")
	case ActionCompliance:
		if body.Outcome != "" && body.Outcome != "approve" && body.Outcome != "reject" {
			return gc.Deposit{}, violation(gc.KindValidation, "outcome", gc.CodeEnum, `must be "approve", "reject" or empty`)
		}
		apply = complianceApply(body.Outcome)
	default:
		return gc.Deposit{}, newAPIError(http.StatusNotFound, "unknown deposit control %q: use pay, fail, expire, refund, infraction or compliance", action)
	}
	c, _ := findDepositControl(action, body.Outcome)
	return s.changeDeposit(ctx, clientID, id, depositChange{target: c.target, apply: apply})
}

func payApply(body DepositControl) (applyFunc, error) {
	var vs []gc.Violation
	if body.AmountPaid != nil && (*body.AmountPaid < gc.MinAmount || *body.AmountPaid > gc.MaxAmount) {
		vs = append(vs, gc.Violation{Field: "amountPaid", Code: gc.CodeMin, Message: fmt.Sprintf("must be between %d and %d", gc.MinAmount, gc.MaxAmount)})
	}
	if body.Payer != nil {
		vs = append(vs, payerViolations(body.Payer)...)
	}
	if len(vs) > 0 {
		return nil, &gc.ValidationError{Kind: gc.KindValidation, Violations: vs}
	}
	return func(d *gc.Deposit, now time.Time, r *rand.Rand) (time.Time, error) {
		paid := d.Amount
		if body.AmountPaid != nil {
			paid = *body.AmountPaid
		}
		payer := randomHolder(r)
		if body.Payer != nil {
			controlledPayer(payer, body.Payer)
		}
		d.AmountPaid = &paid
		d.PaymentDate = now
		d.Payer = payer
		d.EndToEnd = endToEndID(r, "E", payer.BankAccount.ISPB, now)
		f := fee(paid)
		d.FeeAmount = &f
		d.PaymentReceipt = receipt("payment", d.EndToEnd, now)
		// A late payment keeps errorMessage "QR code expired", so the record shows it was
		// paid after its QR code expired.
		return now, nil
	}, nil
}

// expireChange moves a deposit awaiting payment to FAILED because its QR code expired. Manual
// (the expire control) expires it now; otherwise (the sweep) only once expirationDate has
// passed, dated at the expiration.
func expireChange(manual bool) depositChange {
	c, _ := findDepositControl(ActionExpire, "")
	return depositChange{
		target: c.target,
		apply: func(d *gc.Deposit, now time.Time, _ *rand.Rand) (time.Time, error) {
			d.ErrorMessage = expiredReason
			if d.PixResponse == nil {
				return now, nil
			}
			if manual || d.PixResponse.ExpirationDate.After(now) {
				if !manual {
					return now, refused("deposit", string(d.Status), string(gc.DepositFailed)+" (not expired yet)")
				}
				d.PixResponse.ExpirationDate = now
				return now, nil
			}
			return d.PixResponse.ExpirationDate, nil
		},
	}
}

// refundApply fills the fields of the refund moves: PAID → PROCESSING_REFUND records
// refundAmount (by default the amount paid, and at most that); PROCESSING_REFUND → REFUNDED
// adds refundDate, endToEndRefund and refundReceipt.
func refundApply(amount *gc.Cents) applyFunc {
	return func(d *gc.Deposit, now time.Time, r *rand.Rand) (time.Time, error) {
		if d.Status == gc.DepositProcessingRefund {
			refundDone(d, now, r)
			return now, nil
		}
		ra := paidAmount(d)
		if amount != nil {
			if *amount < 1 || *amount > ra {
				return now, violation(gc.KindValidation, "refundAmount", gc.CodeMax,
					fmt.Sprintf("must be between 1 and the amount paid (%d)", ra))
			}
			ra = *amount
		}
		d.RefundAmount = &ra
		return now, nil
	}
}

// infractionApply fills the fields of the MED moves: at PROCESSING_INFRACTION → INFRACTION
// the money goes back (refund fields). The other moves — to BLOCKED, to
// PROCESSING_INFRACTION, and back to PAID when the MED is rejected — change only the state.
func infractionApply(reject bool) applyFunc {
	return func(d *gc.Deposit, now time.Time, r *rand.Rand) (time.Time, error) {
		if !reject && d.Status == gc.DepositProcessingInfraction {
			refundDone(d, now, r)
		}
		return now, nil
	}
}

// refundDone fills the fields of money gone back to the payer at now: refundDate,
// endToEndRefund and refundReceipt, and refundAmount (the amount paid) unless the refund's
// request set it.
func refundDone(d *gc.Deposit, now time.Time, r *rand.Rand) {
	if d.RefundAmount == nil {
		ra := paidAmount(d)
		d.RefundAmount = &ra
	}
	d.RefundDate = now
	d.EndToEndRefund = endToEndID(r, "D", sandboxISPB, now)
	d.RefundReceipt = receipt("refund", d.EndToEndRefund, now)
}

// complianceApply fills the fields of the compliance moves: a rejection records why the
// deposit failed.
func complianceApply(outcome string) applyFunc {
	return func(d *gc.Deposit, now time.Time, _ *rand.Rand) (time.Time, error) {
		if outcome == "reject" {
			d.ErrorMessage = "rejected by compliance review"
		}
		return now, nil
	}
}

// stateBeforeCompliance is the state d held before its last move to PENDING_COMPLIANCE.
func stateBeforeCompliance(d *gc.Deposit) gc.DepositStatus {
	h := d.StatusHistory
	for i := len(h) - 1; i > 0; i-- {
		if h[i].Status == string(gc.DepositPendingCompliance) {
			return gc.DepositStatus(h[i-1].Status)
		}
	}
	return gc.DepositPending
}

// paidAmount is what was paid for d: amountPaid, or the amount when not recorded.
func paidAmount(d *gc.Deposit) gc.Cents {
	if d.AmountPaid != nil {
		return *d.AmountPaid
	}
	return d.Amount
}

// isDigits reports whether s is exactly n ASCII digits.
func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// payerViolations checks the payer a pay control names.
func payerViolations(h *gc.AccountHolder) []gc.Violation {
	var vs []gc.Violation
	bad := func(field, code, msg string) {
		vs = append(vs, gc.Violation{Field: field, Code: code, Message: msg})
	}
	if strings.TrimSpace(h.Name) == "" {
		bad("payer.name", gc.CodeRequired, "is required")
	}
	if !brdoc.ValidDocument(h.Document) {
		bad("payer.document", gc.CodeDocument, "must be a valid CPF or CNPJ")
	}
	if h.Type != "" && h.Type != gc.HolderPF && h.Type != gc.HolderPJ {
		bad("payer.type", gc.CodeEnum, "must be one of: PF, PJ")
	}
	// The ISPB goes into endToEnd, whose BCB format needs exactly 8 digits.
	if isp := h.BankAccount.ISPB; isp != "" && !isDigits(isp, 8) {
		bad("payer.bankAccount.ispb", gc.CodeFormat, "must be 8 digits")
	}
	if k := h.Pix.Key; k != "" && !brdoc.ValidPixKey(k) {
		bad("payer.pix.key", gc.CodePixKey, "must be a CPF, CNPJ, e-mail, phone (+55…) or EVP key")
	}
	return vs
}

// controlledPayer sets on the generated payer what the pay control says of it: its name and
// document (its type follows the document), its bank's ISPB and its PIX key if given.
func controlledPayer(payer, h *gc.AccountHolder) {
	payer.Name = h.Name
	payer.Document = brdoc.NormalizeDocument(h.Document)
	payer.Type = gc.HolderPF
	if brdoc.ClassifyDocument(h.Document) == brdoc.DocumentCNPJ {
		payer.Type = gc.HolderPJ
	}
	if h.BankAccount.ISPB != "" {
		payer.BankAccount = h.BankAccount
	}
	if key, kind, ok := brdoc.NormalizePixKey(h.Pix.Key); ok {
		payer.Pix = gc.PixKey{Key: key, Type: gc.PixKeyType(kind)} // the type follows the key
	}
}
