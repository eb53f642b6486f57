package imaging

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"

	xdraw "golang.org/x/image/draw"
)

// The store's logo (package brand) is decoded like a product picture (the same limits) but
// never cropped: each size fits the whole logo inside its box, never scaled up, and the favicons
// pad it to a square. Every size is a PNG: a logo's flat colours and sharp edges, and its
// transparency, are what JPEG does worst.

// The sizes a logo is made at, by name (the last part of its URL):
const (
	// LogoHeader is the pages' header and the posters: inside LogoHeaderBox, the header's 48
	// CSS pixels high at twice the density.
	LogoHeader = "h"
	// LogoMail is the e-mails': inside LogoMailBox, 200 CSS pixels wide at twice the density.
	LogoMail = "m"
	// LogoIcon is the favicon: 32 × 32, the logo centred on transparency.
	LogoIcon = "32"
	// LogoTouch is the icon a phone keeps on its home screen (apple-touch-icon): 180 × 180,
	// the logo centred on white with a margin (the system draws transparency black).
	LogoTouch = "180"
)

// LogoSizes are the sizes of a Logo's Variants, in their order.
var LogoSizes = [4]string{LogoHeader, LogoMail, LogoIcon, LogoTouch}

// The boxes a logo fits inside, in pixels (width, height).
var (
	LogoHeaderBox = [2]int{480, 96}
	LogoMailBox   = [2]int{400, 160}
)

// touchMargin is the white margin around the logo in the LogoTouch icon, in pixels.
const touchMargin = 14

// Logo is what an uploaded logo becomes: its key (a digest of its pictures, so that a new logo
// gets new URLs and the old ones may be cached for ever) and its pictures in LogoSizes' order.
type Logo struct {
	Key      string
	Variants [4]Variant
}

// Variant returns the picture of size (one of LogoSizes), and whether there is one.
func (l *Logo) Variant(size string) (Variant, bool) {
	for i, s := range LogoSizes {
		if s == size {
			return l.Variants[i], true
		}
	}
	return Variant{}, false
}

// ProcessLogo reads an upload of at most MaxBytes (refused as Process refuses) and makes its
// Logo: re-encoded without its metadata, whole, at each of LogoSizes.
func ProcessLogo(r io.Reader) (*Logo, error) {
	src, err := decode(r)
	if err != nil {
		return nil, err
	}
	// One scaling from the source to the largest any size needs (the header's width, the
	// touch icon's height), then each size from that.
	b := src.Bounds()
	w, h := Fit(b.Dx(), b.Dy(), LogoHeaderBox[0], max(LogoMailBox[1], 180))
	base := scaleTo(src, w, h)
	l := &Logo{}
	for i, size := range LogoSizes {
		var img *image.RGBA
		switch size {
		case LogoHeader:
			img = fitInside(base, LogoHeaderBox[0], LogoHeaderBox[1])
		case LogoMail:
			img = fitInside(base, LogoMailBox[0], LogoMailBox[1])
		case LogoIcon:
			img = square(base, 32, 0, color.Transparent)
		case LogoTouch:
			img = square(base, 180, touchMargin, color.White)
		}
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&buf, img); err != nil {
			return nil, fmt.Errorf("imaging: encoding a logo: %w", err)
		}
		l.Variants[i] = Variant{Width: img.Rect.Dx(), Height: img.Rect.Dy(), ContentType: "image/png", Data: buf.Bytes()}
	}
	d := sha256.New()
	for _, v := range l.Variants {
		d.Write(v.Data)
	}
	l.Key = hex.EncodeToString(d.Sum(nil))[:24]
	return l, nil
}

// Fit is the size of a w × h picture fitted inside a boxW × boxH box, its proportions kept,
// never larger than it is.
func Fit(w, h, boxW, boxH int) (int, int) {
	if w <= 0 || h <= 0 {
		return 0, 0
	}
	if w <= boxW && h <= boxH {
		return w, h
	}
	if w*boxH >= h*boxW { // the width reaches the box first
		return boxW, max(1, (h*boxW+w/2)/w)
	}
	return max(1, (w*boxH+h/2)/h), boxH
}

// fitInside is src fitted inside boxW × boxH (Fit).
func fitInside(src image.Image, boxW, boxH int) *image.RGBA {
	b := src.Bounds()
	w, h := Fit(b.Dx(), b.Dy(), boxW, boxH)
	return scaleTo(src, w, h)
}

// square is src fitted inside a side × side square less margin on each side, centred on bg.
func square(src image.Image, side, margin int, bg color.Color) *image.RGBA {
	inner := fitInside(src, side-2*margin, side-2*margin)
	dst := image.NewRGBA(image.Rect(0, 0, side, side))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	at := image.Pt((side-inner.Rect.Dx())/2, (side-inner.Rect.Dy())/2)
	draw.Draw(dst, inner.Rect.Add(at), inner, image.Point{}, draw.Over)
	return dst
}

// scaleTo scales src to w × h: shrunk by a whole factor first (shrink), then Catmull-Rom's;
// a copy when it is that size already.
func scaleTo(src image.Image, w, h int) *image.RGBA {
	src = shrink(src, w)
	b := src.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if b.Dx() == w && b.Dy() == h {
		draw.Draw(dst, dst.Bounds(), src, b.Min, draw.Src)
		return dst
	}
	xdraw.CatmullRom.Scale(dst, dst.Bounds(), src, b, xdraw.Src, nil)
	return dst
}
