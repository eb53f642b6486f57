package brand

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// WCAG 2.x AA's contrast minimums: normal text; large text and the parts of controls.
const (
	MinTextContrast    = 4.5
	MinControlContrast = 3.0
)

// Scheme is one of the colour schemes the pages have (app.css: light, and dark by
// prefers-color-scheme), by the backgrounds the brand's colours are drawn on.
type Scheme struct {
	Name     string // "light" or "dark"
	Page     string // --bg: the page
	Card     string // --card: the cards the forms and buttons sit on
	Dark     bool   // the backgrounds are dark: a colour is lightened to stand out, not darkened
	DefaultP string // app.css's own --primary, shown when the store has no colour
}

// Schemes are the pages' colour schemes. A test holds them to app.css.
var Schemes = []Scheme{
	{Name: "light", Page: "#f3f5f7", Card: "#ffffff", DefaultP: "#0a6b61"},
	{Name: "dark", Page: "#0f1418", Card: "#182027", Dark: true, DefaultP: "#3fc4b4"},
}

// Shades are the colours one scheme's stylesheet sets, from the store's colours, and the
// contrast of each pair the pages draw with them.
type Shades struct {
	Scheme Scheme
	// Primary colours links and secondary buttons' text (on Page and Card) and the buttons'
	// background; Hover is the same on hover; OnPrimary is the buttons' text.
	Primary, Hover, OnPrimary string
	// Accent is the band atop the pages (a graphical part: MinControlContrast on Page); "" none.
	Accent string
}

// Pair is one foreground drawn on one background, with the contrast it needs.
type Pair struct {
	What           string // what is drawn: link_page, link_card, hover_page, hover_card, button, button_hover, accent_page
	Fore, Back     string // #rrggbb
	Ratio, Minimum float64
}

// Pairs are every pair the stylesheet makes in the scheme: link and secondary-button text on
// the page and on cards, at rest and on hover; the buttons' text on their background, at rest
// and on hover; the accent band on the page.
func (s Shades) Pairs() []Pair {
	ps := []Pair{
		{What: "link_page", Fore: s.Primary, Back: s.Scheme.Page, Minimum: MinTextContrast},
		{What: "link_card", Fore: s.Primary, Back: s.Scheme.Card, Minimum: MinTextContrast},
		{What: "hover_page", Fore: s.Hover, Back: s.Scheme.Page, Minimum: MinTextContrast},
		{What: "hover_card", Fore: s.Hover, Back: s.Scheme.Card, Minimum: MinTextContrast},
		{What: "button", Fore: s.OnPrimary, Back: s.Primary, Minimum: MinTextContrast},
		{What: "button_hover", Fore: s.OnPrimary, Back: s.Hover, Minimum: MinTextContrast},
	}
	if s.Accent != "" {
		ps = append(ps, Pair{What: "accent_page", Fore: s.Accent, Back: s.Scheme.Page, Minimum: MinControlContrast})
	}
	for i := range ps {
		ps[i].Ratio = Contrast(ps[i].Fore, ps[i].Back)
	}
	return ps
}

// Palette returns the shades of each scheme (Schemes' order) for the store's colours; nil when
// it has none (the pages keep their own).
func (p Profile) Palette() []Shades {
	if p.BrandColor == "" && p.AccentColor == "" {
		return nil
	}
	out := make([]Shades, len(Schemes))
	for i, sc := range Schemes {
		base := p.BrandColor
		if base == "" {
			base = sc.DefaultP
		}
		sh := Shades{Scheme: sc}
		sh.Primary = readable(base, sc, MinTextContrast)
		// Hover goes further the same way, so that the buttons' text keeps its contrast.
		sh.Hover = readable(mix(sh.Primary, away(sc), 0.2), sc, MinTextContrast)
		sh.OnPrimary = "#ffffff"
		if sc.Dark {
			sh.OnPrimary = "#000000"
		}
		if Contrast(sh.OnPrimary, sh.Primary) < MinTextContrast {
			// Unreachable with Schemes' backgrounds (a colour readable on white cards is readable
			// under white text); kept so that other backgrounds stay safe.
			sh.OnPrimary = invert(sh.OnPrimary)
		}
		accent := cmpOr(p.AccentColor, p.BrandColor)
		if accent != "" {
			sh.Accent = readable(accent, sc, MinControlContrast)
		}
		out[i] = sh
	}
	return out
}

// Stylesheet is the generated stylesheet of the store's colours, and the digest its URL carries
// (/static/store-<hash>.css, cached for ever: new colours, new URL). A store without colours
// gets an empty one: its pages look as the product's own.
func (p Profile) Stylesheet() (css, hash string) {
	var b strings.Builder
	b.WriteString("/* The store's colours, made readable (WCAG AA) in each colour scheme. */\n")
	pal := p.Palette()
	for _, sh := range pal {
		if sh.Scheme.Dark {
			b.WriteString("@media (prefers-color-scheme: dark) {\n")
		}
		fmt.Fprintf(&b, ":root { --primary: %s; --primary-hover: %s; --on-primary: %s;", sh.Primary, sh.Hover, sh.OnPrimary)
		if sh.Accent != "" {
			fmt.Fprintf(&b, " --accent: %s;", sh.Accent)
		}
		b.WriteString(" }\n")
		if sh.Scheme.Dark {
			b.WriteString("}\n")
		}
	}
	if len(pal) > 0 && pal[0].Accent != "" {
		b.WriteString(".site-header { border-top: .25rem solid var(--accent); }\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return b.String(), hex.EncodeToString(sum[:])[:16]
}

// readable returns c, or c darkened (light scheme) or lightened (dark scheme) by the least
// step that gives it min contrast on both the scheme's page and card.
func readable(c string, sc Scheme, min float64) string {
	for i := 0; i <= 100; i++ {
		m := mix(c, away(sc), float64(i)/100)
		if Contrast(m, sc.Page) >= min && Contrast(m, sc.Card) >= min {
			return m
		}
	}
	return away(sc)
}

// away is the colour a shade moves towards to stand out of the scheme's backgrounds.
func away(sc Scheme) string {
	if sc.Dark {
		return "#ffffff"
	}
	return "#000000"
}

// invert returns black for white and white otherwise.
func invert(c string) string {
	if c == "#ffffff" {
		return "#000000"
	}
	return "#ffffff"
}

// cmpOr returns a unless it is empty, else b.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// rgb reads "#rrggbb" (an invalid colour reads as black: Check refuses those before).
func rgb(c string) [3]float64 {
	var out [3]float64
	if len(c) != 7 {
		return out
	}
	for i := range 3 {
		v, _ := strconv.ParseUint(c[1+2*i:3+2*i], 16, 8)
		out[i] = float64(v)
	}
	return out
}

// mix returns a + t × (b − a) in sRGB, as "#rrggbb".
func mix(a, b string, t float64) string {
	x, y := rgb(a), rgb(b)
	var s strings.Builder
	s.WriteByte('#')
	for i := range 3 {
		fmt.Fprintf(&s, "%02x", int(math.Round(x[i]+t*(y[i]-x[i]))))
	}
	return s.String()
}

// Luminance is WCAG's relative luminance of "#rrggbb".
func Luminance(c string) float64 {
	v := rgb(c)
	var l [3]float64
	for i, x := range v {
		x /= 255
		if x <= 0.04045 {
			l[i] = x / 12.92
		} else {
			l[i] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

// Contrast is WCAG's contrast ratio of two colours, from 1 to 21.
func Contrast(a, b string) float64 {
	la, lb := Luminance(a), Luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}
