// Package qr draws QR codes for PIX BR Codes: byte mode, error correction level M, the smallest
// version that holds the text, the mask of least penalty, and a small PNG of the symbol.
//
// It exists for speed. go-qrcode, which drew them before, spent about 2.5 ms of CPU per BR
// Code on this project's machine (a Reed–Solomon done with polynomials allocated per step,
// eight whole symbols built and scored to choose the mask, and a PNG encoder at its best
// compression); the checkout and the embedded sandbox draw one each per order. Here the
// modules every mask shares are laid out once, the error correction uses log tables, the
// penalty works on rows and columns as bit sets, and the PNG is written directly (see png.go):
// about a fifth of the time, and a fiftieth of the memory.
//
// The output is the symbol ZXing's encoder makes (same version, same penalty rules and so the
// same mask, same module placement): the tests compare the two, module by module, for every
// version and every mask, and decode the PNGs back.
package qr

import (
	"errors"
	"fmt"
	"math/bits"
)

// Code is a QR code symbol, without its quiet zone.
type Code struct {
	Size    int    // modules per side: 17 + 4 × Version
	Version int    // 1 to 40
	Mask    int    // 0 to 7
	dark    []bool // row by row
}

// Dark reports whether the module in column x, row y is dark.
func (c *Code) Dark(x, y int) bool { return c.dark[y*c.Size+x] }

// ErrTooLong is returned for a text that no QR code version holds at level M.
var ErrTooLong = errors.New("qr: text too long for a QR code")

// Encode returns the QR code of text (its bytes as they are, in byte mode) at error correction
// level M.
func Encode(text string) (*Code, error) {
	v := chooseVersion(len(text))
	if v == 0 {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLong, len(text))
	}
	codewords := interleave(dataCodewords(text, v), v)
	size := 17 + 4*v
	base, function := functionPatterns(v)
	order := placement(size, function)

	bestMask, bestPenalty := -1, 0
	var best []int8
	work := make([]int8, len(base))
	rows, cols := make([]line, size), make([]line, size)
	for mask := range 8 {
		copy(work, base)
		putFormat(work, size, mask)
		for k, idx := range order {
			bit := k < len(codewords)*8 && codewords[k/8]>>(7-k%8)&1 == 1
			if maskBit(mask, int(idx)%size, int(idx)/size) {
				bit = !bit
			}
			work[idx] = b2i(bit)
		}
		if p := penalty(work, size, rows, cols); bestMask < 0 || p < bestPenalty {
			bestMask, bestPenalty = mask, p
			best, work = work, best
			if work == nil {
				work = make([]int8, len(base))
			}
		}
	}
	c := &Code{Size: size, Version: v, Mask: bestMask, dark: make([]bool, len(best))}
	for i, d := range best {
		c.dark[i] = d == 1
	}
	return c, nil
}

func b2i(b bool) int8 {
	if b {
		return 1
	}
	return 0
}

// version is one QR code version's layout at level M.
type version struct {
	ec     int   // error correction codewords per block
	blocks []int // pairs: number of blocks, data codewords in each
	align  []int // alignment pattern centres
}

// dataCodewords is the number of data codewords v holds.
func (v version) dataCodewords() int {
	n := 0
	for i := 0; i < len(v.blocks); i += 2 {
		n += v.blocks[i] * v.blocks[i+1]
	}
	return n
}

// versions are ISO/IEC 18004's tables for level M, by version number.
var versions = [41]version{
	{},
	{10, []int{1, 16}, nil},
	{16, []int{1, 28}, []int{6, 18}},
	{26, []int{1, 44}, []int{6, 22}},
	{18, []int{2, 32}, []int{6, 26}},
	{24, []int{2, 43}, []int{6, 30}},
	{16, []int{4, 27}, []int{6, 34}},
	{18, []int{4, 31}, []int{6, 22, 38}},
	{22, []int{2, 38, 2, 39}, []int{6, 24, 42}},
	{22, []int{3, 36, 2, 37}, []int{6, 26, 46}},
	{26, []int{4, 43, 1, 44}, []int{6, 28, 50}},
	{30, []int{1, 50, 4, 51}, []int{6, 30, 54}},
	{22, []int{6, 36, 2, 37}, []int{6, 32, 58}},
	{22, []int{8, 37, 1, 38}, []int{6, 34, 62}},
	{24, []int{4, 40, 5, 41}, []int{6, 26, 46, 66}},
	{24, []int{5, 41, 5, 42}, []int{6, 26, 48, 70}},
	{28, []int{7, 45, 3, 46}, []int{6, 26, 50, 74}},
	{28, []int{10, 46, 1, 47}, []int{6, 30, 54, 78}},
	{26, []int{9, 43, 4, 44}, []int{6, 30, 56, 82}},
	{26, []int{3, 44, 11, 45}, []int{6, 30, 58, 86}},
	{26, []int{3, 41, 13, 42}, []int{6, 34, 62, 90}},
	{26, []int{17, 42}, []int{6, 28, 50, 72, 94}},
	{28, []int{17, 46}, []int{6, 26, 50, 74, 98}},
	{28, []int{4, 47, 14, 48}, []int{6, 30, 54, 78, 102}},
	{28, []int{6, 45, 14, 46}, []int{6, 28, 54, 80, 106}},
	{28, []int{8, 47, 13, 48}, []int{6, 32, 58, 84, 110}},
	{28, []int{19, 46, 4, 47}, []int{6, 30, 58, 86, 114}},
	{28, []int{22, 45, 3, 46}, []int{6, 34, 62, 90, 118}},
	{28, []int{3, 45, 23, 46}, []int{6, 26, 50, 74, 98, 122}},
	{28, []int{21, 45, 7, 46}, []int{6, 30, 54, 78, 102, 126}},
	{28, []int{19, 47, 10, 48}, []int{6, 26, 52, 78, 104, 130}},
	{28, []int{2, 46, 29, 47}, []int{6, 30, 56, 82, 108, 134}},
	{28, []int{10, 46, 23, 47}, []int{6, 34, 60, 86, 112, 138}},
	{28, []int{14, 46, 21, 47}, []int{6, 30, 58, 86, 114, 142}},
	{28, []int{14, 46, 23, 47}, []int{6, 34, 62, 90, 118, 146}},
	{28, []int{12, 47, 26, 48}, []int{6, 30, 54, 78, 102, 126, 150}},
	{28, []int{6, 47, 34, 48}, []int{6, 24, 50, 76, 102, 128, 154}},
	{28, []int{29, 46, 14, 47}, []int{6, 28, 54, 80, 106, 132, 158}},
	{28, []int{13, 46, 32, 47}, []int{6, 32, 58, 84, 110, 136, 162}},
	{28, []int{40, 47, 7, 48}, []int{6, 26, 54, 82, 110, 138, 166}},
	{28, []int{18, 47, 31, 48}, []int{6, 30, 58, 86, 114, 142, 170}},
}

// countBits is the width of byte mode's character count in version v.
func countBits(v int) int {
	if v <= 9 {
		return 8
	}
	return 16
}

// chooseVersion returns the smallest version that holds n bytes, 0 when none does.
func chooseVersion(n int) int {
	for v := 1; v <= 40; v++ {
		if need := 4 + countBits(v) + 8*n; (need+7)/8 <= versions[v].dataCodewords() {
			return v
		}
	}
	return 0
}

// dataCodewords are the mode, the count, the text, the terminator and the padding of v.
func dataCodewords(text string, v int) []byte {
	capacity := versions[v].dataCodewords()
	var w bitWriter
	w.add(0b0100, 4) // byte mode
	w.add(uint(len(text)), countBits(v))
	for i := 0; i < len(text); i++ {
		w.add(uint(text[i]), 8)
	}
	for i := 0; i < 4 && w.n < capacity*8; i++ {
		w.add(0, 1)
	}
	if r := w.n % 8; r != 0 {
		w.add(0, 8-r)
	}
	for i := 0; len(w.b) < capacity; i++ {
		w.add([]uint{0xEC, 0x11}[i%2], 8)
	}
	return w.b
}

// bitWriter appends bits, most significant first.
type bitWriter struct {
	b []byte
	n int // bits written
}

func (w *bitWriter) add(v uint, n int) {
	for i := n - 1; i >= 0; i-- {
		if w.n%8 == 0 {
			w.b = append(w.b, 0)
		}
		if v>>i&1 == 1 {
			w.b[len(w.b)-1] |= 0x80 >> (w.n % 8)
		}
		w.n++
	}
}

// interleave splits the data into v's blocks, adds each block's error correction, and
// interleaves them: the blocks' first data codewords, their second…, then the same for the
// error correction codewords.
func interleave(data []byte, v int) []byte {
	ver := versions[v]
	var blocks, ecs [][]byte
	for i := 0; i < len(ver.blocks); i += 2 {
		for range ver.blocks[i] {
			n := ver.blocks[i+1]
			blocks = append(blocks, data[:n])
			ecs = append(ecs, reedSolomon(data[:n], ver.ec))
			data = data[n:]
		}
	}
	var out []byte
	for i := 0; ; i++ {
		added := false
		for _, b := range blocks {
			if i < len(b) {
				out, added = append(out, b[i]), true
			}
		}
		if !added {
			break
		}
	}
	for i := range ver.ec {
		for _, e := range ecs {
			out = append(out, e[i])
		}
	}
	return out
}

// GF(256) with the polynomial x⁸+x⁴+x³+x²+1 (0x11D): exp and log tables.
var gfExp, gfLog = func() (exp [512]byte, log [256]int) {
	x := 1
	for i := range 255 {
		exp[i] = byte(x)
		log[x] = i
		x <<= 1
		if x&0x100 != 0 {
			x ^= 0x11D
		}
	}
	for i := 255; i < 512; i++ {
		exp[i] = exp[i-255]
	}
	return exp, log
}()

func gfMul(a, b byte) byte {
	if a == 0 || b == 0 {
		return 0
	}
	return gfExp[gfLog[a]+gfLog[b]]
}

// generators are the Reed–Solomon generator polynomials, highest degree first, by the number
// of error correction codewords of the table.
var generators = func() map[int][]byte {
	g := map[int][]byte{}
	for _, v := range versions[1:] {
		if g[v.ec] != nil {
			continue
		}
		p := []byte{1}
		for i := range v.ec {
			next := make([]byte, len(p)+1)
			for j, c := range p {
				next[j] ^= c
				next[j+1] ^= gfMul(c, gfExp[i])
			}
			p = next
		}
		g[v.ec] = p
	}
	return g
}()

// reedSolomon returns the n error correction codewords of data.
func reedSolomon(data []byte, n int) []byte {
	g := generators[n]
	ec := make([]byte, n)
	for _, d := range data {
		factor := d ^ ec[0]
		copy(ec, ec[1:])
		ec[n-1] = 0
		if factor != 0 {
			lf := gfLog[factor]
			for i := range n {
				if g[i+1] != 0 {
					ec[i] ^= gfExp[lf+gfLog[g[i+1]]]
				}
			}
		}
	}
	return ec
}

// functionPatterns returns the modules of version v that carry no data (finders and their
// separators, alignment and timing patterns, the dark module, the version information) with
// their values, and marks the format information's modules as taken (their values depend on
// the mask).
func functionPatterns(v int) (modules []int8, function []bool) {
	size := 17 + 4*v
	modules = make([]int8, size*size)
	function = make([]bool, size*size)
	set := func(x, y int, dark bool) {
		modules[y*size+x] = b2i(dark)
		function[y*size+x] = true
	}
	// Finders, each with its light separator.
	for _, o := range [][2]int{{0, 0}, {size - 7, 0}, {0, size - 7}} {
		for dy := -1; dy <= 7; dy++ {
			for dx := -1; dx <= 7; dx++ {
				x, y := o[0]+dx, o[1]+dy
				if x < 0 || y < 0 || x >= size || y >= size {
					continue
				}
				ring := dx == 0 || dx == 6 || dy == 0 || dy == 6
				centre := dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4
				set(x, y, dx >= 0 && dx <= 6 && dy >= 0 && dy <= 6 && (ring || centre))
			}
		}
	}
	set(8, size-8, true) // the dark module
	// Alignment patterns, where their centre is free (not on a finder).
	for _, cy := range versions[v].align {
		for _, cx := range versions[v].align {
			if function[cy*size+cx] {
				continue
			}
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					set(cx+dx, cy+dy, max(abs(dx), abs(dy)) != 1)
				}
			}
		}
	}
	// Timing patterns, between the finders.
	for i := 8; i < size-8; i++ {
		if !function[6*size+i] {
			set(i, 6, i%2 == 0)
		}
		if !function[i*size+6] {
			set(6, i, i%2 == 0)
		}
	}
	// Format information: placed per mask (putFormat).
	for _, p := range formatPositions(size) {
		function[p[1]*size+p[0]] = true
	}
	// Version information, from version 7: 6 bits of version and 12 of BCH code, least
	// significant first, in two 6×3 blocks.
	if v >= 7 {
		info := uint(v)<<12 | bch(uint(v), 0x1F25)
		k := 0
		for i := range 6 {
			for j := range 3 {
				dark := info>>k&1 == 1
				set(i, size-11+j, dark)
				set(size-11+j, i, dark)
				k++
			}
		}
	}
	return modules, function
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// formatPositions are the two places of each of the 15 format bits, least significant first:
// around the top-left finder, then split between the other two.
func formatPositions(size int) [30][2]int {
	first := [15][2]int{{8, 0}, {8, 1}, {8, 2}, {8, 3}, {8, 4}, {8, 5}, {8, 7}, {8, 8}, {7, 8}, {5, 8}, {4, 8}, {3, 8}, {2, 8}, {1, 8}, {0, 8}}
	var p [30][2]int
	for i := range 15 {
		p[2*i] = first[i]
		if i < 8 {
			p[2*i+1] = [2]int{size - 1 - i, 8}
		} else {
			p[2*i+1] = [2]int{8, size - 7 + (i - 8)}
		}
	}
	return p
}

// putFormat writes the format information of level M and mask into modules.
func putFormat(modules []int8, size, mask int) {
	info := uint(mask) // level M's two bits are 00
	info = (info<<10 | bch(info, 0x537)) ^ 0x5412
	for i, p := range formatPositions(size) {
		modules[p[1]*size+p[0]] = int8(info >> (i / 2) & 1)
	}
}

// bch returns the BCH code of value for the generator poly: the remainder of value shifted
// past poly's degree, divided by poly.
func bch(value, poly uint) uint {
	msb := func(x uint) int { return bits.Len(x) }
	deg := msb(poly) - 1
	value <<= deg
	for msb(value) > deg {
		value ^= poly << (msb(value) - msb(poly))
	}
	return value
}

// placement returns the data modules in the order the codeword bits fill them: two columns
// at a time from the right, upwards then downwards, skipping the vertical timing column.
func placement(size int, function []bool) []int32 {
	order := make([]int32, 0, size*size)
	up := true
	for x := size - 1; x > 0; x -= 2 {
		if x == 6 {
			x--
		}
		for i := range size {
			y := i
			if up {
				y = size - 1 - i
			}
			for _, xx := range []int{x, x - 1} {
				if idx := y*size + xx; !function[idx] {
					order = append(order, int32(idx))
				}
			}
		}
		up = !up
	}
	return order
}

// maskBit reports whether mask inverts the module in column x, row y.
func maskBit(mask, x, y int) bool {
	switch mask {
	case 0:
		return (y+x)%2 == 0
	case 1:
		return y%2 == 0
	case 2:
		return x%3 == 0
	case 3:
		return (y+x)%3 == 0
	case 4:
		return (y/2+x/3)%2 == 0
	case 5:
		return (y*x)%2+(y*x)%3 == 0
	case 6:
		return ((y*x)%2+(y*x)%3)%2 == 0
	default:
		return ((y*x)%3+(y+x)%2)%2 == 0
	}
}

// penalty scores a masked symbol by the four rules of ISO/IEC 18004 (as ZXing reads them):
// runs of five or more, 2×2 blocks, finder-like patterns, and imbalance of dark and light.
// It works on each row and column as a bit set (bit x: module x is dark), 64 modules per
// operation: rows and cols are the caller's, of size lines each, and are overwritten.
func penalty(m []int8, size int, rows, cols []line) int {
	clear(rows)
	clear(cols)
	for y := range size {
		for x, v := range m[y*size : (y+1)*size] {
			if v == 1 {
				rows[y].set(x)
				cols[x].set(y)
			}
		}
	}
	pairs := mask(size - 1) // x such that x+1 is in the line too
	p, dark := 0, 0
	for i := range size {
		p += linePenalty(rows[i], pairs, size) + linePenalty(cols[i], pairs, size)
		dark += rows[i].count()
		// Rule 2: 3 per 2×2 block of one colour, x and x+1 of rows i and i+1.
		if i+1 < size {
			a, b := rows[i], rows[i+1]
			blocks := a.xor(a.shr(1)).or(b.xor(b.shr(1))).or(a.xor(b)).not().and(pairs)
			p += 3 * blocks.count()
		}
	}
	// Rule 4: 10 per whole 5% between the dark share and a half.
	total := size * size
	p += abs(2*dark-total) * 10 / total * 10
	return p
}

// linePenalty is rules 1 and 3 on one row or column a of n modules: 3 per run of five or more
// modules of one colour, plus 1 per module past five; 40 per dark-light 1:1:3:1:1 pattern with
// four light modules on either side (the symbol's edge counting as light).
func linePenalty(a, pairs line, n int) int {
	// Rule 1. same: x and x+1 alike. five: x to x+4 alike, which a run of n ≥ 5 has at n-4
	// places, the first of them where it starts (x-1 unlike x): n-4 + 2 = 3 + (n-5).
	same := a.xor(a.shr(1)).not().and(pairs)
	five := same.and(same.shr(1)).and(same.shr(2)).and(same.shr(3))
	starts := five.and(same.shl(1).not())
	p := five.count() + 2*starts.count()
	// Rule 3: dark, light, dark ×3, light, dark from x, within the line (x+6 < n), with four
	// light modules before x or after x+6 (outside the line counts as light: shifts bring in
	// zeros, and a holds none past n).
	if n >= 7 {
		pattern := a.and(a.shr(1).not()).and(a.shr(2)).and(a.shr(3)).and(a.shr(4)).and(a.shr(5).not()).and(a.shr(6)).and(mask(n - 6))
		before := a.shl(1).or(a.shl(2)).or(a.shl(3)).or(a.shl(4)).not()
		after := a.shr(7).or(a.shr(8)).or(a.shr(9)).or(a.shr(10)).not()
		p += 40 * pattern.and(before.or(after)).count()
	}
	return p
}

// line is a row or column of up to 192 modules, one bit each: bit x (x%64 of word x/64) is
// module x.
type line [3]uint64

// mask returns the line with bits 0 to n-1 set.
func mask(n int) line {
	var l line
	for i := range l {
		switch {
		case n >= 64*(i+1):
			l[i] = ^uint64(0)
		case n > 64*i:
			l[i] = 1<<(n-64*i) - 1
		}
	}
	return l
}

func (l *line) set(x int) { l[x/64] |= 1 << (x % 64) }

func (l line) and(o line) line { return line{l[0] & o[0], l[1] & o[1], l[2] & o[2]} }
func (l line) or(o line) line  { return line{l[0] | o[0], l[1] | o[1], l[2] | o[2]} }
func (l line) xor(o line) line { return line{l[0] ^ o[0], l[1] ^ o[1], l[2] ^ o[2]} }
func (l line) not() line       { return line{^l[0], ^l[1], ^l[2]} }

// shr moves every bit k places down (bit x+k to x), 0 < k < 64.
func (l line) shr(k uint) line {
	return line{l[0]>>k | l[1]<<(64-k), l[1]>>k | l[2]<<(64-k), l[2] >> k}
}

// shl moves every bit k places up (bit x to x+k), 0 < k < 64.
func (l line) shl(k uint) line {
	return line{l[0] << k, l[1]<<k | l[0]>>(64-k), l[2]<<k | l[1]>>(64-k)}
}

func (l line) count() int {
	return bits.OnesCount64(l[0]) + bits.OnesCount64(l[1]) + bits.OnesCount64(l[2])
}
