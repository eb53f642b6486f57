package sandbox

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// handleCreateTransaction is POST /transaction.
func (s *Sandbox) handleCreateTransaction(w http.ResponseWriter, r *http.Request, p principal) {
	if ok, wait := s.limiter.allow(p.clientID); !ok {
		secs := retryAfterSeconds(wait)
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		s.respondError(w, r, newAPIError(http.StatusTooManyRequests, "too many requests: retry after %d seconds", secs))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.respondError(w, r, violation(gc.KindInvalidData, "body", gc.CodeMaxLength,
				fmt.Sprintf("must be at most %d bytes", maxBodyBytes)))
			return
		}
		s.respondError(w, r, violation(gc.KindInvalidData, "body", gc.CodeJSON, "could not be read"))
		return
	}
	req, err := gc.DecodeCreateTransactionRequest(body)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	status, resp, err := s.createTransaction(r.Context(), p.clientID, req.WithDefaults())
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeRawJSON(w, status, resp)
}

// createTransaction makes the deposit of a valid request and returns the response to send,
// or the stored response of an earlier request with the same idempotency key.
func (s *Sandbox) createTransaction(ctx context.Context, clientID string, req gc.CreateTransactionRequest) (int, []byte, error) {
	canon, err := json.Marshal(req)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: hash request: %w", err)
	}
	sum := sha256.Sum256(canon)
	hash := hex.EncodeToString(sum[:])
	if st, resp, found, err := lookupIdempotency(ctx, s.db, clientID, req.IdempotencyKey, hash); err != nil || found {
		return st, resp, err
	}

	// The QR code is the costly part: make it before taking the write lock.
	now := msTime(s.clock.Now())
	id := newUUID()
	uri, err := s.brCode(id, int64(req.Amount))
	if err != nil {
		return 0, nil, err
	}
	png, err := qrPNGBase64(uri)
	if err != nil {
		return 0, nil, err
	}
	expSecs := gc.DefaultExpirationSeconds
	if req.Pix != nil && req.Pix.ExpirationSeconds != nil {
		expSecs = *req.Pix.ExpirationSeconds
	}
	pix := &gc.PixResponse{URI: uri, QRCodeBase64: png, ExpirationDate: now.Add(time.Duration(expSecs) * time.Second)}
	d := &gc.Deposit{
		ID:            id,
		AcquirerCode:  txID(id),
		Acquirer:      acquirerName,
		Amount:        req.Amount,
		PaymentMethod: gc.PaymentMethodPIX,
		WebhookURL:    req.WebhookURL,
		ExternalCode:  req.ExternalCode,
		CreatedAt:     now,
		Status:        gc.DepositPixQRCodeGenerated,
		StatusHistory: []gc.StatusHistory{{Status: string(gc.DepositPixQRCodeGenerated), Date: now}},
		UpdatedAt:     now,
		PixResponse:   pix,
		Receiver:      s.merchant.holder(),
		DepositOrigin: gc.OriginQRCode,
	}
	resp, err := json.Marshal(gc.Transaction{ID: id, ExternalCode: req.ExternalCode, Amount: req.Amount,
		Type: gc.TransactionTypeTransaction, Status: gc.DepositPixQRCodeGenerated, PixResponse: pix})
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: encode transaction: %w", err)
	}

	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: begin: %w", err)
	}
	defer tx.Rollback()
	// Checked again under the lock: a concurrent twin may have won the race.
	if st, prev, found, err := lookupIdempotency(ctx, tx, clientID, req.IdempotencyKey, hash); err != nil || found {
		return st, prev, err
	}
	if err := insertDeposit(ctx, tx, clientID, d); err != nil {
		return 0, nil, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO idempotency (client_id, key, body_hash, status_code, response, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`, clientID, req.IdempotencyKey, hash, http.StatusCreated, resp, now.UnixMilli()); err != nil {
		return 0, nil, fmt.Errorf("sandbox: store idempotency key: %w", err)
	}
	if err := s.notifyDeposit(ctx, tx, clientID, d, now); err != nil {
		return 0, nil, err
	}
	if err := tx.Commit(); err != nil {
		return 0, nil, fmt.Errorf("sandbox: commit: %w", err)
	}
	s.hooks.wake()
	return http.StatusCreated, resp, nil
}

// lookupIdempotency returns the stored response for (clientID, key). A key used with another
// body is a 422 of kind Validations.
func lookupIdempotency(ctx context.Context, q querier, clientID, key, hash string) (int, []byte, bool, error) {
	var (
		storedHash string
		status     int
		resp       []byte
	)
	err := q.QueryRowContext(ctx, `SELECT body_hash, status_code, response FROM idempotency WHERE client_id = ? AND key = ?`,
		clientID, key).Scan(&storedHash, &status, &resp)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, false, nil
	}
	if err != nil {
		return 0, nil, false, fmt.Errorf("sandbox: read idempotency key: %w", err)
	}
	if storedHash != hash {
		return 0, nil, false, violation(gc.KindValidation, "idempotencyKey", "idempotency_conflict",
			"already used with a different request body")
	}
	return status, resp, true, nil
}

// insertDeposit stores a new deposit.
func insertDeposit(ctx context.Context, tx *sql.Tx, clientID string, d *gc.Deposit) error {
	doc, err := encodeDeposit(d)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO deposits (id, client_id, status, amount, origin, created_at, expires_at, external_code, doc)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.ID, clientID, string(d.Status), int64(d.Amount), string(d.DepositOrigin), d.CreatedAt.UnixMilli(),
		expiresAt(d), nullString(d.ExternalCode), doc)
	if err != nil {
		return fmt.Errorf("sandbox: insert deposit: %w", err)
	}
	return bumpCount(ctx, tx, clientID, d.CreatedAt.UnixMilli(), string(d.Status), string(d.DepositOrigin), int64(d.Amount), 1)
}

// updateDeposit stores a changed deposit of clientID that was in state from.
func updateDeposit(ctx context.Context, tx *sql.Tx, clientID string, from gc.DepositStatus, d *gc.Deposit) error {
	doc, err := encodeDeposit(d)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE deposits SET status = ?, expires_at = ?, doc = ? WHERE id = ?`,
		string(d.Status), expiresAt(d), doc, d.ID)
	if err != nil {
		return fmt.Errorf("sandbox: update deposit: %w", err)
	}
	if from == d.Status {
		return nil
	}
	created := d.CreatedAt.UnixMilli()
	if err := bumpCount(ctx, tx, clientID, created, string(from), string(d.DepositOrigin), int64(d.Amount), -1); err != nil {
		return err
	}
	return bumpCount(ctx, tx, clientID, created, string(d.Status), string(d.DepositOrigin), int64(d.Amount), 1)
}

// expiresAt is the expiry column of d: its QR code's expiration in Unix ms (0 without one).
func expiresAt(d *gc.Deposit) int64 {
	if d.PixResponse == nil || d.PixResponse.ExpirationDate.IsZero() {
		return 0
	}
	return d.PixResponse.ExpirationDate.UnixMilli()
}

// nullString maps "" to NULL, so optional columns stay out of the indexes' way.
func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// loadDeposit reads the deposit id of clientID (404 when there is none).
func loadDeposit(ctx context.Context, q querier, clientID, id string) (*gc.Deposit, error) {
	var doc []byte
	err := q.QueryRowContext(ctx, `SELECT doc FROM deposits WHERE id = ? AND client_id = ?`, id, clientID).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, newAPIError(http.StatusNotFound, "deposit %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: read deposit: %w", err)
	}
	var d gc.Deposit
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("sandbox: decode deposit %s: %w", id, err)
	}
	return &d, nil
}

// wireDeposit returns d as the API shows it at now: durations filled in, documents masked,
// and the QR code image made if the stored record has none (seeded records) and withQR.
func (s *Sandbox) wireDeposit(d *gc.Deposit, now time.Time, withQR bool) (gc.Deposit, error) {
	out := *d
	out.StatusHistory = withDurations(d.StatusHistory, now)
	out.Payer = maskHolder(d.Payer)
	out.Receiver = maskHolder(d.Receiver)
	if out.Receiver == nil {
		out.Receiver = maskHolder(s.merchant.holder()) // seeded records do not store it
	}
	if d.PixResponse != nil {
		pix := *d.PixResponse
		if pix.QRCodeBase64 == "" && withQR && pix.URI != "" {
			png, err := qrPNGBase64(pix.URI)
			if err != nil {
				return gc.Deposit{}, err
			}
			pix.QRCodeBase64 = png
		}
		out.PixResponse = &pix
	}
	return out, nil
}

// handleGetDeposit is GET /deposit/{id}.
func (s *Sandbox) handleGetDeposit(w http.ResponseWriter, r *http.Request, p principal) {
	id := r.PathValue("id")
	if !brdoc.ValidUUID(id) {
		s.respondError(w, r, violation(gc.KindValidation, "id", gc.CodeUUID, "must be a UUID"))
		return
	}
	if err := s.expireDue(r.Context()); err != nil {
		s.respondError(w, r, err)
		return
	}
	d, err := loadDeposit(r.Context(), s.db, p.clientID, strings.ToLower(id))
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	out, err := s.wireDeposit(d, s.clock.Now(), true)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// depositChange is one transition of a deposit: target picks the next state from the record
// (or refuses), apply fills the fields that come with it and returns the date of the new
// statusHistory entry.
type depositChange struct {
	target func(d *gc.Deposit) (gc.DepositStatus, error)
	apply  func(d *gc.Deposit, now time.Time, r *rand.Rand) (time.Time, error)
}

// changeDeposit applies ch to the deposit id of clientID in one transaction, appends to its
// history, enqueues its webhook and returns the record as shown by the API.
func (s *Sandbox) changeDeposit(ctx context.Context, clientID, id string, ch depositChange) (gc.Deposit, error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return gc.Deposit{}, fmt.Errorf("sandbox: begin: %w", err)
	}
	defer tx.Rollback()
	d, err := loadDeposit(ctx, tx, clientID, id)
	if err != nil {
		return gc.Deposit{}, err
	}
	to, err := ch.target(d)
	if err != nil {
		return gc.Deposit{}, err
	}
	if !canMoveDeposit(d, to) {
		e := refused("deposit", string(d.Status), string(to))
		if d.Status == gc.DepositFailed && to == gc.DepositPaid {
			e.message = e.message.(string) + ": only a deposit whose QR code expired can still be paid"
		}
		return gc.Deposit{}, e
	}
	from := d.Status
	now := msTime(s.clock.Now())
	at := now
	if ch.apply != nil {
		if at, err = ch.apply(d, now, newRand()); err != nil {
			return gc.Deposit{}, err
		}
	}
	d.Status = to
	d.StatusHistory = append(d.StatusHistory, gc.StatusHistory{Status: string(to), Date: at})
	d.UpdatedAt = now
	if err := updateDeposit(ctx, tx, clientID, from, d); err != nil {
		return gc.Deposit{}, err
	}
	if err := s.notifyDeposit(ctx, tx, clientID, d, now); err != nil {
		return gc.Deposit{}, err
	}
	if err := tx.Commit(); err != nil {
		return gc.Deposit{}, fmt.Errorf("sandbox: commit: %w", err)
	}
	s.hooks.wake()
	return s.wireDeposit(d, s.clock.Now(), true)
}

// notifyDeposit enqueues the webhook of d's current state inside tx.
func (s *Sandbox) notifyDeposit(ctx context.Context, tx *sql.Tx, clientID string, d *gc.Deposit, now time.Time) error {
	// The data is the record exactly as GET /deposit/{id} shows it, QR image included (made
	// here for a seeded record that stores none).
	wire, err := s.wireDeposit(d, now, true)
	if err != nil {
		return err
	}
	return s.hooks.enqueue(ctx, tx, clientID, webhook.KindDeposit, d.ID, d.WebhookURL, string(d.Status), wire, now)
}

// expireDue moves every deposit whose QR code expired while awaiting payment to FAILED, with
// the statusHistory entry dated at the expiration. Reads call it first, so expiry shows up
// at once even between two background sweeps.
func (s *Sandbox) expireDue(ctx context.Context) error {
	now := s.clock.Now().UnixMilli()
	rows, err := s.db.QueryContext(ctx, `SELECT id, client_id FROM deposits
		WHERE status = 'PIX_QRCODE_GENERATED' AND expires_at > 0 AND expires_at <= ? LIMIT 500`, now)
	if err != nil {
		return fmt.Errorf("sandbox: find expired deposits: %w", err)
	}
	type ref struct{ id, client string }
	var due []ref
	for rows.Next() {
		var f ref
		if err := rows.Scan(&f.id, &f.client); err != nil {
			rows.Close()
			return fmt.Errorf("sandbox: find expired deposits: %w", err)
		}
		due = append(due, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sandbox: find expired deposits: %w", err)
	}
	for _, f := range due {
		_, err := s.changeDeposit(ctx, f.client, f.id, expireChange(false))
		var ae *apiError
		if errors.As(err, &ae) && (ae.status == conflictStatus || ae.status == http.StatusNotFound) {
			continue // changed meanwhile
		}
		if err != nil {
			return err
		}
	}
	return nil
}
