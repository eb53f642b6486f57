package qr

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	zqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/makiuchi-d/gozxing/qrcode/decoder"
	"github.com/makiuchi-d/gozxing/qrcode/encoder"
)

// A PIX BR Code as the sandbox makes them.
const brCode = "00020101021226850014br.gov.bcb.pix2563pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25204000053039865406123.455802BR5913Loja Demo PIX6009Sao Paulo62290525f1e2d3c4b5a69788796a5b4c36304B1D2"

// text returns n bytes that ZXing encodes in byte mode (lower-case letters among them).
func text(r *rand.Rand, n int) string {
	const chars = "abcdefghijklmnopqrstuvwxyz0123456789 ./:-*ABCDEFXYZ"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[r.IntN(len(chars))]
	}
	b[0] = 'p'
	return string(b)
}

// zxing encodes text with ZXing's encoder at level M, in the given version and mask (-1: its
// own choice).
func zxing(t *testing.T, s string, version, mask int) *encoder.QRCode {
	t.Helper()
	hints := map[gozxing.EncodeHintType]any{gozxing.EncodeHintType_QR_VERSION: version}
	if mask >= 0 {
		hints[gozxing.EncodeHintType_QR_MASK_PATTERN] = mask
	}
	z, err := encoder.Encoder_encode(s, decoder.ErrorCorrectionLevel_M, hints)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// same reports the first module where c and z differ.
func same(c *Code, z *encoder.QRCode) (x, y int, ok bool) {
	m := z.GetMatrix()
	if m.GetWidth() != c.Size {
		return -1, -1, false
	}
	for y := range c.Size {
		for x := range c.Size {
			if (m.Get(x, y) == 1) != c.Dark(x, y) {
				return x, y, false
			}
		}
	}
	return 0, 0, true
}

// TestSameSymbolAsZXing checks every version with texts that fill it (the longest it holds)
// and that just need it: the version chosen, the mask chosen and every module are ZXing's.
func TestSameSymbolAsZXing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for v := 1; v <= 40; v++ {
		longest := (versions[v].dataCodewords()*8 - 4 - countBits(v)) / 8
		for _, n := range []int{longest, longest - 1, longest - 7} {
			if n < 1 || chooseVersion(n) != v && n != longest-7 {
				continue
			}
			s := text(r, n)
			c, err := Encode(s)
			if err != nil {
				t.Fatal(err)
			}
			z := zxing(t, s, c.Version, -1)
			if got := chooseVersion(n); n == longest && got != v {
				t.Errorf("%d bytes: version %d, the table says %d", n, got, v)
			}
			if c.Mask != z.GetMaskPattern() {
				t.Errorf("version %d, %d bytes: mask %d, ZXing's %d", c.Version, n, c.Mask, z.GetMaskPattern())
			}
			if x, y, ok := same(c, z); !ok {
				t.Errorf("version %d, %d bytes: module (%d, %d) differs from ZXing's", c.Version, n, x, y)
			}
		}
	}
	if _, err := Encode(strings.Repeat("a", 2332)); !errors.Is(err, ErrTooLong) {
		t.Errorf("2,332 bytes: %v, want ErrTooLong", err)
	}
}

// TestEveryMaskPlacedAsZXing builds each mask of a few versions (the penalty above chooses only
// one per text) and compares them with ZXing's.
func TestEveryMaskPlacedAsZXing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, v := range []int{1, 2, 7, 9, 10, 21, 40} {
		s := text(r, (versions[v].dataCodewords()*8-4-countBits(v))/8)
		codewords := interleave(dataCodewords(s, v), v)
		size := 17 + 4*v
		base, function := functionPatterns(v)
		order := placement(size, function)
		for mask := range 8 {
			work := append([]int8(nil), base...)
			putFormat(work, size, mask)
			for k, idx := range order {
				bit := k < len(codewords)*8 && codewords[k/8]>>(7-k%8)&1 == 1
				if maskBit(mask, int(idx)%size, int(idx)/size) {
					bit = !bit
				}
				work[idx] = b2i(bit)
			}
			c := &Code{Size: size, Version: v, Mask: mask, dark: make([]bool, len(work))}
			for i, d := range work {
				c.dark[i] = d == 1
			}
			if x, y, ok := same(c, zxing(t, s, v, mask)); !ok {
				t.Errorf("version %d mask %d: module (%d, %d) differs from ZXing's", v, mask, x, y)
			}
		}
	}
}

// TestPNGDecodes reads the PNGs back with image/png and ZXing's reader: every pixel is its
// module's colour, and the text is the one encoded.
func TestPNGDecodes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, s := range []string{brCode, "p", text(r, 600), text(r, 2331)} {
		c, err := Encode(s)
		if err != nil {
			t.Fatal(err)
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
			if scale == 4 && len(s) < 1000 {
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
	if b, _ := mustEncode(t, brCode).PNG(4); len(b) > 4096 {
		t.Errorf("a BR Code's PNG at 4 px per module is %d bytes", len(b))
	}
}

func mustEncode(t *testing.T, s string) *Code {
	t.Helper()
	c, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
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
