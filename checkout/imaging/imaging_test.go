package imaging_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

// photo is a w×h JPEG with an Exif segment (a camera's, with a GPS tag) spliced in after SOI.
func photo(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	exif := append([]byte("Exif\x00\x00GPSLatitude -23.5613 SECRET-CAMERA-SERIAL"), make([]byte, 8)...)
	seg := append([]byte{0xFF, 0xE1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
	b := buf.Bytes()
	return append(append(append([]byte{}, b[:2]...), seg...), b[2:]...)
}

func TestProcessJPEG(t *testing.T) {
	src := photo(t, 1200, 900)
	if !bytes.Contains(src, []byte("SECRET-CAMERA-SERIAL")) {
		t.Fatal("the test photo has no metadata to strip")
	}
	p, err := imaging.Process(bytes.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]int{{320, 240}, {640, 480}} {
		v := p.Variants[i]
		if v.Width != want[0] || v.Height != want[1] || v.ContentType != "image/jpeg" || v.Ext() != "jpg" {
			t.Errorf("variant %d: %dx%d %s", i, v.Width, v.Height, v.ContentType)
		}
		if bytes.Contains(v.Data, []byte("SECRET")) || bytes.Contains(v.Data, []byte("Exif")) {
			t.Errorf("variant %d keeps the upload's metadata", i)
		}
		cfg, format, err := image.DecodeConfig(bytes.NewReader(v.Data))
		if err != nil || format != "jpeg" || cfg.Width != want[0] || cfg.Height != want[1] {
			t.Errorf("variant %d decodes as %s %dx%d, %v", i, format, cfg.Width, cfg.Height, err)
		}
	}
	if len(p.Key) != 24 {
		t.Errorf("key %q", p.Key)
	}
	again, _ := imaging.Process(bytes.NewReader(src))
	if again.Key != p.Key {
		t.Error("the same upload got another key")
	}
}

// A PNG with transparency stays PNG (a JPEG would paint it black); a small one is not scaled up;
// a very tall one is cropped to 2:1.
func TestProcessPNG(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 200, 1000))
	img.Set(10, 10, color.NRGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	p, err := imaging.Process(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range p.Variants {
		if v.ContentType != "image/png" || v.Width != 200 || v.Height != 400 {
			t.Errorf("variant %d: %dx%d %s", i, v.Width, v.Height, v.ContentType)
		}
	}
}

// A 1×1 lossless WebP (the classic feature-detection sample).
const webp1x1 = "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="

func TestProcessWebP(t *testing.T) {
	raw, _ := base64.StdEncoding.DecodeString(webp1x1)
	p, err := imaging.Process(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Variants[1]; v.Width != 1 || v.Height != 1 {
		t.Errorf("WebP: %+v", v)
	}
}

func TestProcessRefuses(t *testing.T) {
	gif := []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
	truncated := photo(t, 64, 64)[:300]
	// A PNG header claiming 20000×20000 pixels: refused before any decoding.
	var huge bytes.Buffer
	_ = png.Encode(&huge, image.NewGray(image.Rect(0, 0, 1, 1)))
	claim := huge.Bytes()
	claim[16], claim[17], claim[18], claim[19] = 0, 0, 0x4E, 0x20 // width 20000
	claim[20], claim[21], claim[22], claim[23] = 0, 0, 0x4E, 0x20 // height 20000
	binary.BigEndian.PutUint32(claim[29:33], crc32.ChecksumIEEE(claim[12:29]))
	for name, c := range map[string]struct {
		data []byte
		want error
	}{
		"text":           {[]byte("hello, this is not a picture"), imaging.ErrNotImage},
		"a PDF":          {[]byte("%PDF-1.7\n1 0 obj"), imaging.ErrNotImage},
		"GIF":            {gif, imaging.ErrNotImage},
		"truncated":      {truncated, imaging.ErrNotImage},
		"over 5 MB":      {append(photo(t, 8, 8), make([]byte, imaging.MaxBytes)...), imaging.ErrTooLarge},
		"huge in pixels": {claim, imaging.ErrTooLarge},
	} {
		if _, err := imaging.Process(bytes.NewReader(c.data)); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}

// BenchmarkProcess is one upload of a 1200×900 photo: decoded, scaled twice, re-encoded.
func BenchmarkProcess(b *testing.B) {
	src := photo(b, 1200, 900)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := imaging.Process(bytes.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}
