package web

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"

	qrcode "github.com/skip2/go-qrcode"
)

// qrModulePixels is the size of one QR module in the image: small to make and to send; the
// page scales it up crisply.
const qrModulePixels = 4

// QRImage draws the PNG of a PIX BR Code: error correction Medium, four pixels per module with
// the standard quiet zone, one bit per pixel. The domain stores it with the payment attempt
// (checkout.ServiceOptions.QRImage), so an attempt's image is drawn once.
//
// go-qrcode's own PNG compresses at its best level, which costs as much as choosing the symbol's
// mask; a two-colour bitmap gains nothing from it, so this encodes at the fastest level.
func QRImage(code string) ([]byte, error) {
	q, err := qrcode.New(code, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("web: drawing a QR code: %w", err)
	}
	bitmap := q.Bitmap()
	size := len(bitmap) * qrModulePixels
	img := image.NewPaletted(image.Rect(0, 0, size, size), color.Palette{color.White, color.Black})
	for y, row := range bitmap {
		for x, dark := range row {
			if !dark {
				continue
			}
			for dy := range qrModulePixels {
				i := img.PixOffset(x*qrModulePixels, y*qrModulePixels+dy)
				for dx := range qrModulePixels {
					img.Pix[i+dx] = 1
				}
			}
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("web: encoding a QR code: %w", err)
	}
	return b.Bytes(), nil
}
