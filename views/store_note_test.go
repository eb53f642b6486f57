package views

import (
	"reflect"
	"testing"
)

// TestNoteLines: only https addresses with a host and no user become links (the scheme
// lower-cased, a sentence's closing punctuation left as text); http, javascript:, data:, a
// bare "https://" and an address with a user stay text; blank lines go.
func TestNoteLines(t *testing.T) {
	got := noteLines("Veja (HTTPS://Loja.example/trocas).\n\n  http://a.example javascript:alert(1) https:// https://eu@b.example/ data:,x  ")
	want := [][]notePart{
		{{Text: "Veja ("}, {Text: "HTTPS://Loja.example/trocas", URL: "https://Loja.example/trocas"}, {Text: ")."}},
		{{Text: "http://a.example javascript:alert(1) https:// https://eu@b.example/"}, {Text: " data:,x"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("noteLines:\n got %+v\nwant %+v", got, want)
	}
}
