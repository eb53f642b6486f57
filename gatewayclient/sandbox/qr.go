package sandbox

import (
	"encoding/base64"
	"fmt"
	"strings"

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
