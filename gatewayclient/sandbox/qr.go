package sandbox

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
)

// qrPixelsPerModule is the PNG scale: a few pixels per QR module keeps the image small (the
// browser scales it up with image-rendering: pixelated) while phone cameras and decoders
// still read it directly.
const qrPixelsPerModule = 4

// txID derives a deposit's BR Code txid from its id: the first 25 hexadecimal digits, the
// longest txid a BR Code allows.
func txID(id string) string {
	t := strings.ReplaceAll(id, "-", "")
	if len(t) > 25 {
		t = t[:25]
	}
	return t
}

// brCode returns the BR Code of a deposit: a single-use code (point of initiation 12) for the
// merchant's PIX key, the exact amount, and a txid derived from the deposit id.
func (s *Sandbox) brCode(id string, amount int64) (string, error) {
	p := brcode.Payload{
		PointOfInitiation: brcode.InitiationDynamic,
		Key:               s.merchant.key,
		Amount:            amount,
		MerchantName:      s.merchant.name,
		MerchantCity:      s.merchant.city,
		TxID:              txID(id),
	}
	code, err := p.Encode()
	if err != nil {
		return "", fmt.Errorf("sandbox: BR Code: %w", err)
	}
	return code, nil
}

// qrPNGBase64 renders text as a QR code PNG (error correction Medium) and returns it base64
// encoded, as pixResponse.qrCodeBase64 carries it.
func qrPNGBase64(images *qr.Images, text string) (string, error) {
	png, err := images.PNG(text, qrPixelsPerModule)
	if err != nil {
		return "", fmt.Errorf("sandbox: QR code: %w", err)
	}
	return base64.StdEncoding.EncodeToString(png), nil
}

// A deposit's QR image is kept once, in its record. The stored answer of its POST /transaction
// (replayed for its idempotency key) and the stored bodies of its webhooks leave it out, as an
// empty qrCodeBase64, and get it back from the record when they are sent (withQR). The image
// is about 4.4 KB of base64 in rows of about 1 KB: kept three times, it tripled what a deposit
// writes, and the webhook rows, rewritten by the claim and by the outcome of every attempt,
// wrote it again each time.

// emptyQR is the JSON of a left-out image, as encoding/json writes gc.PixResponse.
var emptyQR = []byte(`"qrCodeBase64":""`)

// withoutQR returns a copy of pix without its image (nil for nil).
func withoutQR(pix *gc.PixResponse) *gc.PixResponse {
	if pix == nil {
		return nil
	}
	p := *pix
	p.QRCodeBase64 = ""
	return &p
}

// withQR returns body with its left-out QR image (its first empty qrCodeBase64) filled in
// with deposit id's, read through q; a body without one is returned as it is.
func (s *Sandbox) withQR(ctx context.Context, q querier, id string, body []byte) ([]byte, error) {
	i := bytes.Index(body, emptyQR)
	if i < 0 {
		return body, nil
	}
	img, err := s.depositQR(ctx, q, id)
	if err != nil {
		return nil, err
	}
	const key = `"qrCodeBase64":"`
	out := make([]byte, 0, len(body)+len(img))
	out = append(out, body[:i]...)
	out = append(out, key...)
	out = append(out, img...) // base64: nothing to escape in JSON
	out = append(out, '"')
	return append(out, body[i+len(emptyQR):]...), nil
}

// depositQR returns the base64 QR image of deposit id: the one its record keeps, or, for a
// record that keeps none (a seeded one), the image of its BR Code.
func (s *Sandbox) depositQR(ctx context.Context, q querier, id string) (string, error) {
	var doc []byte
	err := q.QueryRowContext(ctx, `SELECT doc FROM deposits WHERE id = ?`, id).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("sandbox: deposit %s: gone, with its QR code", id)
	}
	if err != nil {
		return "", fmt.Errorf("sandbox: read the QR code of deposit %s: %w", id, err)
	}
	var d struct {
		Pix *storedPix `json:"pixResponse"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return "", fmt.Errorf("sandbox: decode deposit %s: %w", id, err)
	}
	switch {
	case d.Pix == nil || d.Pix.URI == "":
		return "", fmt.Errorf("sandbox: deposit %s has no QR code", id)
	case d.Pix.QRCodeBase64 != "":
		return d.Pix.QRCodeBase64, nil
	}
	return qrPNGBase64(s.qrImages, d.Pix.URI)
}
