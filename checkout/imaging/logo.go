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
// pad it to a square; the installed app's icons, which a launcher shows large, fit it to theirs,
// scaling a small logo up. Every size is a PNG: a logo's flat colours and sharp edges, and its
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
	// LogoApp and LogoAppLarge are the icons of the installed point of sale (its web app
	// manifest): 192 × 192 and 512 × 512, the sizes browsers ask of an installable app, made as
	// LogoTouch is (AppIcon).
	LogoApp      = "192"
	LogoAppLarge = "512"
)

// LogoSizes are the sizes of a Logo's Variants, in their order.
var LogoSizes = [6]string{LogoHeader, LogoMail, LogoIcon, LogoTouch, LogoApp, LogoAppLarge}

// AppIconSizes are the sizes AppIcon makes, and their side in pixels.
var AppIconSizes = map[string]int{LogoTouch: 180, LogoApp: 192, LogoAppLarge: 512}

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
	Variants [6]Variant
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
	// One scaling from the source to the largest any size needs (the large app icon's side,
	// past the header's width and the mail's height), then each size from that.
	b := src.Bounds()
	w, h := Fit(b.Dx(), b.Dy(), 512, 512)
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
		default:
			img = appIcon(base, AppIconSizes[size])
		}
		v, err := logoPNG(img)
		if err != nil {
			return nil, err
		}
		l.Variants[i] = v
	}
	d := sha256.New()
	for _, v := range l.Variants {
		d.Write(v.Data)
	}
	l.Key = hex.EncodeToString(d.Sum(nil))[:24]
	return l, nil
}

// AppIcon makes the icon of size (one of AppIconSizes) of a logo already made, from the
// picture of another of its sizes (the largest there is): a logo stored before that size
// existed gets it from what was kept of it, the upload itself being gone.
func AppIcon(from []byte, size string) (Variant, error) {
	side, ok := AppIconSizes[size]
	if !ok {
		return Variant{}, fmt.Errorf("imaging: %q is no app icon size", size)
	}
	src, err := decode(bytes.NewReader(from))
	if err != nil {
		return Variant{}, err
	}
	return logoPNG(appIcon(src, side))
}

// appIcon is src fitted inside a side × side square less a margin (touchMargin's share of
// 180), centred on white: a launcher draws transparency black. Unlike the other sizes a small
// logo is scaled up to fill it.
func appIcon(src image.Image, side int) *image.RGBA {
	margin := (side*touchMargin + 90) / 180
	b := src.Bounds()
	box := side - 2*margin
	w, h := box, max(1, (b.Dy()*box+b.Dx()/2)/b.Dx())
	if b.Dy() > b.Dx() {
		w, h = max(1, (b.Dx()*box+b.Dy()/2)/b.Dy()), box
	}
	inner := scaleTo(src, w, h)
	dst := image.NewRGBA(image.Rect(0, 0, side, side))
	draw.Draw(dst, dst.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	at := image.Pt((side-w)/2, (side-h)/2)
	draw.Draw(dst, inner.Rect.Add(at), inner, image.Point{}, draw.Over)
	return dst
}

// logoPNG encodes one of a logo's pictures.
func logoPNG(img *image.RGBA) (Variant, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return Variant{}, fmt.Errorf("imaging: encoding a logo: %w", err)
	}
	return Variant{Width: img.Rect.Dx(), Height: img.Rect.Dy(), ContentType: "image/png", Data: buf.Bytes()}, nil
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
