package imaging_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

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

// pngHeader is a PNG whose header claims w × h pixels of bit depth and colour type ct
// (interlaced with Adam7 when interlace is 1), with one IDAT holding idat and IEND: enough for
// DecodeConfig, little or nothing to decode.
func pngHeader(w, h uint32, depth, ct, interlace byte, idat []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
		c := append([]byte(typ), data...)
		b.Write(c)
		_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(c))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9], ihdr[12] = depth, ct, interlace
	chunk("IHDR", ihdr)
	chunk("IDAT", idat)
	chunk("IEND", nil)
	return b.Bytes()
}

// jpegHeader is a JPEG cut after its scan header whose frame header claims w × h pixels
// (4:2:0), progressive when marker is 0xc2.
func jpegHeader(t testing.TB, w, h uint16, marker byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, image.NewRGBA(image.Rect(0, 0, 16, 16)), nil); err != nil {
		t.Fatal(err)
	}
	raw := b.Bytes()
	sof := bytes.Index(raw, []byte{0xff, 0xc0})
	if sof < 0 {
		t.Fatal("no SOF0 in the encoded JPEG")
	}
	raw[sof+1] = marker
	binary.BigEndian.PutUint16(raw[sof+5:], h)
	binary.BigEndian.PutUint16(raw[sof+7:], w)
	return raw[:bytes.Index(raw, []byte{0xff, 0xda})+14] // the scan's header, no data, no EOI
}

// TestDecodeSizeBound: an upload within the pixel limit whose decoding would allocate more
// than MaxDecodeBytes is refused before decoding, in words: 16-bit RGBA at 6476 × 6476 (320
// MB), 8-bit at the same size (160 MB), an interlaced PNG (its passes beside the picture), a
// progressive JPEG (its coefficients); the bound counts an 8-bit RGBA PNG at 4 bytes a pixel
// and a baseline JPEG at its planes.
func TestDecodeSizeBound(t *testing.T) {
	for name, raw := range map[string][]byte{
		"16-bit RGBA PNG 6476 × 6476":           pngHeader(6476, 6476, 16, 6, 0, nil),
		"8-bit RGBA PNG 6476 × 6476":            pngHeader(6476, 6476, 8, 6, 0, nil),
		"interlaced 8-bit RGBA PNG 4000 × 4000": pngHeader(4000, 4000, 8, 6, 1, nil),
		"progressive JPEG 4000 × 4000":          jpegHeader(t, 4000, 4000, 0xc2),
	} {
		_, err := imaging.Process(bytes.NewReader(raw))
		var tl *imaging.TooLargeError
		if !errors.As(err, &tl) || !errors.Is(err, imaging.ErrTooLarge) || tl.Bytes <= imaging.MaxDecodeBytes ||
			!strings.Contains(err.Error(), fmt.Sprintf("%d × %d", tl.Width, tl.Height)) || !strings.Contains(err.Error(), "100 MB") {
			t.Errorf("%s: %v; want refused before decoding, in words", name, err)
		}
	}
	for name, c := range map[string]struct {
		raw  []byte
		want int64
	}{
		"8-bit RGBA PNG 5120 × 5120":      {pngHeader(5120, 5120, 8, 6, 0, nil), 5120 * 5120 * 4},
		"baseline 4:2:0 JPEG 4000 × 4000": {jpegHeader(t, 4000, 4000, 0xc0), 4000 * 4000 * 3 / 2},
	} {
		cfg, _, err := image.DecodeConfig(bytes.NewReader(c.raw))
		if err != nil {
			t.Fatal(err)
		}
		if n := imaging.DecodeSize(c.raw, cfg); n > imaging.MaxDecodeBytes || n != c.want {
			t.Errorf("DecodeSize of a %s = %d, want %d (within the bound)", name, n, c.want)
		}
	}
}

// TestTruncatedJPEGRefusedCheaply: a JPEG cut short that claims 6400 × 6400 is refused without
// being decoded (decoding would allocate the whole picture first): the test measures what
// Process allocated.
func TestTruncatedJPEGRefusedCheaply(t *testing.T) {
	raw := jpegHeader(t, 6400, 6400, 0xc0)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := imaging.Process(bytes.NewReader(raw))
	runtime.ReadMemStats(&after)
	if !errors.Is(err, imaging.ErrNotImage) {
		t.Fatalf("a truncated JPEG claiming 6400 × 6400: %v; want ErrNotImage", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing it allocated %d bytes; want under 1 MB (no decode)", got)
	}
}

// TestLimiterBoundsDecodes: with two uploads being read and decoded, a third waits its wait and
// gets ErrBusy; once they end, the next one is processed.
func TestLimiterBoundsDecodes(t *testing.T) {
	l := imaging.NewLimiter(2, 100*time.Millisecond)
	ctx := context.Background()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	var writers []*io.PipeWriter
	for range 2 {
		pr, pw := io.Pipe()
		writers = append(writers, pw)
		go func() { _, err := l.Process(ctx, pr); done <- err }()
		// The write returns once Process reads, which it does only inside its slot.
		if _, err := pw.Write([]byte("\x89PNG")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := l.Process(ctx, bytes.NewReader(b.Bytes())); !errors.Is(err, imaging.ErrBusy) {
		t.Fatalf("a third upload while two decode: %v; want ErrBusy", err)
	}
	for _, pw := range writers {
		pw.Close()
	}
	for range 2 {
		<-done
	}
	if _, err := l.Process(ctx, bytes.NewReader(b.Bytes())); err != nil {
		t.Errorf("an upload once the others ended: %v", err)
	}
}

// TestRefusedUploadFreed: a PNG whose header passes every check but whose pixels stop after
// the first row is refused once decoding has allocated its 64 MB picture; when the Limiter
// answers, that memory is no longer in the heap nor kept from the system, without the caller
// collecting anything.
func TestRefusedUploadFreed(t *testing.T) {
	const side = 4096
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	_, _ = zw.Write(make([]byte, 1+4*side)) // one row: its filter byte and its pixels
	_ = zw.Close()
	raw := pngHeader(side, side, 8, 6, 0, z.Bytes())
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	runtime.GC()
	metrics.Read(samples)
	base := samples[0].Value.Uint64()
	_, err := imaging.NewLimiter(2, time.Second).Process(context.Background(), bytes.NewReader(raw))
	metrics.Read(samples)
	if !errors.Is(err, imaging.ErrNotImage) {
		t.Fatalf("a PNG without its pixels: %v; want ErrNotImage", err)
	}
	if live, free := samples[0].Value.Uint64(), samples[1].Value.Uint64(); live > base+8<<20 || free > 8<<20 {
		t.Errorf("after the refusal the heap holds %d MB more than before and keeps %d MB free from the system; want both under 8 MB",
			(int64(live)-int64(base))>>20, free>>20)
	}
}

// BenchmarkUploadsPeakHeap runs 8 uploads at once through a Limiter of the checkout's size,
// each the worst kind of file: a 16-bit RGBA PNG of 6476 × 6476 compressed small (refused by
// the decode bound), an 8-bit RGBA PNG of 3620 × 7240 (accepted at the bound: 100 MB decoded,
// and as tall as a picture is kept, for the largest scaling buffers), and a truncated JPEG
// claiming 6400 × 6400. It reports the peak of the heap above the start, garbage not yet
// collected included (goal < 300 MB). Making the files takes seconds and memory, so it runs
// only with CHECKOUT_BENCH_UPLOADS=1.
func BenchmarkUploadsPeakHeap(b *testing.B) {
	if os.Getenv("CHECKOUT_BENCH_UPLOADS") != "1" {
		b.Skip("set CHECKOUT_BENCH_UPLOADS=1 to run it")
	}
	flat := func(img image.Image) []byte {
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := enc.Encode(&buf, img); err != nil {
			b.Fatal(err)
		}
		return buf.Bytes()
	}
	png16 := flat(image.NewRGBA64(image.Rect(0, 0, 6476, 6476)))
	png8 := flat(image.NewNRGBA(image.Rect(0, 0, 3620, 7240)))
	jraw := jpegHeader(b, 6400, 6400, 0xc0)
	files := [][]byte{png16, png8, jraw, png8, png16, png8, jraw, png8}
	b.Logf("files: 16-bit PNG %d bytes, 8-bit PNG %d bytes, truncated JPEG %d bytes", len(png16), len(png8), len(jraw))

	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 { metrics.Read(samples); return samples[0].Value.Uint64() }
	var peak uint64
	for b.Loop() {
		runtime.GC()
		base := heap()
		l := imaging.NewLimiter(2, 3*time.Second) // the checkout's pictureDecodes and pictureWait
		var wg sync.WaitGroup
		stop := make(chan struct{})
		sampled := make(chan uint64)
		go func() {
			var max uint64
			t := time.NewTicker(time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					sampled <- max
					return
				case <-t.C:
					if h := heap(); h > base && h-base > max {
						max = h - base
					}
				}
			}
		}()
		for _, f := range files {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := l.Process(context.Background(), bytes.NewReader(f)); err != nil {
					b.Logf("upload of %d bytes: %v", len(f), err)
				}
			}()
		}
		wg.Wait()
		close(stop)
		peak = max(peak, <-sampled)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
