package dashboard

import "testing"

// TestCellEscapesHiddenFormulas: a formula behind a space, a no-break space, a zero-width
// space, a byte-order mark, or in fullwidth form, is escaped like a plain one; text that only
// holds such characters elsewhere is left alone.
//
// What LibreOffice runs was checked by hand, not in CI (it is no dependency of the project), in
// LibreOffice 7.4.7.2 (Debian 12's libreoffice-calc): a CSV of 56 payloads — =, +, -, @ and
// their fullwidth forms, each followed by 1+1, alone and behind a space, a no-break space, a
// zero-width space, a BOM, a tab, and a zero-width space + no-break space + space — one column
// as they are and one through cell, comma-separated and in the Excel flavour (semicolons, a
// BOM), converted with
//
//	libreoffice --headless --infilter="CSV:44,34,76,1,,0,false,true,false,false,false,-1,true" --convert-to xlsx payloads.csv
//
// (token 13: evaluate formulas; 59 for the semicolon) and the sheet's XML read back: of the
// cells as they are, only "=1+1" became a formula (an <f> element, value 2), the hidden and
// fullwidth ones stayed text; of the escaped cells none did (text, its apostrophe shown).
func TestCellEscapesHiddenFormulas(t *testing.T) {
	for _, s := range []string{"=1+1", " =1+1", "\u00a0=HYPERLINK(\"x\")", "\u200b+1", "\ufeff-1", "\uff1dSUM(A1)",
		"\u200b \u00a0@SUM(A1)", "\t=1", "  \ufeff\uff0b1", "\uff0d1+1", "\u00a0\uff201+1"} {
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
