package imaging_test

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

// A wide JPEG photo with a camera's metadata becomes PNGs at every size, whole (never cropped),
// without the metadata; the favicons are squares with the logo centred.
func TestProcessLogoJPEG(t *testing.T) {
	src := photo(t, 1200, 300) // 4:1
	l, err := imaging.ProcessLogo(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{imaging.LogoHeader: {384, 96}, imaging.LogoMail: {400, 100},
		imaging.LogoIcon: {32, 32}, imaging.LogoTouch: {180, 180}, imaging.LogoApp: {192, 192}, imaging.LogoAppLarge: {512, 512}}
	for i, size := range imaging.LogoSizes {
		v := l.Variants[i]
		if v.Width != want[size][0] || v.Height != want[size][1] || v.ContentType != "image/png" {
			t.Errorf("size %s: %dx%d %s, want %v png", size, v.Width, v.Height, v.ContentType, want[size])
		}
		if bytes.Contains(v.Data, []byte("SECRET")) || bytes.Contains(v.Data, []byte("Exif")) {
			t.Errorf("size %s keeps the upload's metadata", size)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(v.Data))
		if err != nil || format != "png" || cfg.Width != v.Width || cfg.Height != v.Height {
			t.Errorf("size %s decodes as %s %dx%d, %v", size, format, cfg.Width, cfg.Height, err)
		}
	}
	// The 32-pixel icon: the 4:1 logo fills its width, 8 rows in the middle; above is transparent.
	icon, _ := l.Variant(imaging.LogoIcon)
	img, err := png.Decode(bytes.NewReader(icon.Data))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, a := img.At(16, 2).RGBA(); a != 0 {
		t.Errorf("the icon's padding is not transparent (alpha %d)", a)
	}
	if _, _, _, a := img.At(16, 16).RGBA(); a != 0xffff {
		t.Errorf("the icon's middle is not the logo (alpha %d)", a)
	}
	touch, _ := l.Variant(imaging.LogoTouch)
	img, _ = png.Decode(bytes.NewReader(touch.Data))
	if r, g, b, a := img.At(90, 5).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff || a != 0xffff {
		t.Errorf("the touch icon's margin is %d %d %d %d, want opaque white", r, g, b, a)
	}
	if len(l.Key) != 24 {
		t.Errorf("key %q", l.Key)
	}
	if again, _ := imaging.ProcessLogo(bytes.NewReader(src)); again.Key != l.Key {
		t.Error("the same upload got another key")
	}
}

// A tall transparent PNG is not cropped (a product picture would be, at 2:1) and keeps its
// transparency; a small one is never scaled up.
func TestProcessLogoPNG(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 100, 500))
	img.Set(50, 499, color.NRGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	l, err := imaging.ProcessLogo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := l.Variant(imaging.LogoHeader); v.Width != 19 || v.Height != 96 {
		t.Errorf("header %dx%d, want 19x96 (whole, 1:5)", v.Width, v.Height)
	}
	if v, _ := l.Variant(imaging.LogoMail); v.Width != 32 || v.Height != 160 {
		t.Errorf("mail %dx%d, want 32x160", v.Width, v.Height)
	}
	h, _ := l.Variant(imaging.LogoHeader)
	dec, _ := png.Decode(bytes.NewReader(h.Data))
	if _, _, _, a := dec.At(0, 0).RGBA(); a != 0 {
		t.Errorf("transparency lost: alpha %d", a)
	}

	small := image.NewNRGBA(image.Rect(0, 0, 40, 20))
	buf.Reset()
	_ = png.Encode(&buf, small)
	l, err = imaging.ProcessLogo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := l.Variant(imaging.LogoHeader); v.Width != 40 || v.Height != 20 {
		t.Errorf("a small logo became %dx%d, want 40x20", v.Width, v.Height)
	}
}

// The installed app's icons fill their square on white, a small logo scaled up (a launcher shows
// them large); a logo kept without them gets them from another of its pictures.
func TestAppIcons(t *testing.T) {
	small := image.NewNRGBA(image.Rect(0, 0, 40, 20))
	for y := range 20 {
		for x := range 40 {
			small.Set(x, y, color.NRGBA{200, 0, 0, 255})
		}
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, small)
	l, err := imaging.ProcessLogo(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	large, _ := l.Variant(imaging.LogoAppLarge)
	img, err := png.Decode(bytes.NewReader(large.Data))
	if err != nil || img.Bounds().Dx() != 512 || img.Bounds().Dy() != 512 {
		t.Fatalf("the large app icon: %v, %v", img.Bounds(), err)
	}
	// 40 × 20 fills the 432 pixels inside the 40-pixel margins: x 40..471, y 148..363.
	for _, p := range []image.Point{{45, 256}, {466, 256}, {256, 153}, {256, 358}} {
		if r, g, _, _ := img.At(p.X, p.Y).RGBA(); r>>8 < 190 || g>>8 > 10 {
			t.Errorf("the icon at %v is not the logo: %d %d", p, r>>8, g>>8)
		}
	}
	if r, g, b, a := img.At(20, 256).RGBA(); r != 0xffff || g != 0xffff || b != 0xffff || a != 0xffff {
		t.Errorf("the icon's margin is %d %d %d %d, want opaque white", r, g, b, a)
	}
	header, _ := l.Variant(imaging.LogoHeader)
	for size, side := range map[string]int{imaging.LogoApp: 192, imaging.LogoAppLarge: 512} {
		v, err := imaging.AppIcon(header.Data, size)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(v.Data))
		if err != nil || v.Width != side || v.Height != side || cfg.Width != side || cfg.Height != side || v.ContentType != "image/png" {
			t.Errorf("the app icon %s made of the header's picture: %dx%d (%dx%d decoded), %v", size, v.Width, v.Height, cfg.Width, cfg.Height, err)
		}
	}
	if _, err := imaging.AppIcon(header.Data, imaging.LogoMail); err == nil {
		t.Error("AppIcon made an e-mail's picture")
	}
}

func TestProcessLogoWebP(t *testing.T) {
	raw, _ := base64.StdEncoding.DecodeString(webp1x1)
	l, err := imaging.ProcessLogo(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := l.Variant(imaging.LogoHeader); v.Width != 1 || v.Height != 1 {
		t.Errorf("WebP: %+v", v)
	}
	if v, _ := l.Variant(imaging.LogoIcon); v.Width != 32 {
		t.Errorf("WebP icon: %dx%d", v.Width, v.Height)
	}
}

// A logo is refused as a product picture is: not a picture, a header claiming more pixels than
// the limits, one whose decoding would take too much memory.
func TestProcessLogoRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		raw  []byte
		want error
	}{
		"text":  {[]byte("<svg xmlns='http://www.w3.org/2000/svg'></svg>"), imaging.ErrNotImage},
		"claim": {pngHeader(20000, 20000, 8, 6, 0, nil), imaging.ErrTooLarge},
		"heavy": {pngHeader(6476, 6476, 16, 6, 0, nil), imaging.ErrTooLarge},
	} {
		if _, err := imaging.ProcessLogo(bytes.NewReader(c.raw)); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}

func TestFit(t *testing.T) {
	for _, c := range [][6]int{
		{1200, 300, 480, 96, 384, 96},
		{1000, 100, 480, 96, 480, 48},
		{50, 20, 480, 96, 50, 20},
		{100, 500, 400, 160, 32, 160},
	} {
		if w, h := imaging.Fit(c[0], c[1], c[2], c[3]); w != c[4] || h != c[5] {
			t.Errorf("Fit(%d, %d, %d, %d) = %d, %d; want %d, %d", c[0], c[1], c[2], c[3], w, h, c[4], c[5])
		}
	}
}
