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
func QRImage(code string) ([]byte, error) { return QRImageFrom(nil, code) }

// QRImageFrom is QRImage through images, which keeps the images it drew last (nil: drawn now).
// The PNG returned may be shared: it must not be changed.
func QRImageFrom(images *qr.Images, code string) ([]byte, error) {
	png, err := images.PNG(code, qrModulePixels)
	if err != nil {
		return nil, fmt.Errorf("web: drawing a QR code: %w", err)
	}
	return png, nil
}
