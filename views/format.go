package views

import (
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// saoPaulo is the zone every date is shown in. It is set once at start and never changed.
var saoPaulo = loadSaoPaulo()

// loadSaoPaulo loads America/Sao_Paulo from the system's zone database, falling back to a fixed
// UTC-03:00 (Brazil has had no daylight saving time since 2019) where that database is missing.
func loadSaoPaulo() *time.Location {
	if loc, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		return loc
	}
	return time.FixedZone("-03", -3*60*60)
}

// FormatMoney formats an amount of cents as Brazilian reais: "R$ 1.234,56" in pt-BR and
// "R$1,234.56" in English; negative amounts get a leading minus ("-R$ 5,00"). Integer
// arithmetic only.
func FormatMoney(lang Lang, c checkout.Cents) string {
	neg := c < 0
	// Work on the magnitude as unsigned so that the smallest int64 does not overflow.
	u := uint64(c)
	if neg {
		u = uint64(-(c + 1)) + 1
	}
	thousands, decimal, prefix := ".", ",", "R$ "
	if lang.norm() == En {
		thousands, decimal, prefix = ",", ".", "R$"
	}
	whole := strconv.FormatUint(u/100, 10)
	frac := u % 100
	b := make([]byte, 0, 32)
	if neg {
		b = append(b, '-')
	}
	b = append(b, prefix...)
	for i := 0; i < len(whole); i++ {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b = append(b, thousands...)
		}
		b = append(b, whole[i])
	}
	b = append(b, decimal...)
	b = append(b, byte('0'+frac/10), byte('0'+frac%10))
	return string(b)
}

// FormatDateTime formats t in America/Sao_Paulo: "21/11/2025 22:25" in pt-BR and
// "Nov 21, 2025, 10:25 PM" in English. The zero time gives "".
func FormatDateTime(lang Lang, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(saoPaulo)
	if lang.norm() == En {
		return t.Format("Jan 2, 2006, 3:04 PM")
	}
	return t.Format("02/01/2006 15:04")
}

// FormatClock formats the time of day of t in America/Sao_Paulo: "21:26" in pt-BR and
// "9:26 PM" in English. The zero time gives "".
func FormatClock(lang Lang, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(saoPaulo)
	if lang.norm() == En {
		return t.Format("3:04 PM")
	}
	return t.Format("15:04")
}
