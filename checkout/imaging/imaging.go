// Package imaging turns an uploaded product photo into the pictures the shop serves: the upload
// is sniffed (JPEG, PNG or WebP only), its dimensions are bounded before it is decoded (a small
// file cannot claim a gigapixel image), and it is re-encoded at two widths with
// golang.org/x/image's Catmull-Rom scaler. Re-encoding keeps the pixels only: EXIF (with its
// GPS position), ICC profiles and comments never reach a shopper.
package imaging

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"time"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers WebP with image.Decode
)

// Limits of an upload.
const (
	MaxBytes  = 5 << 20  // 5 MB
	MaxPixels = 40 << 20 // width × height of the source (about 6500 × 6500)
	MaxSide   = 10000    // the longest side of the source
	// MaxDecodeBytes bounds what decoding an upload allocates: width × height × the bytes a
	// pixel of its colour model takes (DecodeSize). A 326 KB 16-bit RGBA PNG of 6476 × 6476,
	// within MaxPixels, would take 320 MB.
	MaxDecodeBytes = 256 << 20
)

// The widths of the two pictures made of each upload (narrower when the source is): a card on
// a phone, and the same on a dense or wide screen (srcset picks).
const (
	SmallWidth = 320
	LargeWidth = 640
)

// maxAspect bounds how tall a picture is for its width: a thin strip is cropped to 2:1 tall.
const maxAspect = 2

// ErrNotImage is returned for an upload that is not a JPEG, PNG or WebP picture (or that is
// corrupt); ErrTooLarge for one over MaxBytes, MaxPixels or MaxSide.
var (
	ErrNotImage = errors.New("imaging: not a JPEG, PNG or WebP picture")
	ErrTooLarge = errors.New("imaging: the picture is too large")
)

// TooLargeError refuses, before decoding, an upload whose decoding would allocate more than
// MaxDecodeBytes. It is ErrTooLarge (errors.Is).
type TooLargeError struct {
	Width, Height int
	Bytes         int64 // what decoding would allocate
}

// Error says it in words.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("imaging: the picture is %d × %d pixels: decoding it would take %d MB, more than %d MB; "+
		"save it smaller or with 8 bits per channel", e.Width, e.Height, e.Bytes>>20, MaxDecodeBytes>>20)
}

// Is makes a TooLargeError ErrTooLarge.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// DecodeSize is what decoding a picture of cfg allocates for its pixels: width × height × the
// bytes per pixel of its colour model (16-bit channels take twice 8-bit ones; an unknown model
// is counted at the most, 8).
func DecodeSize(cfg image.Config) int64 {
	bpp := int64(8)
	switch cfg.ColorModel {
	case color.GrayModel, color.AlphaModel:
		bpp = 1
	case color.Gray16Model, color.Alpha16Model:
		bpp = 2
	case color.YCbCrModel:
		bpp = 3 // 4:4:4 at most
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		bpp = 4
	case color.RGBA64Model, color.NRGBA64Model:
		bpp = 8
	default:
		if _, ok := cfg.ColorModel.(color.Palette); ok {
			bpp = 1
		}
	}
	return int64(cfg.Width) * int64(cfg.Height) * bpp
}

// minBytesPerBlock is the least a JPEG spends on each 8 × 8 block of pixels, even of one flat
// colour: a file far smaller than its dimensions claim is cut short (a
// 228-byte JPEG claiming 6400 × 6400), and decoding it would allocate the whole picture
// before finding out.
const minBytesPerBlock = 1.0 / 16

// complete reports whether raw can hold the picture cfg claims: its end marker is there (a
// JPEG's EOI, a PNG's IEND) and a JPEG is not far smaller than its dimensions need (deflate
// packs a flat PNG far tighter, so only its end marker is checked).
func complete(raw []byte, cfg image.Config) bool {
	switch http.DetectContentType(raw) {
	case "image/jpeg":
		blocks := float64((cfg.Width+7)/8) * float64((cfg.Height+7)/8)
		return float64(len(raw)) >= blocks*minBytesPerBlock && bytes.Contains(raw, []byte{0xff, 0xd9})
	case "image/png":
		return bytes.Contains(raw, []byte("IEND"))
	}
	return true
}

// ErrBusy refuses an upload while as many others are being decoded as the Limiter allows, after
// its wait.
var ErrBusy = errors.New("imaging: too many pictures are being processed at once; try again in a few seconds")

// Limiter bounds how many uploads are decoded at once (each may take up to MaxDecodeBytes): one
// more waits for a slot up to its wait, then gets ErrBusy. It is safe for concurrent use.
type Limiter struct {
	slots chan struct{}
	wait  time.Duration
}

// NewLimiter lets n uploads decode at once, a further one wait up to wait.
func NewLimiter(n int, wait time.Duration) *Limiter {
	return &Limiter{slots: make(chan struct{}, n), wait: wait}
}

// Process is Process within the limit.
func (l *Limiter) Process(ctx context.Context, r io.Reader) (*Picture, error) {
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-l.slots }()
	return Process(r)
}

// Variant is one picture made of an upload.
type Variant struct {
	Width, Height int
	ContentType   string // image/jpeg, or image/png for a picture with transparency
	Data          []byte
}

// Ext is the file extension of the variant's type: "jpg" or "png".
func (v Variant) Ext() string {
	if v.ContentType == "image/png" {
		return "png"
	}
	return "jpg"
}

// Picture is what an upload becomes: its key (a digest of the pictures, so that a changed
// picture gets new URLs and the old ones may be cached for ever) and its two variants, small
// first.
type Picture struct {
	Key      string
	Variants [2]Variant
}

// Process reads an upload of at most MaxBytes and makes its Picture.
func Process(r io.Reader) (*Picture, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("imaging: reading the upload: %w", err)
	}
	if len(raw) > MaxBytes {
		return nil, ErrTooLarge
	}
	switch http.DetectContentType(raw) {
	case "image/jpeg", "image/png", "image/webp":
	default:
		return nil, ErrNotImage
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return nil, ErrNotImage
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, ErrNotImage
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || cfg.Width*cfg.Height > MaxPixels {
		return nil, ErrTooLarge
	}
	if n := DecodeSize(cfg); n > MaxDecodeBytes {
		return nil, &TooLargeError{Width: cfg.Width, Height: cfg.Height, Bytes: n}
	}
	if !complete(raw, cfg) {
		return nil, ErrNotImage
	}
	src, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, ErrNotImage
	}
	src = cropTall(src)
	opaque := isOpaque(src)
	p := &Picture{}
	h := sha256.New()
	// The large variant from the source, the small one from the large: scaling by two costs a
	// fraction of scaling the source again, with no visible difference.
	large, err := variant(src, LargeWidth, opaque)
	if err != nil {
		return nil, err
	}
	small, err := variant(large.img, SmallWidth, opaque)
	if err != nil {
		return nil, err
	}
	p.Variants = [2]Variant{small.Variant, large.Variant}
	for _, v := range p.Variants {
		h.Write(v.Data)
	}
	p.Key = hex.EncodeToString(h.Sum(nil))[:24]
	return p, nil
}

// cropTall keeps the middle of a picture taller than maxAspect times its width.
func cropTall(src image.Image) image.Image {
	b := src.Bounds()
	if b.Dy() <= b.Dx()*maxAspect {
		return src
	}
	h := b.Dx() * maxAspect
	top := b.Min.Y + (b.Dy()-h)/2
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), h))
	draw.Draw(dst, dst.Bounds(), src, image.Pt(b.Min.X, top), draw.Src)
	return dst
}

// isOpaque reports whether every pixel of img is opaque (then JPEG loses nothing that shows).
func isOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

// scaled is a variant with its pixels, to scale again.
type scaled struct {
	Variant
	img *image.RGBA
}

// variant scales src to width w (never up) and encodes it.
func variant(src image.Image, w int, opaque bool) (scaled, error) {
	b := src.Bounds()
	if w > b.Dx() {
		w = b.Dx()
	}
	h := max(1, (b.Dy()*w+b.Dx()/2)/b.Dx())
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, xdraw.Src, nil)
	var buf bytes.Buffer
	v := scaled{Variant: Variant{Width: w, Height: h}, img: dst}
	if opaque {
		v.ContentType = "image/jpeg"
		if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 82}); err != nil {
			return v, fmt.Errorf("imaging: encoding: %w", err)
		}
	} else {
		v.ContentType = "image/png"
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&buf, dst); err != nil {
			return v, fmt.Errorf("imaging: encoding: %w", err)
		}
	}
	v.Data = buf.Bytes()
	return v, nil
}
