package sandbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// NewWithdrawal is the body of POST sandbox/withdrawals. The spec has no endpoint that
// creates withdrawals; this control makes one for tests and dashboards.
type NewWithdrawal struct {
	Amount       gc.Cents `json:"amount"`                 // 10..10000000
	PixKey       string   `json:"pixKey,omitempty"`       // the receiver's key; default a generated one
	ExternalCode string   `json:"externalCode,omitempty"` // 8..255 characters
	WebhookURL   string   `json:"webhookUrl,omitempty"`   // as strict as POST /transaction's
}

// handleCreateWithdrawal is POST sandbox/withdrawals.
func (s *Sandbox) handleCreateWithdrawal(w http.ResponseWriter, r *http.Request, p principal) {
	var body NewWithdrawal
	if err := decodeControlBody(r, &body); err != nil {
		s.respondError(w, r, err)
		return
	}
	wd, err := s.CreateWithdrawal(r.Context(), p.clientID, body)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, wd)
}

// validate checks a new withdrawal, reporting every violation at once.
func (n NewWithdrawal) validate() error {
	ve := &gc.ValidationError{Kind: gc.KindValidation}
	if n.Amount < gc.MinWithdrawalFilterAmount || n.Amount > gc.MaxAmount {
		ve.Violations = append(ve.Violations, gc.Violation{Field: "amount", Code: gc.CodeMin,
			Message: fmt.Sprintf("must be between %d and %d", gc.MinWithdrawalFilterAmount, gc.MaxAmount)})
	}
	if n.PixKey != "" && !brdoc.ValidPixKey(n.PixKey) {
		ve.Violations = append(ve.Violations, gc.Violation{Field: "pixKey", Code: gc.CodePixKey,
			Message: "must be a PIX key: CPF, CNPJ, e-mail, phone or random key (EVP)"})
	}
	// externalCode and webhookUrl follow POST /transaction's rules: reuse its validator on a
	// request that is otherwise valid.
	probe := gc.CreateTransactionRequest{Amount: 1, PaymentMethod: gc.PaymentMethodPIX, IdempotencyKey: "withdrawal",
		Pix: &gc.PixRequest{}, ExternalCode: n.ExternalCode, WebhookURL: n.WebhookURL}
	var pve *gc.ValidationError
	if err := probe.Validate(); errors.As(err, &pve) {
		ve.Violations = append(ve.Violations, pve.For("externalCode")...)
		ve.Violations = append(ve.Violations, pve.For("webhookUrl")...)
	}
	if len(ve.Violations) > 0 {
		return ve
	}
	return nil
}

// CreateWithdrawal makes a PENDING withdrawal of clientID from the merchant to a receiver.
func (s *Sandbox) CreateWithdrawal(ctx context.Context, clientID string, n NewWithdrawal) (gc.Withdrawal, error) {
	if err := n.validate(); err != nil {
		return gc.Withdrawal{}, err
	}
	r := newRand()
	now := msTime(s.clock.Now())
	receiver := randomHolder(r)
	if n.PixKey != "" {
		key, kind, _ := brdoc.NormalizePixKey(n.PixKey)
		receiver.Pix = gc.PixKey{Key: key, Type: gc.PixKeyType(kind)}
		if kind == brdoc.PixKeyCPF || kind == brdoc.PixKeyCNPJ {
			receiver.Document = key
			receiver.Type = gc.HolderPF
			if kind == brdoc.PixKeyCNPJ {
				receiver.Type = gc.HolderPJ
			}
		}
	}
	pk := receiver.Pix
	wd := &gc.Withdrawal{
		ID:            newUUID(),
		Acquirer:      acquirerName,
		Amount:        n.Amount,
		Method:        gc.PaymentMethodPIX,
		WebhookURL:    n.WebhookURL,
		ExternalCode:  n.ExternalCode,
		CreatedAt:     now,
		Status:        gc.WithdrawalPending,
		StatusHistory: []gc.StatusHistory{{Status: string(gc.WithdrawalPending), Date: now}},
		UpdatedAt:     now,
		Payer:         s.merchant.holder(),
		Receiver:      receiver,
		PixKey:        &pk,
	}
	wd.AcquirerCode = txID(wd.ID)
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := insertWithdrawal(ctx, tx, clientID, wd); err != nil {
			return err
		}
		return s.notifyWithdrawal(ctx, tx, clientID, wd, now)
	})
	if err != nil {
		return gc.Withdrawal{}, err
	}
	s.hooks.wake()
	return s.wireWithdrawal(wd, s.clock.Now()), nil
}

// handleWithdrawalControl is POST sandbox/withdrawals/{id}/{status}.
func (s *Sandbox) handleWithdrawalControl(w http.ResponseWriter, r *http.Request, p principal) {
	var body struct {
		ErrorMessage string `json:"errorMessage,omitempty"`
	}
	if err := decodeControlBody(r, &body); err != nil {
		s.respondError(w, r, err)
		return
	}
	to := gc.WithdrawalStatus(strings.ToUpper(r.PathValue("status")))
	wd, err := s.MoveWithdrawal(r.Context(), p.clientID, r.PathValue("id"), to, body.ErrorMessage)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wd)
}

// MoveWithdrawal moves the withdrawal id of clientID to the state to, filling the fields that
// come with it (processedDate, amountWithdrawn, endToEnd and receipt on PROCESSED; refund
// fields on REFUNDED; errorMessage on FAILED and REJECTED).
func (s *Sandbox) MoveWithdrawal(ctx context.Context, clientID, id string, to gc.WithdrawalStatus, errorMessage string) (gc.Withdrawal, error) {
	if !brdoc.ValidUUID(id) {
		return gc.Withdrawal{}, violation(gc.KindValidation, "id", gc.CodeUUID, "must be a UUID")
	}
	if !to.Valid() {
		return gc.Withdrawal{}, violation(gc.KindInvalidData, "status", gc.CodeEnum, fmt.Sprintf("%q is not a withdrawal state", string(to)))
	}
	var wd *gc.Withdrawal
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if wd, err = loadWithdrawal(ctx, tx, clientID, strings.ToLower(id)); err != nil {
			return err
		}
		if !canMoveWithdrawal(wd.Status, to) {
			return refused("withdrawal", string(wd.Status), string(to))
		}
		now := msTime(s.clock.Now())
		applyWithdrawal(wd, to, now, newRand(), errorMessage)
		if err := updateWithdrawal(ctx, tx, wd); err != nil {
			return err
		}
		return s.notifyWithdrawal(ctx, tx, clientID, wd, now)
	})
	if err != nil {
		return gc.Withdrawal{}, err
	}
	s.hooks.wake()
	return s.wireWithdrawal(wd, s.clock.Now()), nil
}

// applyWithdrawal moves wd to the state to at now (the transition is known to be allowed).
func applyWithdrawal(wd *gc.Withdrawal, to gc.WithdrawalStatus, now time.Time, r *rand.Rand, errorMessage string) {
	switch to {
	case gc.WithdrawalProcessed:
		amt := wd.Amount
		f := fee(amt)
		wd.AmountWithdrawn = &amt
		wd.FeeAmount = &f
		wd.ProcessedDate = now
		wd.EndToEnd = endToEndID(r, "E", sandboxISPB, now)
		wd.PaymentReceipt = receipt("payment", wd.EndToEnd, now)
	case gc.WithdrawalRefunded:
		amt := wd.Amount
		wd.RefundAmount = &amt
		wd.RefundDate = now
		ispb := sandboxISPB
		if wd.Receiver != nil {
			ispb = wd.Receiver.BankAccount.ISPB
		}
		wd.EndToEndRefund = endToEndID(r, "D", ispb, now)
		wd.RefundReceipt = receipt("refund", wd.EndToEndRefund, now)
	case gc.WithdrawalFailed, gc.WithdrawalRejected:
		if errorMessage == "" {
			errorMessage = map[gc.WithdrawalStatus]string{gc.WithdrawalFailed: "withdrawal failed",
				gc.WithdrawalRejected: "withdrawal rejected by the gateway"}[to]
		}
		wd.ErrorMessage = errorMessage
	}
	wd.Status = to
	wd.StatusHistory = append(wd.StatusHistory, gc.StatusHistory{Status: string(to), Date: now})
	wd.UpdatedAt = now
}

// notifyWithdrawal enqueues the webhook of wd's current state inside tx.
func (s *Sandbox) notifyWithdrawal(ctx context.Context, tx *sql.Tx, clientID string, wd *gc.Withdrawal, now time.Time) error {
	return s.hooks.enqueue(ctx, tx, clientID, webhook.KindWithdrawal, wd.ID, wd.WebhookURL, string(wd.Status), s.wireWithdrawal(wd, now), now)
}

// wireWithdrawal returns wd as the API shows it at now.
func (s *Sandbox) wireWithdrawal(wd *gc.Withdrawal, now time.Time) gc.Withdrawal {
	out := *wd
	out.StatusHistory = withDurations(wd.StatusHistory, now)
	out.Payer = maskHolder(wd.Payer)
	if out.Payer == nil {
		out.Payer = maskHolder(s.merchant.holder()) // seeded records do not store it
	}
	out.Receiver = maskHolder(wd.Receiver)
	return out
}

// insertWithdrawal stores a new withdrawal.
func insertWithdrawal(ctx context.Context, tx *sql.Tx, clientID string, wd *gc.Withdrawal) error {
	doc, err := json.Marshal(wd)
	if err != nil {
		return fmt.Errorf("sandbox: encode withdrawal: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO withdrawals (id, client_id, status, amount, created_at, external_code, end_to_end, end_to_end_refund, pix_key, doc)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		wd.ID, clientID, string(wd.Status), int64(wd.Amount), wd.CreatedAt.UnixMilli(), nullString(wd.ExternalCode),
		nullString(wd.EndToEnd), nullString(wd.EndToEndRefund), nullString(pixKeyOf(wd)), doc)
	if err != nil {
		return fmt.Errorf("sandbox: insert withdrawal: %w", err)
	}
	return nil
}

// updateWithdrawal stores a changed withdrawal.
func updateWithdrawal(ctx context.Context, tx *sql.Tx, wd *gc.Withdrawal) error {
	doc, err := json.Marshal(wd)
	if err != nil {
		return fmt.Errorf("sandbox: encode withdrawal: %w", err)
	}
	_, err = tx.ExecContext(ctx, `UPDATE withdrawals SET status = ?, end_to_end = ?, end_to_end_refund = ?, doc = ? WHERE id = ?`,
		string(wd.Status), nullString(wd.EndToEnd), nullString(wd.EndToEndRefund), doc, wd.ID)
	if err != nil {
		return fmt.Errorf("sandbox: update withdrawal: %w", err)
	}
	return nil
}

// pixKeyOf is the pix_key column: the withdrawal's key in DICT's normal form.
func pixKeyOf(wd *gc.Withdrawal) string {
	if wd.PixKey == nil {
		return ""
	}
	if k, _, ok := brdoc.NormalizePixKey(wd.PixKey.Key); ok {
		return k
	}
	return wd.PixKey.Key
}

// loadWithdrawal reads the withdrawal id of clientID (404 when there is none).
func loadWithdrawal(ctx context.Context, q querier, clientID, id string) (*gc.Withdrawal, error) {
	return loadDoc[gc.Withdrawal](ctx, q, "withdrawals", "withdrawal", clientID, id)
}
