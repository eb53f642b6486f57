package e2e

import (
	"bytes"
	"fmt"
	"html/template"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/brand"
)

// storeLogoPNG is a 600×150 logo: a magenta band with a dark square, on transparency.
func storeLogoPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 600, 150))
	for y := 20; y < 130; y++ {
		for x := 10; x < 590; x++ {
			c := color.NRGBA{194, 24, 91, 255}
			if x < 130 {
				c = color.NRGBA{20, 20, 20, 255}
			}
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rgb is a "#rrggbb" colour as getComputedStyle writes it.
func rgb(hex string) string {
	v, _ := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	return fmt.Sprintf("rgb(%d, %d, %d)", v>>16, v>>8&0xff, v&0xff)
}

// TestStoreFaceEverywhere: an owner sets the store's name, colour and logo on the "Loja" page;
// the catalogue, the PIX page, the embedded checkout in a cross-site frame (logo asked for) and a
// payment link's poster then show them: the logo loaded with the name as its alt text, the
// buttons in the readable shade of the colour, the favicon from the logo, the poster's QR code
// still read by a decoder from the rendered page. axe finds nothing at 1280 and 390 px.
func TestStoreFaceEverywhere(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{host: "localhost", env: map[string]string{"CHECKOUT_MERCHANT_API_KEY": testAPIKey}},
		playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 900}})
	a.addMerchant(t)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)

	const name, colour = "Café Ñandu", "#c2185b"
	shade := rgb(brand.Profile{BrandColor: colour}.Palette()[0].Primary) // the light scheme's buttons
	s.open(a.url + "/dashboard/store")
	s.check(s.page.Locator("#st-name").Fill(name), "the store's name")
	s.check(d.testID("no_brand_color").Uncheck(), "a brand colour")
	s.check(s.page.Locator("#st-brand_color").Fill(colour), "the colour")
	s.check(d.testID("store-submit").Click(), "save the store")
	s.check(s.expect.Locator(d.testID("notice")).ToBeVisible(), "saved")
	s.check(s.page.Locator("#st-logo").SetInputFiles([]playwright.InputFile{{Name: "logo.png", MimeType: "image/png",
		Buffer: storeLogoPNG(t)}}), "choose the logo")
	s.check(d.testID("logo-submit").Click(), "upload the logo")
	s.check(s.expect.Locator(d.testID("current-logo")).ToBeVisible(), "the logo on the store's page")
	s.check(s.expect.Locator(s.page.Locator(`link[rel="icon"]`)).ToHaveAttribute("href", regexp.MustCompile(`^/images/store/[0-9a-f]{24}-32\.png$`)),
		"the dashboard's favicon")
	s.a11y(s.page, "store")

	// logoShown checks the store's logo in h: visible, loaded, the store's name its alt text.
	logoShown := func(h shop, where string) {
		t.Helper()
		logo := h.testID("store-logo")
		s.check(s.expect.Locator(logo).ToBeVisible(), where+": the logo")
		s.check(s.expect.Locator(logo).ToHaveAttribute("alt", name), where+": the logo's alt text")
		s.check(s.expect.Locator(logo).ToHaveJSProperty("complete", true), where+": the logo loaded")
		if w, err := logo.Evaluate("img => img.naturalWidth", nil); err != nil || toInt(w) == 0 {
			t.Errorf("%s: the logo's picture did not load (%v, %v)", where, w, err)
		}
	}
	buttonShade := func(l playwright.Locator, where string) {
		t.Helper()
		s.check(s.expect.Locator(l).ToHaveCSS("background-color", shade), where+": the button in the store's colour")
	}

	s.open(a.url + "/")
	h := shopIn(s)
	cat := h.catalogue()
	logoShown(h, "catalogue")
	buttonShade(cat.card(digitalProduct).GetByTestId("add-to-cart"), "catalogue")
	s.check(s.expect.Locator(s.page.Locator(`meta[name="description"]`)).ToHaveAttribute("content", regexp.MustCompile(name)), "the description")
	s.check(s.expect.Locator(s.page.Locator(`link[rel="apple-touch-icon"]`)).ToHaveAttribute("href", regexp.MustCompile(`-180\.png$`)), "the phone icon")
	s.a11y(s.page, "catalogue")
	form := cat.add(digitalProduct).checkout()
	form.fillCustomer(validCustomer())
	pix := form.placeOrder()
	s.check(s.expect.Locator(pix.qr()).ToBeVisible(), "the QR code")
	logoShown(pix.shop, "PIX page")
	s.a11y(s.page, "PIX")
	s.shot("pix")
	pixURL := s.page.URL()

	// The embedded checkout in another site's frame, its logo asked for.
	site := newMerchantSite(t, a)
	var sessionURL string
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = landmarkHost.Execute(w, map[string]any{"Checkout": a.url, "Session": sessionURL, "Options": template.JS(`{"logo": true}`)})
	}))
	t.Cleanup(host.Close)
	sessionURL = site.createSession(host.URL).URL
	s.open(host.URL + "/")
	frame := shopInFrame(s, "#pix iframe")
	framed := customerForm{frame}
	frame.visible(framed.form(), "the session's form in the frame")
	logoShown(frame, "embedded form")
	buttonShade(frame.root.Locator(`[data-testid="checkout-form"] button[type="submit"]`), "embedded form")
	// The iframe's frame now (Page.Frames may still list the store page's preview frames).
	el, err := s.page.Locator("#pix iframe").ElementHandle()
	s.check(err, "the iframe")
	f, err := el.ContentFrame()
	s.check(err, "the iframe's frame")
	_, err = f.Evaluate(suite.axe)
	s.check(err, "axe in the frame")
	res, err := f.Evaluate(axeRun)
	s.check(err, "axe's run in the frame")
	for _, v := range res.([]any) {
		t.Errorf("accessibility, embedded form: %v", v)
	}
	s.shot("embedded")

	// A payment link's poster: the logo above the name, the QR code read from the rendered page.
	s.open(a.url + "/dashboard/links")
	lf := d.testID("link-form")
	s.check(lf.Locator(`[name="title"]`).Fill("Aula individual"), "the link's title")
	s.check(lf.Locator(`[name="amount"]`).Fill("80,00"), "the link's amount")
	s.check(d.testID("link-submit").Click(), "create the link")
	linkURL, err := d.testID("link-url").InputValue()
	s.check(err, "the link's address")
	href, err := d.testID("poster-link").First().GetAttribute("href")
	s.check(err, "the poster's address")
	s.open(a.url + href)
	poster := s.page.Locator(`[data-testid="poster-logo"]`)
	s.check(s.expect.Locator(poster).ToHaveAttribute("href", regexp.MustCompile(`^/images/store/[0-9a-f]{24}-h\.png$`)), "the poster's logo")
	// The QR code alone, quiet zone included, as a camera pointed at it sees it: read from the
	// whole page, with the logo and the text beside it, the reader failed now and then.
	shot, err := s.page.Locator("#qr").Screenshot()
	s.check(err, "the poster's QR code as a screenshot")
	img, err := png.Decode(bytes.NewReader(shot))
	s.check(err, "the screenshot as PNG")
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	s.check(err, "the screenshot as a bitmap")
	got, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil || got.GetText() != linkURL {
		t.Errorf("the rendered poster's QR code reads %v (%v), want %q", got, err, linkURL)
	}

	// At a phone's width: the store's page, the catalogue and the PIX page.
	p := newSession(t, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 390, Height: 844}, IsMobile: playwright.Bool(true),
		HasTouch: playwright.Bool(true)})
	pd := dashboardOf(p, a)
	pd.login(merchantEmail, merchantPassword)
	for _, u := range []string{a.url + "/dashboard/store", a.url + "/", pixURL} {
		p.open(u)
		if u != a.url+"/dashboard/store" {
			p.check(p.expect.Locator(shopIn(p).testID("store-logo")).ToBeVisible(), u+": the logo at 390 px")
		}
		p.a11y(p.page, u+" at 390 px")
		p.noHorizontalScroll(p.page, u+" at 390 px")
	}
}
