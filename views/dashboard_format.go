package views

import (
	"fmt"
	"time"
)

// SaoPaulo is the zone the dashboard reads and shows times in (America/Sao_Paulo).
func SaoPaulo() *time.Location { return saoPaulo }

// FormatDuration formats a time spent in a state for people: "2 d 3 h", "1 h 5 min",
// "4 min 12 s", "950 ms". The two largest units are enough to compare states.
func FormatDuration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	s := int64(d / time.Second)
	days, h, m, sec := s/86400, (s%86400)/3600, (s%3600)/60, s%60
	switch {
	case days > 0:
		return fmt.Sprintf("%d d %d h", days, h)
	case h > 0:
		return fmt.Sprintf("%d h %d min", h, m)
	case m > 0:
		return fmt.Sprintf("%d min %d s", m, sec)
	}
	return fmt.Sprintf("%d s", sec)
}
