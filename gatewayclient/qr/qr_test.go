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

// TestPenaltyAsPlainLoops checks the bit-parallel penalty against the rules written as plain
// loops over the modules (as ZXing writes them), on random symbols of every size and on
// symbols of one colour (every run, every block).
func TestPenaltyAsPlainLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for v := 1; v <= 40; v++ {
		size := 17 + 4*v
		for k := range 6 {
			m := make([]int8, size*size)
			for i := range m {
				switch k {
				case 0: // all light
				case 1:
					m[i] = 1
				case 2: // long runs
					m[i] = int8(i / 7 % 2)
				default:
					m[i] = int8(r.IntN(2))
				}
			}
			want := slowPenalty(m, make([]int8, len(m)), size)
			if got := penalty(m, size, make([]line, size), make([]line, size)); got != want {
				t.Fatalf("version %d, symbol %d: penalty %d, want %d", v, k, got, want)
			}
		}
	}
}

// penalty scores a masked symbol by the four rules of ISO/IEC 18004 (as ZXing reads them):
// runs of five or more, 2×2 blocks, finder-like patterns, and imbalance of dark and light.
// Rules 1 and 3 look at rows and columns alike: the columns are read as the rows of the
// transposed symbol, t.
func slowPenalty(m, t []int8, size int) int {
	p := 0
	for y := range size {
		for x, v := range m[y*size : (y+1)*size] {
			t[x*size+y] = v
		}
	}
	for i := range size {
		row, col := m[i*size:(i+1)*size], t[i*size:(i+1)*size]
		p += slowLinePenalty(row) + slowLinePenalty(col)
	}
	// Rule 2: 3 per 2×2 block of one colour.
	for y := 0; y < size-1; y++ {
		row, next := m[y*size:(y+1)*size], m[(y+1)*size:(y+2)*size]
		next = next[:len(row)]
		for x := 0; x < len(row)-1; x++ {
			if v := row[x]; v == row[x+1] && v == next[x] && v == next[x+1] {
				p += 3
			}
		}
	}
	// Rule 4: 10 per whole 5% between the dark share and a half.
	dark := 0
	for _, v := range m {
		dark += int(v)
	}
	total := size * size
	p += abs(2*dark-total) * 10 / total * 10
	return p
}

// linePenalty is rules 1 and 3 on one row or column: 3 per run of five or more modules of one
// colour, plus 1 per module past five; 40 per dark-light 1:1:3:1:1 pattern with four light
// modules on either side (the symbol's edge counting as light).
func slowLinePenalty(line []int8) int {
	p := 0
	run, prev := 0, int8(-1)
	for _, b := range line {
		if b == prev {
			run++
			continue
		}
		if run >= 5 {
			p += run - 2
		}
		run, prev = 1, b
	}
	if run >= 5 {
		p += run - 2
	}
	n := len(line)
	for x := 0; x+6 < n; x++ {
		if line[x] != 1 || line[x+1] != 0 || line[x+2] != 1 || line[x+3] != 1 || line[x+4] != 1 || line[x+5] != 0 || line[x+6] != 1 {
			continue
		}
		if slowLight(line[max(x-4, 0):x]) || slowLight(line[x+7:min(x+11, n)]) {
			p += 40
		}
	}
	return p
}

// light reports whether no module of s is dark.
func slowLight(s []int8) bool {
	for _, v := range s {
		if v == 1 {
			return false
		}
	}
	return true
}
