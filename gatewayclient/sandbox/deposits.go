package sandbox

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/gatewayclient/decode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// handleCreateTransaction is POST /transaction.
func (s *Sandbox) handleCreateTransaction(w http.ResponseWriter, r *http.Request, p principal) {
	if !isJSON(r.Header.Get("Content-Type")) {
		s.respondError(w, r, newAPIError(http.StatusUnsupportedMediaType,
			"Content-Type must be application/json, not %q", r.Header.Get("Content-Type")))
		return
	}
	if ok, wait := s.allowTransaction(p.clientID); !ok {
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
	req, err := decode.CreateTransactionRequest(body)
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

// allowTransaction takes a token of clientID's POST /transaction limit, if there is a limit.
func (s *Sandbox) allowTransaction(clientID string) (bool, time.Duration) {
	if s.limiter == nil {
		return true, 0
	}
	return s.limiter.allow(clientID)
}

// isJSON reports whether a Content-Type is application/json, in UTF-8 when it says a charset
// (the spec asks for application/json; a form or text/plain is refused with 415).
func isJSON(contentType string) bool {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "application/json" {
		return false
	}
	cs, ok := params["charset"]
	return !ok || strings.EqualFold(cs, "utf-8")
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
	if st, resp, found, err := lookupIdempotency(ctx, s.r, clientID, req.IdempotencyKey, hash); err != nil || found {
		if err != nil {
			return 0, nil, err
		}
		resp, err = s.replay(ctx, s.r, resp)
		return st, resp, err
	}

	// The QR code is the costly part: make it before the write transaction.
	now := msTime(s.clock.Now())
	id := newUUID()
	uri, err := s.brCode(id, int64(req.Amount))
	if err != nil {
		return 0, nil, err
	}
	png, err := qrPNGBase64(s.qrImages, uri)
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
	// Kept for the idempotency key without the image, which a replay takes back from the
	// deposit (see withQR).
	stored := bytes.Replace(resp, []byte(`"qrCodeBase64":"`+png+`"`), emptyQR, 1)

	status, out := http.StatusCreated, resp
	err = s.write(ctx, func(tx *sql.Tx) error {
		// Checked again in the transaction: a concurrent twin may have won the race.
		st, prev, found, err := lookupIdempotency(ctx, tx, clientID, req.IdempotencyKey, hash)
		if err != nil {
			return err
		}
		if found {
			status = st
			out, err = s.replay(ctx, tx, prev)
			return err
		}
		if err := insertDeposit(ctx, tx, clientID, d); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO idempotency (client_id, key, body_hash, status_code, response, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, clientID, req.IdempotencyKey, hash, http.StatusCreated, stored, now.UnixMilli()); err != nil {
			return fmt.Errorf("sandbox: store idempotency key: %w", err)
		}
		return s.notifyDeposit(ctx, tx, clientID, d, "", now)
	})
	if err != nil {
		return 0, nil, err
	}
	s.hooks.wake()
	return status, out, nil
}

// replay returns the answer stored for an idempotency key as it was first sent: with the QR
// image of its deposit, read through q, when it was stored without it.
func (s *Sandbox) replay(ctx context.Context, q querier, stored []byte) ([]byte, error) {
	if !bytes.Contains(stored, emptyQR) {
		return stored, nil // stored whole (before images were kept once), or not a deposit
	}
	var tx struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(stored, &tx); err != nil {
		return nil, fmt.Errorf("sandbox: stored answer: %w", err)
	}
	return s.withQR(ctx, q, tx.ID, stored)
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
	return nil
}

// updateDeposit stores a changed deposit.
func updateDeposit(ctx context.Context, tx *sql.Tx, d *gc.Deposit) error {
	doc, err := encodeDeposit(d)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE deposits SET status = ?, expires_at = ?, doc = ? WHERE id = ?`,
		string(d.Status), expiresAt(d), doc, d.ID)
	if err != nil {
		return fmt.Errorf("sandbox: update deposit: %w", err)
	}
	return nil
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
	return loadDoc[gc.Deposit](ctx, q, "deposits", "deposit", clientID, id)
}

// loadDoc reads the JSON document of the record id of clientID in table, a deposit or a
// withdrawal named what in errors (404 when there is none).
func loadDoc[T any](ctx context.Context, q querier, table, what, clientID, id string) (*T, error) {
	var doc []byte
	err := q.QueryRowContext(ctx, `SELECT doc FROM `+table+` WHERE id = ? AND client_id = ?`, id, clientID).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, newAPIError(http.StatusNotFound, "%s %s not found", what, id)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: read %s: %w", what, err)
	}
	var v T
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, fmt.Errorf("sandbox: decode %s %s: %w", what, id, err)
	}
	return &v, nil
}

// wireDeposit returns d as the API shows it at now: durations filled in and documents
// masked. qr is the QR code image for a record that stores none (see missingQR).
func (s *Sandbox) wireDeposit(d *gc.Deposit, now time.Time, qr string) gc.Deposit {
	out := *d
	out.StatusHistory = withDurations(d.StatusHistory, now)
	out.Payer = maskHolder(d.Payer)
	out.Receiver = maskHolder(d.Receiver)
	if out.Receiver == nil {
		out.Receiver = maskHolder(s.merchant.holder()) // seeded records do not store it
	}
	if d.PixResponse != nil {
		pix := *d.PixResponse
		if pix.QRCodeBase64 == "" {
			pix.QRCodeBase64 = qr
		}
		out.PixResponse = &pix
	}
	return out
}

// missingQR makes the QR code image of a deposit that stores none (a seeded one), so that
// wireDeposit can show it; it returns "" for a deposit that stores its own.
func missingQR(d *gc.Deposit) (string, error) {
	if d.PixResponse == nil || d.PixResponse.QRCodeBase64 != "" || d.PixResponse.URI == "" {
		return "", nil
	}
	return qrPNGBase64(nil, d.PixResponse.URI) // seeded records: not worth a place among the kept images
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
	d, err := loadDeposit(r.Context(), s.r, p.clientID, strings.ToLower(id))
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	qr, err := missingQR(d)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, s.wireDeposit(d, s.clock.Now(), qr))
}

// depositChange is one transition of a deposit: target picks the next state from the record
// (or refuses), apply fills the fields that come with it and returns the date of the new
// statusHistory entry.
type depositChange struct {
	target func(d *gc.Deposit) (gc.DepositStatus, error)
	apply  applyFunc
}

// changeDeposit applies ch to the deposit id of clientID in one transaction, appends to its
// history, enqueues its webhook and returns the record as shown by the API.
func (s *Sandbox) changeDeposit(ctx context.Context, clientID, id string, ch depositChange) (gc.Deposit, error) {
	// The webhook carries the QR code image, which a seeded record does not store: make it
	// before the write transaction (about 2 ms), not inside it. A deposit's code never
	// changes, so the image made from this read stays right.
	before, err := loadDeposit(ctx, s.r, clientID, id)
	if err != nil {
		return gc.Deposit{}, err
	}
	qr, err := missingQR(before)
	if err != nil {
		return gc.Deposit{}, err
	}
	var d *gc.Deposit
	err = s.write(ctx, func(tx *sql.Tx) error {
		if d, err = loadDeposit(ctx, tx, clientID, id); err != nil {
			return err
		}
		to, err := ch.target(d)
		if err != nil {
			return err
		}
		if !canMoveDeposit(d, to) {
			e := refused("deposit", string(d.Status), string(to))
			if d.Status == gc.DepositFailed && to == gc.DepositPaid {
				e.message = e.message.(string) + ": only a deposit whose QR code expired can still be paid"
			}
			return e
		}
		now := msTime(s.clock.Now())
		at := now
		if ch.apply != nil {
			if at, err = ch.apply(d, now, newRand()); err != nil {
				return err
			}
		}
		d.Status = to
		d.StatusHistory = append(d.StatusHistory, gc.StatusHistory{Status: string(to), Date: at})
		d.UpdatedAt = now
		if err := updateDeposit(ctx, tx, d); err != nil {
			return err
		}
		return s.notifyDeposit(ctx, tx, clientID, d, qr, now)
	})
	if err != nil {
		return gc.Deposit{}, err
	}
	s.hooks.wake()
	return s.wireDeposit(d, s.clock.Now(), qr), nil
}

// notifyDeposit enqueues the webhook of d's current state inside tx. The data is the record
// exactly as GET /deposit/{id} shows it, QR image included (qr: see wireDeposit).
func (s *Sandbox) notifyDeposit(ctx context.Context, tx *sql.Tx, clientID string, d *gc.Deposit, qr string, now time.Time) error {
	// Stored without the QR image, which the outbox takes back from the record at each
	// attempt (see withQR).
	w := s.wireDeposit(d, now, qr)
	w.PixResponse = withoutQR(w.PixResponse)
	return s.hooks.enqueue(ctx, tx, clientID, webhook.KindDeposit, d.ID, d.WebhookURL, string(d.Status), w, now)
}

// expireDue moves every deposit whose QR code expired while awaiting payment to FAILED, with
// the statusHistory entry dated at the expiration. Reads call it first, so expiry shows up
// at once even between two background sweeps.
func (s *Sandbox) expireDue(ctx context.Context) error {
	now := s.clock.Now().UnixMilli()
	rows, err := s.r.QueryContext(ctx, `SELECT id, client_id FROM deposits
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
