package qr

import (
	"bytes"
	"image"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zqr "github.com/makiuchi-d/gozxing/qrcode"
)

// A PIX BR Code as the sandbox makes them.
const brCode = "00020101021226850014br.gov.bcb.pix2563pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25204000053039865406123.455802BR5913Loja Demo PIX6009Sao Paulo62290525f1e2d3c4b5a69788796a5b4c36304B1D2"

// text returns n bytes encoded in byte mode (lower-case letters among them).
func text(r *rand.Rand, n int) string {
	const chars = "abcdefghijklmnopqrstuvwxyz0123456789 ./:-*ABCDEFXYZ"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	b[0] = 'p'
	return string(b)
}

// TestPNGDecodes reads the PNGs back with image/png and ZXing's reader: the image has the
// symbol's size with its quiet zone, every pixel is its module's colour, the quiet zone is
// light, and the text is the one encoded.
func TestPNGDecodes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range []string{brCode, "p", text(r, 600)} {
		c, err := Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		if c.Size != 17+4*c.Version {
			t.Errorf("%d bytes: size %d for version %d", len(s), c.Size, c.Version)
		}
		for _, scale := range []int{1, 4, 7} {
			b, err := c.PNG(scale)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%d bytes, scale %d: %v", len(s), scale, err)
			}
			side := (c.Size + 2*QuietZone) * scale
			if img.Bounds() != image.Rect(0, 0, side, side) {
				t.Fatalf("bounds %v, want %d px", img.Bounds(), side)
			}
			for py := range side {
				for px := range side {
					x, y := px/scale-QuietZone, py/scale-QuietZone
					dark := x >= 0 && y >= 0 && x < c.Size && y < c.Size && c.Dark(x, y)
					if r, _, _, _ := img.At(px, py).RGBA(); (r == 0) != dark {
						t.Fatalf("%d bytes, scale %d: pixel (%d, %d) wrong", len(s), scale, px, py)
					}
				}
			}
			if scale == 4 {
				bmp, err := gozxing.NewBinaryBitmapFromImage(img)
				if err != nil {
					t.Fatal(err)
				}
				res, err := zqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
				if err != nil {
					t.Fatalf("%d bytes: decoding: %v", len(s), err)
				}
				if res.GetText() != s {
					t.Errorf("decoded %q, want %q", res.GetText(), s)
				}
			}
		}
	}
	c, err := Encode(brCode)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := c.PNG(4); len(b) > 4096 {
		t.Errorf("a BR Code's PNG at 4 px per module is %d bytes", len(b))
	}
	if _, err := c.PNG(0); err == nil {
		t.Error("PNG(0) succeeded")
	}
}

// TestTooLong: a text no QR code holds is an error, not a panic.
func TestTooLong(t *testing.T) {
	if _, err := Encode(string(make([]byte, 4000))); err == nil {
		t.Error("Encode of 4,000 bytes succeeded")
	}
}

// BenchmarkBRCode draws a BR Code's symbol and its PNG, as the checkout and the sandbox do
// once per payment attempt each.
func BenchmarkBRCode(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		c, err := Encode(brCode)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.PNG(4); err != nil {
			b.Fatal(err)
		}
	}
}

func TestImagesDrawOnceAndStayBounded(t *testing.T) {
	imgs := NewImages(2)
	a1, err := imgs.PNG(brCode, 4)
	if err != nil {
		t.Fatal(err)
	}
	want, err := draw(brCode, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a1, want) {
		t.Fatal("the kept PNG differs from a fresh drawing")
	}
	a2, _ := imgs.PNG(brCode, 4)
	if drawn, reused := imgs.Stats(); &a1[0] != &a2[0] || drawn != 1 || reused != 1 {
		t.Fatal("the second request drew the code again instead of reusing it")
	}
	if b, _ := imgs.PNG(brCode, 1); bytes.Equal(b, a1) {
		t.Fatal("another scale returned the first scale's PNG")
	}
	// Two more codes push the first out of a ring of two: it is drawn afresh (same bytes).
	if _, err := imgs.PNG("p1", 4); err != nil {
		t.Fatal(err)
	}
	if len(imgs.byKey) != 2 || len(imgs.ring) != 2 {
		t.Fatalf("%d entries, %d in the ring; want at most 2", len(imgs.byKey), len(imgs.ring))
	}
	a3, _ := imgs.PNG(brCode, 4)
	if &a3[0] == &a1[0] || !bytes.Equal(a3, a1) {
		t.Fatal("an evicted code was not drawn again, or was drawn differently")
	}
	var none *Images
	if b, err := none.PNG(brCode, 4); err != nil || !bytes.Equal(b, want) {
		t.Fatalf("nil Images: %v", err)
	}
	if _, err := imgs.PNG(brCode, 0); err == nil {
		t.Fatal("scale 0 accepted")
	}
}

// BenchmarkPNG encodes a BR Code's symbol, already made, as a PNG at 4 px per module.
func BenchmarkPNG(b *testing.B) {
	c, err := Encode(brCode)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.PNG(4); err != nil {
			b.Fatal(err)
		}
	}
}
