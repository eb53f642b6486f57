package web

import (
	"fmt"

	"github.com/pixcheckout/pixcheckout/gatewayclient/qr"
)

// qrModulePixels is the size of one QR module in the image: small to make and to send; the
// page scales it up crisply.
const qrModulePixels = 4

// QRImage draws the PNG of a PIX BR Code: error correction Medium, four pixels per module with
// the standard quiet zone, one bit per pixel. The domain stores it with the payment attempt
// (checkout.ServiceOptions.QRImage), so an attempt's image is drawn once.
func QRImage(code string) ([]byte, error) {
	c, err := qr.Encode(code)
	if err != nil {
		return nil, fmt.Errorf("web: drawing a QR code: %w", err)
	}
	png, err := c.PNG(qrModulePixels)
	if err != nil {
		return nil, fmt.Errorf("web: encoding a QR code: %w", err)
	}
	return png, nil
}
