// Package qr draws the QR codes of PIX BR Codes for the checkout's PIX page and the sandbox's
// qrCodeBase64: the symbol made by github.com/skip2/go-qrcode (byte mode, error correction
// level M, the smallest version that holds the text, the mask of least penalty) and a small
// PNG of it.
//
// go-qrcode's own PNG is an image of 256 px or more, compressed at image/png's default level
// with a compressor allocated per image: it cost about as much CPU as the symbol itself. Here
// the symbol's modules are written as the rows of a two-colour PNG of a few pixels per module
// (one bit per pixel; the page scales it up with `image-rendering: pixelated`), compressed at
// the fastest level with reused buffers, so that the PNG costs a small fraction of its symbol.
package qr

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sync"

	"github.com/klauspost/compress/zlib"
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

// pngPool lends the zlib writers (and their buffers) from one image to the next: no state
// passes between calls.
var pngPool = sync.Pool{New: func() any { return &pngBuffers{} }}

type pngBuffers struct {
	idat bytes.Buffer // the compressed scanlines
	zw   *zlib.Writer
	row  []byte // one scanline: its filter byte and its packed pixels
}

// PNG returns the code as a PNG of scale pixels per module, quiet zone included: a two-colour
// indexed image of one bit per pixel (0 light, 1 dark), rows unfiltered.
//
// The rows are written straight from the modules rather than through image/png, which reads
// every pixel of an image.Paletted through an interface call, ten times the work. The scale-fold repetition of every row is what deflate compresses best, so the
// fastest level loses almost nothing.
func (c *Code) PNG(scale int) ([]byte, error) {
	if scale < 1 || scale > 64 {
		return nil, fmt.Errorf("qr: PNG scale %d out of range", scale)
	}
	side := (c.Size + 2*QuietZone) * scale
	b := pngPool.Get().(*pngBuffers)
	defer pngPool.Put(b)
	if err := b.deflate(c, scale, side); err != nil {
		return nil, fmt.Errorf("qr: PNG: %w", err)
	}
	out := make([]byte, 0, len(pngSignature)+3*12+13+6+b.idat.Len())
	out = append(out, pngSignature...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(side))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(side))
	ihdr[8], ihdr[9] = 1, 3 // bit depth 1, indexed colour; compression, filter, interlace 0
	out = appendChunk(out, "IHDR", ihdr[:])
	out = appendChunk(out, "PLTE", []byte{0xff, 0xff, 0xff, 0, 0, 0}) // 0 light, 1 dark
	out = appendChunk(out, "IDAT", b.idat.Bytes())
	return appendChunk(out, "IEND", nil), nil
}

// deflate writes into b.idat the compressed scanlines of c drawn at scale, side pixels wide.
func (b *pngBuffers) deflate(c *Code, scale, side int) error {
	b.idat.Reset()
	if b.zw == nil {
		zw, err := zlib.NewWriterLevel(&b.idat, zlib.BestSpeed)
		if err != nil {
			return err
		}
		b.zw = zw
	} else {
		b.zw.Reset(&b.idat)
	}
	stride := 1 + (side+7)/8
	if cap(b.row) < stride {
		b.row = make([]byte, stride)
	}
	row := b.row[:stride]
	write := func(times int) error {
		for range times {
			if _, err := b.zw.Write(row); err != nil {
				return err
			}
		}
		return nil
	}
	clear(row) // filter 0 (none), all light: the quiet zone's rows
	if err := write(QuietZone * scale); err != nil {
		return err
	}
	for y := range c.Size {
		c.drawRow(row, y, scale)
		if err := write(scale); err != nil {
			return err
		}
	}
	clear(row)
	if err := write(QuietZone * scale); err != nil {
		return err
	}
	return b.zw.Close()
}

// drawRow sets row to the scanline of the modules of row y at scale: its filter byte (0) and
// its pixels, one bit each.
func (c *Code) drawRow(row []byte, y, scale int) {
	clear(row)
	for x := range c.Size {
		if !c.dark[y][x] {
			continue
		}
		for px := (x + QuietZone) * scale; px < (x+QuietZone+1)*scale; px++ {
			row[1+px/8] |= 0x80 >> (px % 8)
		}
	}
}

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// appendChunk appends a PNG chunk: its length, type, data and the CRC of type and data.
func appendChunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}
