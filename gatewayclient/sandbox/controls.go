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

// ControlDeposit applies a simulation control to the deposit id of clientID and returns the
// record as GET /deposit/{id} shows it. A transition the state machine refuses is an error
// whose message reads "cannot move deposit from X to Y".
func (s *Sandbox) ControlDeposit(ctx context.Context, clientID, id string, action DepositAction, body DepositControl) (gc.Deposit, error) {
	if !brdoc.ValidUUID(id) {
		return gc.Deposit{}, violation(gc.KindValidation, "id", gc.CodeUUID, "must be a UUID")
	}
	id = strings.ToLower(id)
	var ch depositChange
	switch action {
	case ActionPay:
		c, err := payChange(body)
		if err != nil {
			return gc.Deposit{}, err
		}
		ch = c
	case ActionFail:
		msg := body.ErrorMessage
		if msg == "" {
			msg = "payment failed"
		}
		ch = fixedChange(gc.DepositFailed, func(d *gc.Deposit, now time.Time, _ *rand.Rand) (time.Time, error) {
			d.ErrorMessage = msg
			return now, nil
		})
	case ActionExpire:
		ch = expireChange(true)
	case ActionRefund:
		ch = refundChange(body.RefundAmount)
	case ActionInfraction:
		if body.Outcome != "" && body.Outcome != "reject" {
			return gc.Deposit{}, violation(gc.KindValidation, "outcome", gc.CodeEnum, `must be "reject" or empty`)
		}
		ch = infractionChange(body.Outcome == "reject")
	case ActionCompliance:
		if body.Outcome != "" && body.Outcome != "approve" && body.Outcome != "reject" {
			return gc.Deposit{}, violation(gc.KindValidation, "outcome", gc.CodeEnum, `must be "approve", "reject" or empty`)
		}
		ch = complianceChange(body.Outcome)
	default:
		return gc.Deposit{}, newAPIError(http.StatusNotFound, "unknown deposit control %q: use pay, fail, expire, refund, infraction or compliance", action)
	}
	return s.changeDeposit(ctx, clientID, id, ch)
}

// fixedChange moves to one state.
func fixedChange(to gc.DepositStatus, apply func(*gc.Deposit, time.Time, *rand.Rand) (time.Time, error)) depositChange {
	return depositChange{target: func(*gc.Deposit) (gc.DepositStatus, error) { return to, nil }, apply: apply}
}

// payChange records a payment: amountPaid, paymentDate, endToEnd, payer, fee and receipt.
func payChange(body DepositControl) (depositChange, error) {
	ve := &gc.ValidationError{Kind: gc.KindValidation}
	bad := func(field, code, msg string) {
		ve.Violations = append(ve.Violations, gc.Violation{Field: field, Code: code, Message: msg})
	}
	if body.AmountPaid != nil && (*body.AmountPaid < gc.MinAmount || *body.AmountPaid > gc.MaxAmount) {
		bad("amountPaid", gc.CodeMin, fmt.Sprintf("must be between %d and %d", gc.MinAmount, gc.MaxAmount))
	}
	if h := body.Payer; h != nil {
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
	}
	if len(ve.Violations) > 0 {
		return depositChange{}, ve
	}
	return fixedChange(gc.DepositPaid, func(d *gc.Deposit, now time.Time, r *rand.Rand) (time.Time, error) {
		paid := d.Amount
		if body.AmountPaid != nil {
			paid = *body.AmountPaid
		}
		payer := randomHolder(r)
		if h := body.Payer; h != nil {
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
	}), nil
}

// expireChange moves a deposit awaiting payment to FAILED because its QR code expired. Manual
// (the expire control) expires it now; otherwise (the sweep) only once expirationDate has
// passed, dated at the expiration.
func expireChange(manual bool) depositChange {
	return depositChange{
		target: func(d *gc.Deposit) (gc.DepositStatus, error) {
			if d.Status != gc.DepositPixQRCodeGenerated {
				return "", refused("deposit", string(d.Status), string(gc.DepositFailed)+" (expired)")
			}
			return gc.DepositFailed, nil
		},
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

// refundChange moves PAID → PROCESSING_REFUND (recording refundAmount) and
// PROCESSING_REFUND → REFUNDED (refundDate, endToEndRefund, refundReceipt).
func refundChange(amount *gc.Cents) depositChange {
	return depositChange{
		target: func(d *gc.Deposit) (gc.DepositStatus, error) {
			if d.Status == gc.DepositProcessingRefund {
				return gc.DepositRefunded, nil
			}
			if d.Status == gc.DepositPaid && amount != nil {
				paid := paidAmount(d)
				if *amount < 1 || *amount > paid {
					return "", violation(gc.KindValidation, "refundAmount", gc.CodeMax,
						fmt.Sprintf("must be between 1 and the amount paid (%d)", paid))
				}
			}
			return gc.DepositProcessingRefund, nil
		},
		apply: func(d *gc.Deposit, now time.Time, r *rand.Rand) (time.Time, error) {
			if d.Status == gc.DepositProcessingRefund {
				if d.RefundAmount == nil {
					ra := paidAmount(d)
					d.RefundAmount = &ra
				}
				d.RefundDate = now
				d.EndToEndRefund = endToEndID(r, "D", sandboxISPB, now)
				d.RefundReceipt = receipt("refund", d.EndToEndRefund, now)
				return now, nil
			}
			ra := paidAmount(d)
			if amount != nil {
				ra = *amount
			}
			d.RefundAmount = &ra
			return now, nil
		},
	}
}

// infractionChange walks the MED path PAID → BLOCKED → PROCESSING_INFRACTION → INFRACTION
// (the money goes back: refund fields filled); reject ends a MED with the deposit PAID again.
func infractionChange(reject bool) depositChange {
	return depositChange{
		target: func(d *gc.Deposit) (gc.DepositStatus, error) {
			if reject {
				return gc.DepositPaid, nil
			}
			switch d.Status {
			case gc.DepositBlocked:
				return gc.DepositProcessingInfraction, nil
			case gc.DepositProcessingInfraction:
				return gc.DepositInfraction, nil
			}
			return gc.DepositBlocked, nil
		},
		apply: func(d *gc.Deposit, now time.Time, r *rand.Rand) (time.Time, error) {
			if !reject && d.Status == gc.DepositProcessingInfraction {
				ra := paidAmount(d)
				d.RefundAmount = &ra
				d.RefundDate = now
				d.EndToEndRefund = endToEndID(r, "D", sandboxISPB, now)
				d.RefundReceipt = receipt("refund", d.EndToEndRefund, now)
			}
			return now, nil
		},
	}
}

// complianceChange holds a deposit for compliance review, or ends the review: approve returns
// it to the state it was in before, reject fails it.
func complianceChange(outcome string) depositChange {
	return depositChange{
		target: func(d *gc.Deposit) (gc.DepositStatus, error) {
			switch outcome {
			case "approve":
				if d.Status != gc.DepositPendingCompliance {
					return "", refused("deposit", string(d.Status), "its state before compliance review")
				}
				return stateBeforeCompliance(d), nil
			case "reject":
				return gc.DepositFailed, nil
			}
			return gc.DepositPendingCompliance, nil
		},
		apply: func(d *gc.Deposit, now time.Time, _ *rand.Rand) (time.Time, error) {
			if outcome == "reject" {
				d.ErrorMessage = "rejected by compliance review"
			}
			return now, nil
		},
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
