package views

import (
	"fmt"
	"html"
	"io"
	"strings"
	"unicode/utf8"
)

// PosterView is a payment link's printable poster: an SVG document of the paper's size that
// the browser shows and prints as it is.
type PosterView struct {
	Lang     Lang
	Merchant string
	Title    string
	Amount   string // the fixed amount as shown; "" when the payer types it or it is a cart
	URL      string // the link's address, under the QR code
	// QRPath is the QR code of URL as an SVG path (gatewayclient/qr's SVGPath) in a square of
	// QRModules units, quiet zone included.
	QRPath    string
	QRModules int
	Size      string // "a4" or "a6"
	Ink       string // "dark": a solid band behind the merchant's name; "light": lines and text only
	// Loopback: URL names this machine; the poster says, in red above the QR code, that no
	// phone will open it.
	Loopback bool
	// Logo is the store's logo, drawn above its name (on white, whatever the ink); none when
	// its Key is "". Its picture is the header's, at the poster's own address.
	Logo Logo
	// Colour is the store's colour as its pages draw buttons (readable under white text): the
	// dark ink's band and the light ink's line and name; "" the poster's own near-black.
	Colour string
}

// Paper sizes of the posters, in millimetres.
var posterSizes = map[string][2]float64{"a4": {210, 297}, "a6": {105, 148}}

// PosterSizes and PosterInks are the posters offered.
func PosterSizes() []string { return []string{"a4", "a6"} }

// PosterInks are the inks of the posters: dark prints a solid band, light saves ink.
func PosterInks() []string { return []string{"light", "dark"} }

// Poster writes the poster v. Every length is in millimetres of the A4 page, scaled to the
// paper: the A6 poster is the A4 one at half size. The QR code is always black on white, with
// its quiet zone, whatever the ink: that is what every camera reads.
func Poster(w io.Writer, v PosterView) error {
	size, ok := posterSizes[v.Size]
	if !ok {
		return fmt.Errorf("views: no poster of size %q", v.Size)
	}
	k := size[0] / 210
	var b strings.Builder
	f := func(x float64) string { return fmt.Sprintf("%.2f", x*k) }
	esc := html.EscapeString
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" height="%gmm" viewBox="0 0 %g %g" role="img" aria-label="%s" font-family="sans-serif" text-anchor="middle">
<title>%s</title>
<rect width="100%%" height="100%%" fill="#ffffff"/>
`, size[0], size[1], size[0], size[1], esc(v.Title), esc(v.Merchant+" · "+v.Title))
	ink, brandColour := "#111111", "#111111"
	if v.Colour != "" {
		brandColour = v.Colour
	}
	nameColour := brandColour
	if v.Ink == "dark" {
		fmt.Fprintf(&b, `<rect width="100%%" height="%s" fill="%s"/>`+"\n", f(42), brandColour)
		nameColour = "#ffffff"
	} else {
		fmt.Fprintf(&b, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="%s" stroke-width="%s"/>`+"\n", f(20), f(190), f(42), f(42), brandColour, f(0.6))
	}
	nameY, nameSize := 27.0, 13.0
	if v.Logo.Key != "" && v.Logo.Width > 0 && v.Logo.Height > 0 {
		// The logo whole in a box of up to 120 × 16 mm atop the band, on a white card (a dark
		// logo stays visible on the dark band); the name smaller below it.
		h := 16.0
		w := h * float64(v.Logo.Width) / float64(v.Logo.Height)
		if w > 120 {
			w, h = 120, 120*float64(v.Logo.Height)/float64(v.Logo.Width)
		}
		top := 5 + (16-h)/2
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" rx="%s" fill="#ffffff"/>`+"\n",
			f(105-w/2-2), f(top-1.5), f(w+4), f(h+3), f(1.5))
		fmt.Fprintf(&b, `<image href="%s" x="%s" y="%s" width="%s" height="%s" preserveAspectRatio="xMidYMid meet" data-testid="poster-logo"/>`+"\n",
			esc(v.Logo.HeaderSrc()), f(105-w/2), f(top), f(w), f(h))
		nameY, nameSize = 35, 9
	}
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" font-weight="bold" fill="%s" data-testid="poster-merchant">%s</text>`+"\n",
		f(105), f(nameY), f(nameSize), nameColour, esc(v.Merchant))
	y := 62.0
	for _, line := range wrapWords(v.Title, 28) {
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" fill="%s" data-testid="poster-title">%s</text>`+"\n", f(105), f(y), f(14), ink, esc(line))
		y += 17
	}
	if v.Amount != "" {
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" font-weight="bold" fill="%s" data-testid="poster-amount">%s</text>`+"\n",
			f(105), f(y+6), f(22), ink, esc(v.Amount))
		y += 28
	}
	side := 120.0
	top := max(y, 100)
	if v.Loopback {
		fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" font-weight="bold" fill="#b00020" data-testid="poster-loopback">%s</text>`+"\n",
			f(105), f(top-4), f(6), esc(T(v.Lang, "links.poster_loopback")))
	}
	scale := side * k / float64(v.QRModules)
	fmt.Fprintf(&b, `<g id="qr" transform="translate(%s %s) scale(%.4f)"><rect width="%d" height="%d" fill="#ffffff"/><path fill="#000000" shape-rendering="crispEdges" d="%s"/></g>`+"\n",
		f(105-side/2), f(top), scale, v.QRModules, v.QRModules, v.QRPath)
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" fill="%s">%s</text>`+"\n", f(105), f(top+side+12), f(8), ink, esc(T(v.Lang, "links.poster_scan")))
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s" font-family="monospace" fill="%s" data-testid="poster-url">%s</text>`+"\n",
		f(105), f(top+side+22), f(6), ink, esc(v.URL))
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// wrapWords splits s into lines of at most width characters, at spaces (a longer word is a
// line of its own).
func wrapWords(s string, width int) []string {
	var lines []string
	var cur string
	for _, w := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = w
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(w) <= width:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
