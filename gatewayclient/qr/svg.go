package qr

import (
	"strconv"
	"strings"
)

// SVGPath returns the dark modules of the code as the d attribute of an SVG path, one unit a
// module, the quiet zone included (the symbol starts at QuietZone, QuietZone): drawn in a
// square of Size + 2 × QuietZone units on a light background, it is the code at any scale,
// as sharp on paper as the printer allows. Runs of dark modules in a row are one rectangle.
func (c *Code) SVGPath() string {
	var b strings.Builder
	for y := 0; y < c.Size; y++ {
		for x := 0; x < c.Size; {
			if !c.dark[y][x] {
				x++
				continue
			}
			run := 1
			for x+run < c.Size && c.dark[y][x+run] {
				run++
			}
			b.WriteByte('M')
			b.WriteString(strconv.Itoa(x + QuietZone))
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(y + QuietZone))
			b.WriteByte('h')
			b.WriteString(strconv.Itoa(run))
			b.WriteString("v1h-")
			b.WriteString(strconv.Itoa(run))
			b.WriteByte('z')
			x += run
		}
	}
	return b.String()
}
