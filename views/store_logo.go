package views

import (
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

// StoreLogoPath is where the pictures of the store's logo are served: StoreLogoPath +
// "{key}-{size}.png", size one of imaging.LogoSizes. The key is a digest of the pictures: a URL
// never changes content, and a new logo gets new URLs.
const StoreLogoPath = ImagePath + "store/"

// Logo is the store's logo as the pages show it; the zero value is none.
type Logo struct {
	Key           string
	Width, Height int // the header picture's, in pixels (twice its size on the page)
}

// Src is the path of the logo's picture of size (one of imaging.LogoSizes).
func (l Logo) Src(size string) string {
	return StoreLogoPath + l.Key + "-" + size + ".png"
}

// HeaderSrc, MailSrc, IconSrc and TouchSrc are the paths of the logo's pictures for the pages'
// header, the e-mails, the favicon and the phones' home screen.
func (l Logo) HeaderSrc() string { return l.Src(imaging.LogoHeader) }

// MailSrc: see HeaderSrc.
func (l Logo) MailSrc() string { return l.Src(imaging.LogoMail) }

// IconSrc: see HeaderSrc.
func (l Logo) IconSrc() string { return l.Src(imaging.LogoIcon) }

// TouchSrc: see HeaderSrc.
func (l Logo) TouchSrc() string { return l.Src(imaging.LogoTouch) }

// HeaderSize is the size the header shows the logo at, in CSS pixels: at most
// imaging.LogoHeaderBox at twice the density.
func (l Logo) HeaderSize() (w, h int) {
	return imaging.Fit(l.Width, l.Height, imaging.LogoHeaderBox[0]/2, imaging.LogoHeaderBox[1]/2)
}

// MailSize is the size an e-mail shows the logo at, in CSS pixels: at most imaging.LogoMailBox
// at twice the density.
func (l Logo) MailSize() (w, h int) {
	return imaging.Fit(l.Width, l.Height, imaging.LogoMailBox[0]/2, imaging.LogoMailBox[1]/2)
}

// StoreLogoForm is the logo's part of the "Loja" page: its own multipart form, and a form that
// removes it.
type StoreLogoForm struct {
	Action       string // POST, multipart: the file in "logo"
	RemoveAction string // POST: removes the logo
	Error        string // why the last upload was refused
}

// StoreLogo is the logo of the store's profile p; none when it has no logo, or when its
// pictures are missing (the store read no size for them): a page then shows the store's name
// rather than a broken picture.
func StoreLogo(p brand.Profile) Logo {
	if p.LogoKey == "" || p.LogoWidth <= 0 || p.LogoHeight <= 0 {
		return Logo{}
	}
	return Logo{Key: p.LogoKey, Width: p.LogoWidth, Height: p.LogoHeight}
}
