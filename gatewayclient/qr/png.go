package qr

import (
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"math/bits"
)

// QuietZone is the light border of a QR code, in modules, as ISO/IEC 18004 asks.
const QuietZone = 4

// PNG returns the symbol as a black-on-white PNG, scale pixels per module, with the quiet zone:
// one bit per pixel, a few KB.
//
// The image is written directly rather than through image/png: its deflate stream uses only
// the fixed Huffman codes and two kinds of match — a pixel row equal to the row above is one
// copy of it, and a run of equal bytes within a row is one copy of the byte before — which is
// all a QR code's rows need. (image/png with compress/flate allocated a compressor of more than
// half a megabyte per image and read the pixels one interface call at a time.)
func (c *Code) PNG(scale int) ([]byte, error) {
	side := (c.Size + 2*QuietZone) * scale
	rowLen := 1 + (side+7)/8 // the filter byte, then the pixels
	if scale < 1 || rowLen > maxDistance {
		return nil, fmt.Errorf("qr: PNG scale %d out of range", scale)
	}
	// The pixel rows, each after its filter byte 0 (none): bit 1 is white. A module row's
	// pixel rows are all alike: made once, copied.
	raw := make([]byte, rowLen*side)
	for y := -QuietZone; y < c.Size+QuietZone; y++ {
		row := raw[(y+QuietZone)*scale*rowLen:][:rowLen]
		for x := -QuietZone; x < c.Size+QuietZone; x++ {
			if x >= 0 && y >= 0 && x < c.Size && y < c.Size && c.Dark(x, y) {
				continue
			}
			for px := (x + QuietZone) * scale; px < (x+QuietZone+1)*scale; px++ {
				row[1+px/8] |= 0x80 >> (px % 8)
			}
		}
		for i := 1; i < scale; i++ {
			copy(raw[((y+QuietZone)*scale+i)*rowLen:], row)
		}
	}

	var out []byte
	out = append(out, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(side))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(side))
	ihdr[8], ihdr[9] = 1, 0 // bit depth 1, greyscale; compression, filter, interlace 0
	out = chunk(out, "IHDR", ihdr[:])
	out = chunk(out, "IDAT", zlibRows(raw, rowLen))
	out = chunk(out, "IEND", nil)
	return out, nil
}

// chunk appends a PNG chunk.
func chunk(out []byte, kind string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, kind...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}

const (
	maxMatch    = 258
	maxDistance = 32768
)

// zlibRows compresses raw, made of rows of rowLen bytes, into a zlib stream of one deflate
// block with fixed Huffman codes (RFC 1950, RFC 1951).
func zlibRows(raw []byte, rowLen int) []byte {
	w := deflateWriter{out: []byte{0x78, 0x01}} // deflate, 32 KB window, no dictionary
	w.bits(1, 1)                                // the last block
	w.bits(1, 2)                                // fixed Huffman codes
	for start := 0; start < len(raw); {
		// Rows equal to the one before: one copy, rowLen back.
		n := 0
		for start+n+rowLen <= len(raw) && start >= rowLen && string(raw[start+n:start+n+rowLen]) == string(raw[start+n-rowLen:start+n]) {
			n += rowLen
		}
		if n > 0 {
			w.copy(n, rowLen)
			start += n
			continue
		}
		// A new row: its bytes, runs of one byte as copies of the byte before.
		row := raw[start : start+rowLen]
		for i := 0; i < len(row); {
			w.literal(row[i])
			run := 0
			for i+1+run < len(row) && row[i+1+run] == row[i] {
				run++
			}
			if run >= 3 {
				w.copy(run, 1)
			} else {
				for k := range run {
					w.literal(row[i+1+k])
				}
			}
			i += 1 + run
		}
		start += rowLen
	}
	w.symbol(256) // end of block
	w.flush()
	return binary.BigEndian.AppendUint32(w.out, adler32.Checksum(raw))
}

// deflateWriter writes deflate's bit stream: least significant bit first, Huffman codes most
// significant bit first.
type deflateWriter struct {
	out []byte
	acc uint64
	n   uint
}

func (w *deflateWriter) bits(v uint64, n uint) {
	w.acc |= v << w.n
	w.n += n
	for w.n >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n -= 8
	}
}

func (w *deflateWriter) flush() {
	if w.n > 0 {
		w.out = append(w.out, byte(w.acc))
	}
	w.acc, w.n = 0, 0
}

// code writes a Huffman code of n bits.
func (w *deflateWriter) code(c uint64, n uint) {
	w.bits(bits.Reverse64(c)>>(64-n), n)
}

// symbol writes a literal/length symbol with the fixed codes.
func (w *deflateWriter) symbol(s int) {
	switch {
	case s < 144:
		w.code(uint64(0x30+s), 8)
	case s < 256:
		w.code(uint64(0x190+s-144), 9)
	case s < 280:
		w.code(uint64(s-256), 7)
	default:
		w.code(uint64(0xC0+s-280), 8)
	}
}

func (w *deflateWriter) literal(b byte) { w.symbol(int(b)) }

var (
	lengthBase  = [29]int{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]int{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// copy writes "repeat the n bytes that start dist back" (n ≥ 3), in matches of at most 258.
func (w *deflateWriter) copy(n, dist int) {
	for n > 0 {
		m := min(n, maxMatch)
		if n-m > 0 && n-m < 3 {
			m = n - 3 // leave a last match of at least 3
		}
		li := len(lengthBase) - 1
		for lengthBase[li] > m {
			li--
		}
		w.symbol(257 + li)
		w.bits(uint64(m-lengthBase[li]), lengthExtra[li])
		di := len(distBase) - 1
		for distBase[di] > dist {
			di--
		}
		w.code(uint64(di), 5)
		w.bits(uint64(dist-distBase[di]), distExtra[di])
		n -= m
	}
}
