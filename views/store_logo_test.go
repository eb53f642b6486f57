package views

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

// TestStoreLogo: a logo is shown at its header picture's size, halved (twice the density), and
// within the header's box; a logo whose pictures are missing (no size read) is none.
func TestStoreLogo(t *testing.T) {
	l := StoreLogo(brand.Profile{LogoKey: "k", LogoWidth: 384, LogoHeight: 96})
	if w, h := l.HeaderSize(); w != 192 || h != 48 || l.HeaderSrc() != "/images/store/k-h.png" {
		t.Errorf("a 4:1 logo: %d×%d at %s", w, h, l.HeaderSrc())
	}
	if w, h := l.MailSize(); w != 200 || h != 50 {
		t.Errorf("in e-mails: %d×%d", w, h)
	}
	if l := StoreLogo(brand.Profile{LogoKey: "k"}); l.Key != "" {
		t.Errorf("a logo without pictures: %+v", l)
	}
}
