package brand_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

// cssVars reads the custom properties of a stylesheet's :root blocks: the first (light) and the
// one inside @media (prefers-color-scheme: dark).
func cssVars(t *testing.T, css string) (light, dark map[string]string) {
	t.Helper()
	decl := regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})`)
	read := func(block string) map[string]string {
		m := map[string]string{}
		for _, d := range decl.FindAllStringSubmatch(block, -1) {
			m[d[1]] = strings.ToLower(d[2])
		}
		return m
	}
	i := strings.Index(css, "@media (prefers-color-scheme: dark)")
	if i < 0 {
		return read(css), map[string]string{}
	}
	return read(css[:i]), read(css[i:])
}

// TestHardColours: for colours a merchant may pick that are hard to read (white, yellow, light
// grey, black, pure red), every text and control pair the generated stylesheet makes, over the
// backgrounds app.css has in each scheme, meets WCAG AA: 4.5:1 for links and buttons' text, 3:1
// for the accent band.
func TestHardColours(t *testing.T) {
	app, err := os.ReadFile("../../static/files/app.css")
	if err != nil {
		t.Fatal(err)
	}
	baseLight, baseDark := cssVars(t, string(app))
	for i, base := range []map[string]string{baseLight, baseDark} {
		if base["bg"] != brand.Schemes[i].Page || base["card"] != brand.Schemes[i].Card || base["primary"] != brand.Schemes[i].DefaultP {
			t.Fatalf("brand.Schemes[%d] %+v differs from app.css's --bg %s, --card %s, --primary %s", i, brand.Schemes[i],
				base["bg"], base["card"], base["primary"])
		}
	}
	hard := []string{"#ffffff", "#ffff00", "#d3d3d3", "#000000", "#ff0000", "#0a6b61"}
	for _, brandC := range hard {
		for _, accent := range append([]string{""}, hard...) {
			css, hash := brand.Profile{BrandColor: brandC, AccentColor: accent}.Stylesheet()
			if len(hash) != 16 {
				t.Fatalf("hash %q", hash)
			}
			light, dark := cssVars(t, css)
			for si, over := range []map[string]string{light, dark} {
				v := map[string]string{}
				for k, x := range []map[string]string{baseLight, baseDark}[si] {
					v[k] = x
				}
				for k, x := range over {
					v[k] = x
				}
				pairs := []struct {
					what       string
					fore, back string
					min        float64
				}{
					{"link on page", "primary", "bg", 4.5}, {"link on card", "primary", "card", 4.5},
					{"hovered link on page", "primary-hover", "bg", 4.5}, {"hovered link on card", "primary-hover", "card", 4.5},
					{"button text", "on-primary", "primary", 4.5}, {"hovered button text", "on-primary", "primary-hover", 4.5},
					{"secondary button's border on card", "primary", "card", 3},
				}
				if _, ok := v["accent"]; ok {
					pairs = append(pairs, struct {
						what       string
						fore, back string
						min        float64
					}{"accent band on page", "accent", "bg", 3})
				} else if strings.Contains(css, "var(--accent)") {
					t.Errorf("%s/%s: the stylesheet uses --accent without setting it", brandC, accent)
				}
				for _, p := range pairs {
					if r := brand.Contrast(v[p.fore], v[p.back]); r < p.min {
						t.Errorf("brand %s accent %q, %s scheme: %s %s on %s is %.2f:1, under %.1f:1", brandC, accent,
							brand.Schemes[si].Name, p.what, v[p.fore], v[p.back], r, p.min)
					}
				}
			}
		}
	}
}

// TestNoColourNoChange: a store without colours gets a stylesheet that sets nothing, so that
// its pages look as the product's own; the shades used are shown as the page says.
func TestNoColourNoChange(t *testing.T) {
	css, _ := brand.Profile{Name: "Loja"}.Stylesheet()
	if strings.Contains(css, "--") || strings.Contains(css, "{") {
		t.Errorf("a store without colours: %q", css)
	}
	if brand.Contrast("#ffffff", "#000000") < 20.9 || brand.Contrast("#777777", "#777777") != 1 {
		t.Error("Contrast is off")
	}
	// A colour readable already is kept as chosen in the light scheme.
	if pal := (brand.Profile{BrandColor: "#0a6b61"}).Palette(); pal[0].Primary != "#0a6b61" {
		t.Errorf("a readable colour was changed: %s", pal[0].Primary)
	}
}
