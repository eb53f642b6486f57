// Package imaging turns an uploaded product photo into the pictures the shop serves: the upload
// is sniffed (JPEG, PNG or WebP only), its dimensions and what decoding it would allocate are
// bounded before it is decoded (a small file cannot claim a gigapixel image, nor 16-bit pixels
// by the hundred megabytes), and it is re-encoded at two widths, shrunk by a whole factor and
// then scaled with golang.org/x/image's Catmull-Rom. A Limiter bounds how many decode at once
// and gives their memory back. Re-encoding keeps the pixels only: EXIF (with its GPS
// position), ICC profiles and comments never reach a shopper. The store's logo goes through the
// same decoding, and is made at the sizes of the pages, the e-mails and the favicons, whole
// (ProcessLogo).
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
	"runtime/debug"
	"time"

	xdraw "golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers WebP with image.Decode
)

// Limits of an upload.
const (
	MaxBytes  = 5 << 20  // 5 MB
	MaxPixels = 40 << 20 // width × height of the source (about 6500 × 6500)
	MaxSide   = 10000    // the longest side of the source
	// MaxDecodeBytes bounds what decoding an upload allocates (DecodeSize): a 326 KB 16-bit
	// RGBA PNG of 6476 × 6476, within MaxPixels, would take 320 MB. Two decodes at once
	// (Limiter), each with its scaling buffers (up to 45 MB), stay under 300 MB; an 8-bit RGBA
	// PNG may have 26 megapixels, a progressive 4:2:0 JPEG 14, a baseline one 40 (MaxPixels).
	MaxDecodeBytes = 100 << 20
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
		"save it smaller or with 8 bits per channel", e.Width, e.Height, (e.Bytes+1<<19)>>20, MaxDecodeBytes>>20)
}

// Is makes a TooLargeError ErrTooLarge.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// DecodeSize is what decoding raw, whose header says cfg, allocates at its peak: width ×
// height × the bytes a pixel of its colour model takes (16-bit channels twice 8-bit ones; an
// unknown model counted at the most, 8), and what each decoder keeps beside the picture: a
// progressive JPEG's coefficients (4 bytes a sample, five times its pixels), a CMYK JPEG's
// planes before they are interleaved, an interlaced PNG's passes, a lossless or transparent
// WebP's second copy.
func DecodeSize(raw []byte, cfg image.Config) int64 {
	n := int64(cfg.Width) * int64(cfg.Height) * bytesPerPixel(cfg.ColorModel)
	switch http.DetectContentType(raw) {
	case "image/jpeg":
		if j, ok := jpegSize(raw); ok {
			return j
		}
	case "image/png":
		if len(raw) > 28 && raw[28] == 1 { // IHDR's interlace method: Adam7
			return 2 * n
		}
	case "image/webp":
		if cfg.ColorModel != color.YCbCrModel {
			return 2 * n
		}
	}
	return n
}

// bytesPerPixel is what a pixel of colour model m takes decoded.
func bytesPerPixel(m color.Model) int64 {
	switch m {
	case color.GrayModel, color.AlphaModel:
		return 1
	case color.Gray16Model, color.Alpha16Model:
		return 2
	case color.YCbCrModel:
		return 3 // 4:4:4 at most
	case color.RGBAModel, color.NRGBAModel, color.CMYKModel, color.NYCbCrAModel:
		return 4
	case color.RGBA64Model, color.NRGBA64Model:
		return 8
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}

// jpegSize is what image/jpeg allocates decoding raw, read from its frame header (SOF): a plane
// of each component in whole MCUs, the coefficients of each (a 256-byte block per 8 × 8
// samples) when it is progressive, and a 4-byte-a-pixel picture beside the planes when it has
// four components (CMYK). ok is false without a frame header.
func jpegSize(raw []byte) (n int64, ok bool) {
	sof, progressive := jpegFrame(raw)
	if len(sof) < 6 {
		return 0, false
	}
	height, width, nComp := int64(sof[1])<<8|int64(sof[2]), int64(sof[3])<<8|int64(sof[4]), int(sof[5])
	if len(sof) < 6+3*nComp || nComp == 0 {
		return 0, false
	}
	hMax, vMax := int64(1), int64(1)
	for c := range nComp {
		hv := sof[7+3*c]
		hMax, vMax = max(hMax, int64(hv>>4)), max(vMax, int64(hv&15))
	}
	mxx, myy := (width+8*hMax-1)/(8*hMax), (height+8*vMax-1)/(8*vMax)
	for c := range nComp {
		hv := sof[7+3*c]
		samples := mxx * int64(hv>>4) * myy * int64(hv&15) * 64
		n += samples
		if progressive {
			n += 4 * samples
		}
	}
	if nComp == 4 {
		n += 4 * width * height
	}
	return n, true
}

// jpegFrame finds the frame header's body (after its length) in raw's markers, and whether the
// frame is progressive (SOF2, SOF6, SOF10, SOF14).
func jpegFrame(raw []byte) (sof []byte, progressive bool) {
	for i := 2; i+4 <= len(raw) && raw[i] == 0xff; {
		switch m := raw[i+1]; {
		case m == 0xff: // a fill byte before the marker
			i++
		case m == 0xd8 || m == 0x01 || (m >= 0xd0 && m <= 0xd7): // a marker without a length
			i += 2
		case isFrame(m):
			return raw[i+4 : min(len(raw), i+2+(int(raw[i+2])<<8|int(raw[i+3])))], m&3 == 2
		default:
			i += 2 + (int(raw[i+2])<<8 | int(raw[i+3]))
		}
	}
	return nil, false
}

// isFrame reports whether JPEG marker m starts a frame (SOF0 to SOF15, but DHT, JPG and DAC).
func isFrame(m byte) bool {
	return m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 && m != 0xcc
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
	var p *Picture
	err := l.run(ctx, func() (err error) { p, err = Process(r); return err })
	return p, err
}

// ProcessLogo is ProcessLogo within the limit (the same slots as product pictures').
func (l *Limiter) ProcessLogo(ctx context.Context, r io.Reader) (*Logo, error) {
	var p *Logo
	err := l.run(ctx, func() (err error) { p, err = ProcessLogo(r); return err })
	return p, err
}

// run runs decode in a slot, waiting for one up to the limiter's wait.
func (l *Limiter) run(ctx context.Context, decode func() error) error {
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
	case <-t.C:
		return ErrBusy
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-l.slots }()
	// Give back what the upload took before the slot is free: without a collection here the
	// next decodes would allocate beside the last ones' garbage (the collector lets the heap
	// grow to twice what was live), and without returning the pages the process would keep
	// them (the background scavenger returns them over minutes). debug.FreeOSMemory does both
	// in one call; it costs a collection, milliseconds beside a decode.
	defer debug.FreeOSMemory()
	return decode()
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
	src, err := decode(r)
	if err != nil {
		return nil, err
	}
	src = cropTall(src)
	opaque := isOpaque(src)
	// The large variant from the source, the small one from the large: halving it costs a
	// fraction of scaling the source again, with no visible difference.
	large, err := variant(src, LargeWidth, opaque)
	if err != nil {
		return nil, err
	}
	small, err := variant(large.img, SmallWidth, opaque)
	if err != nil {
		return nil, err
	}
	p := &Picture{Variants: [2]Variant{small.Variant, large.Variant}}
	h := sha256.New()
	for _, v := range p.Variants {
		h.Write(v.Data)
	}
	p.Key = hex.EncodeToString(h.Sum(nil))[:24]
	return p, nil
}

// decode reads an upload of at most MaxBytes and decodes it, once admit let it through.
func decode(r io.Reader) (image.Image, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("imaging: reading the upload: %w", err)
	}
	if len(raw) > MaxBytes {
		return nil, ErrTooLarge
	}
	if err := admit(raw); err != nil {
		return nil, err
	}
	src, _, err := image.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, ErrNotImage
	}
	return src, nil
}

// admit refuses, before decoding, an upload that is not a JPEG, PNG or WebP picture, claims
// more pixels than the limits, would take more than MaxDecodeBytes to decode, or is cut short.
func admit(raw []byte) error {
	switch http.DetectContentType(raw) {
	case "image/jpeg", "image/png", "image/webp":
	default:
		return ErrNotImage
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return ErrNotImage
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || cfg.Width*cfg.Height > MaxPixels {
		return ErrTooLarge
	}
	if n := DecodeSize(raw, cfg); n > MaxDecodeBytes {
		return &TooLargeError{Width: cfg.Width, Height: cfg.Height, Bytes: n}
	}
	if !complete(raw, cfg) {
		return ErrNotImage
	}
	return nil
}

// cropTall keeps the middle of a picture taller than maxAspect times its width, without a copy
// (every decoder's picture has SubImage).
func cropTall(src image.Image) image.Image {
	b := src.Bounds()
	if b.Dy() <= b.Dx()*maxAspect {
		return src
	}
	h := b.Dx() * maxAspect
	top := b.Min.Y + (b.Dy()-h)/2
	r := image.Rect(b.Min.X, top, b.Max.X, top+h)
	if s, ok := src.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		return s.SubImage(r)
	}
	dst := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	draw.Draw(dst, dst.Bounds(), src, r.Min, draw.Src)
	return dst
}

// shrink reduces src by the largest whole factor that keeps it at least w pixels wide, each
// factor × factor block averaged in premultiplied RGBA (transparent pixels do not darken their
// neighbours), converting a band of factor rows at a time. The Catmull-Rom scaler then works on
// a picture under twice its output's width: its buffer (output width × source height × 32
// bytes) would take 130 MB for a source 6476 pixels tall.
func shrink(src image.Image, w int) image.Image {
	b := src.Bounds()
	k := b.Dx() / w
	if k < 2 {
		return src
	}
	dst := image.NewRGBA(image.Rect(0, 0, (b.Dx()+k-1)/k, (b.Dy()+k-1)/k))
	band := image.NewRGBA(image.Rect(0, 0, b.Dx(), k))
	sums := make([]uint32, 4*dst.Rect.Dx())
	for oy := range dst.Rect.Dy() {
		y0 := b.Min.Y + oy*k
		rows := min(k, b.Max.Y-y0)
		draw.Draw(band, image.Rect(0, 0, b.Dx(), rows), src, image.Pt(b.Min.X, y0), draw.Src)
		clear(sums)
		for y := range rows {
			for x, px := 0, band.Pix[y*band.Stride:]; x < b.Dx(); x++ {
				o := 4 * (x / k)
				sums[o] += uint32(px[4*x])
				sums[o+1] += uint32(px[4*x+1])
				sums[o+2] += uint32(px[4*x+2])
				sums[o+3] += uint32(px[4*x+3])
			}
		}
		out := dst.Pix[oy*dst.Stride:]
		for ox := range dst.Rect.Dx() {
			n := uint32(min(k, b.Dx()-ox*k) * rows)
			for c := range 4 {
				out[4*ox+c] = uint8((sums[4*ox+c] + n/2) / n)
			}
		}
	}
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

// variant scales src to width w (never up) and encodes it: shrunk by a whole factor, then
// Catmull-Rom's unless that made it w wide already (the small variant from the large).
func variant(src image.Image, w int, opaque bool) (scaled, error) {
	src = shrink(src, w)
	b := src.Bounds()
	if w > b.Dx() {
		w = b.Dx()
	}
	h := max(1, (b.Dy()*w+b.Dx()/2)/b.Dx())
	dst, ok := src.(*image.RGBA)
	if !ok || b.Dx() != w || b.Dy() != h {
		dst = image.NewRGBA(image.Rect(0, 0, w, h))
		xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, xdraw.Src, nil)
	}
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
