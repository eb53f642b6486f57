package mailtest

import (
	"encoding/base64"
	"io"
	"strings"
)

// base64Reader decodes a base64 body whose lines are broken (as MIME breaks them).
func base64Reader(r io.Reader) io.Reader {
	b, err := io.ReadAll(r)
	if err != nil {
		return strings.NewReader("")
	}
	clean := strings.Map(func(c rune) rune {
		if c == '\r' || c == '\n' || c == ' ' {
			return -1
		}
		return c
	}, string(b))
	return base64.NewDecoder(base64.StdEncoding, strings.NewReader(clean))
}
