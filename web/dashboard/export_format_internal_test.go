package dashboard

import "testing"

// TestCellEscapesHiddenFormulas: a formula behind a space, a no-break space, a zero-width
// space, a byte-order mark, or in fullwidth form, is escaped like a plain one; text that only
// holds such characters elsewhere is left alone.
func TestCellEscapesHiddenFormulas(t *testing.T) {
	for _, s := range []string{"=1+1", " =1+1", "\u00a0=HYPERLINK(\"x\")", "\u200b+1", "\ufeff-1", "\uff1dSUM(A1)",
		"\u200b \u00a0@SUM(A1)", "\t=1", "  \ufeff\uff0b1"} {
		if got := cell(s); got != "'"+s {
			t.Errorf("cell(%q) = %q, want it escaped", s, got)
		}
	}
	for _, s := range []string{"", "Maria da Silva", " Maria", "\u00a0", "a=b", "1-2", "\u200b"} {
		if got := cell(s); got != s {
			t.Errorf("cell(%q) = %q, want it as is", s, got)
		}
	}
}
