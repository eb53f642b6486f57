package e2e

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"regexp"
	"testing"

	"github.com/playwright-community/playwright-go"
)

// photoJPEG is a 1200×900 JPEG, a photo as a merchant uploads it.
func photoJPEG(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 1200, 900))
	for y := range 900 {
		for x := range 1200 {
			img.Set(x, y, color.RGBA{uint8(x / 5), uint8(y / 4), 160, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pictureSize is an img's rendered width, the width in pixels of the variant the browser chose
// from its srcset (320 or 640, read from its URL), and that URL.
func pictureSize(s *session, l playwright.Locator, what string) (rendered, natural float64, src string) {
	s.t.Helper()
	s.check(s.expect.Locator(l).ToBeVisible(), what+" visible")
	_, err := l.Evaluate(`(img) => img.decode()`, nil) // loaded, so its natural size is known
	s.check(err, what+" loaded")
	v, err := l.Evaluate(`(img) => [img.getBoundingClientRect().width, img.naturalWidth, img.currentSrc]`, nil)
	s.check(err, what+" size")
	a := v.([]any)
	src = a[2].(string)
	switch {
	case regexp.MustCompile(`-s\.(jpg|png)$`).MatchString(src):
		natural = 320
	case regexp.MustCompile(`-l\.(jpg|png)$`).MatchString(src):
		natural = 640
	}
	return toFloat(a[0]), natural, src
}

// TestPicturesAndShipping: the merchant sets shipping and uploads a product's picture in the
// dashboard (a file that is not a picture is refused); the shopper sees the picture in the
// catalogue, the cart and the PIX page's summary, each time from the variant that fits its
// size, and the shipping as a line of its own; the gateway's transaction is items plus
// shipping, and the receipt shows both. On a 390×844 phone the copy button stays above the
// fold with the picture and the shipping line on the page.
func TestPicturesAndShipping(t *testing.T) {
	t.Parallel()
	a, s := setup(t, appOptions{}, playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 900}})
	a.addMerchant(t)
	d := dashboardOf(s, a)
	d.login(merchantEmail, merchantPassword)

	s.open(a.url + "/dashboard/settings")
	ship := d.testID("shipping-form")
	s.check(ship.Locator(`[name="flat_rate"]`).Fill("15,00"), "flat rate")
	s.check(ship.Locator(`[name="delivery_days"]`).Fill("5"), "delivery days")
	s.check(d.testID("shipping-submit").Click(), "save shipping")
	s.check(s.expect.Locator(d.testID("notice")).ToBeVisible(), "shipping saved")
	s.a11y(s.page, "settings with shipping")

	s.open(a.url + "/dashboard/products/caneca-de-ceramica")
	file := s.page.Locator("#p-image")
	s.check(file.SetInputFiles([]playwright.InputFile{{Name: "caneca.pdf", MimeType: "application/pdf", Buffer: []byte("%PDF-1.7 not a picture")}}), "choose a PDF")
	s.check(d.testID("image-submit").Click(), "upload the PDF")
	s.check(s.expect.Locator(s.page.Locator(`[data-field="image"]`)).ToContainText("JPEG, PNG ou WebP"), "a PDF is refused")
	s.a11y(s.page, "product picture refused")
	s.check(s.page.Locator("#p-image").SetInputFiles([]playwright.InputFile{{Name: "caneca.jpg", MimeType: "image/jpeg", Buffer: photoJPEG(t)}}), "choose a photo")
	s.check(d.testID("image-submit").Click(), "upload the photo")
	s.check(s.expect.Locator(d.testID("notice")).ToHaveText("Foto salva."), "the photo saved")
	s.check(s.expect.Locator(d.testID("image-form").Locator("img")).ToBeVisible(), "the photo on the product's page")
	s.shot("product-picture")

	// The shop: the picture in the catalogue (a card's width, from the variant that fits it).
	s.open(a.url + "/")
	cat := shopIn(s).catalogue()
	card := cat.card(physicalProduct)
	r, n, src := pictureSize(s, card.GetByTestId("product-image"), "the catalogue's picture")
	t.Logf("catalogue: %.0f px shown, %.0f px image (%s)", r, n, src)
	if r < 200 || n < r || n == 640 && r <= 320 {
		t.Errorf("the catalogue's picture is %.0f px shown from a %.0f px image", r, n)
	}
	if alt, _ := card.GetByTestId("product-image").GetAttribute("alt"); alt != physicalProduct {
		t.Errorf("alt %q", alt)
	}
	s.a11y(s.page, "catalogue with pictures")
	s.shot("catalogue")

	cart := cat.add(physicalProduct)
	r, n, _ = pictureSize(s, cart.lines().First().GetByTestId("product-image"), "the cart's thumbnail")
	if r < 40 || r > 80 || n != 320 {
		t.Errorf("the cart's thumbnail is %.0f px shown from a %.0f px image", r, n)
	}
	s.check(s.expect.Locator(cart.testID("shipping")).ToHaveText("R$ 15,00"), "the cart's shipping line")
	s.check(s.expect.Locator(cart.total()).ToHaveText(regexp.MustCompile(`R\$\s*74,00`)), "the cart's total with shipping")
	form := cart.checkout()
	form.fillCustomer(validCustomer())
	form.fillAddress(validAddress())
	pix := form.placeOrder()
	s.check(s.expect.Locator(pix.testID("amount")).ToHaveText(regexp.MustCompile(`R\$\s*74,00`)), "the PIX amount")
	summary := pix.testID("order-summary")
	r, n, _ = pictureSize(s, summary.GetByTestId("product-image"), "the PIX page's thumbnail")
	if r < 24 || r > 64 || n != 320 {
		t.Errorf("the PIX page's thumbnail is %.0f px shown from a %.0f px image", r, n)
	}
	s.check(s.expect.Locator(summary.GetByTestId("shipping")).ToHaveText("R$ 15,00"), "the PIX page's shipping line")
	s.check(s.expect.Locator(summary.GetByTestId("delivery-estimate")).ToContainText("5 dias úteis"), "the delivery estimate")
	s.a11y(s.page, "PIX page with picture and shipping")
	s.shot("pix")
	deps := a.deposits(t)
	if len(deps) != 1 || deps[0].Amount != physicalPrice+1500 {
		t.Fatalf("the gateway's deposits %+v, want one of %d cents (items and shipping)", deps, physicalPrice+1500)
	}

	// The same PIX page on a phone: the copy button above the fold.
	ph := s.newPage()
	s.check(ph.SetViewportSize(390, 844), "phone viewport")
	s.openIn(ph, s.page.URL())
	box, err := ph.GetByTestId("copy-code").BoundingBox()
	s.check(err, "copy button box")
	if box == nil || box.Y+box.Height > 844 {
		t.Errorf("the copy button is not above the fold at 390×844: %+v", box)
	}
	s.shotOf(ph, "pix-390")

	s.check(pix.payButton().Click(), "pay in the sandbox")
	pix.waitPaid()
	receipt := pix.testID("order-summary")
	s.check(s.expect.Locator(receipt).ToContainText(physicalProduct), "the receipt's item")
	s.check(s.expect.Locator(receipt).ToContainText("R$ 59,00"), "the item's price")
	s.check(s.expect.Locator(receipt.GetByTestId("shipping")).ToHaveText("R$ 15,00"), "the receipt's shipping")
	s.check(s.expect.Locator(receipt).ToContainText("R$ 74,00"), "the receipt's total")
	s.shot("receipt")
}
