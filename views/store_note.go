package views

import (
	"net/url"
	"regexp"
	"strings"
)

// notePart is a piece of a line of the store's note: plain text, or an https link (URL set)
// whose text is the address as written.
type notePart struct {
	Text string
	URL  string
}

// noteURL finds what looks like an https address in a line of the note.
var noteURL = regexp.MustCompile(`(?i)https://[^\s<>"']+`)

// noteLines splits the store's note (plain text) into its lines, blank lines left out, each
// in parts: its https addresses become links, everything else stays text (templ escapes it).
// Only https addresses with a host are links; any other scheme (javascript:, data:, http:) is
// never one. Punctuation ending a sentence after an address stays text.
func noteLines(note string) [][]notePart {
	var out [][]notePart
	for _, line := range addressLines(note) {
		var parts []notePart
		rest := line
		for {
			loc := noteURL.FindStringIndex(rest)
			if loc == nil {
				break
			}
			raw := strings.TrimRight(rest[loc[0]:loc[1]], ".,;:!?)]}")
			end := loc[0] + len(raw)
			if u, ok := safeNoteURL(raw); ok {
				if loc[0] > 0 {
					parts = append(parts, notePart{Text: rest[:loc[0]]})
				}
				parts = append(parts, notePart{Text: raw, URL: u})
			} else {
				parts = append(parts, notePart{Text: rest[:end]})
			}
			rest = rest[end:]
		}
		if rest != "" {
			parts = append(parts, notePart{Text: rest})
		}
		out = append(out, parts)
	}
	return out
}

// safeNoteURL returns raw as a link's address when it is an https URL with a host and no
// user information; ok false otherwise.
func safeNoteURL(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Host == "" || u.User != nil || u.Opaque != "" {
		return "", false
	}
	u.Scheme = "https"
	return u.String(), true
}
