// Package qr draws the QR codes of PIX BR Codes for the checkout's PIX page and the sandbox's
// qrCodeBase64: the symbol made by github.com/skip2/go-qrcode (byte mode, error correction
// level M, the smallest version that holds the text, the mask of least penalty) and a small
// PNG of it.
//
// go-qrcode's own PNG is an image of 256 px or more, compressed at image/png's default level
// with a compressor allocated per image: it cost about as much CPU as the symbol itself. Here
// the symbol's modules become a two-colour paletted image of a few pixels per module (one bit
// per pixel in the PNG; the page scales it up with `image-rendering: pixelated`), encoded at
// the fastest compression with image/png's buffers reused, so that the PNG costs a fraction of
// its symbol.
package qr

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"

	qrcode "github.com/skip2/go-qrcode"
)

// QuietZone is the light border of a QR code, in modules, as ISO/IEC 18004 asks.
const QuietZone = 4

// Code is a QR code symbol, without its quiet zone.
type Code struct {
	Size    int // modules per side: 17 + 4 × Version
	Version int // 1 to 40
	dark    [][]bool
}

// Dark reports whether the module in column x, row y is dark.
func (c *Code) Dark(x, y int) bool { return c.dark[y][x] }

// Encode returns the QR code of text (its bytes as they are) at error correction level M.
func Encode(text string) (*Code, error) {
	q, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("qr: %w", err)
	}
	q.DisableBorder = true
	bm := q.Bitmap()
	return &Code{Size: len(bm), Version: q.VersionNumber, dark: bm}, nil
}

// palette: index 0 light, 1 dark.
var palette = color.Palette{color.Gray{Y: 0xff}, color.Gray{Y: 0}}

// encoder writes the PNGs at the fastest compression. Its pool only lends image/png's buffers
// (and zlib writer, half a megabyte) from one image to the next: no state passes between
// calls.
var encoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &bufferPool{}}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	eb, _ := b.p.Get().(*png.EncoderBuffer)
	return eb
}

func (b *bufferPool) Put(eb *png.EncoderBuffer) { b.p.Put(eb) }

// PNG returns the symbol as a black-on-white PNG, scale pixels per module, with the quiet
// zone: one bit per pixel, a few KB.
func (c *Code) PNG(scale int) ([]byte, error) {
	if scale < 1 || scale > 64 {
		return nil, fmt.Errorf("qr: PNG scale %d out of range", scale)
	}
	side := (c.Size + 2*QuietZone) * scale
	img := image.NewPaletted(image.Rect(0, 0, side, side), palette)
	for y := range c.Size {
		for x := range c.Size {
			if !c.dark[y][x] {
				continue
			}
			for py := (y + QuietZone) * scale; py < (y+QuietZone+1)*scale; py++ {
				row := img.Pix[py*img.Stride:]
				for px := (x + QuietZone) * scale; px < (x+QuietZone+1)*scale; px++ {
					row[px] = 1
				}
			}
		}
	}
	var buf bytes.Buffer
	buf.Grow(2048)
	if err := encoder.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("qr: PNG: %w", err)
	}
	return buf.Bytes(), nil
}
