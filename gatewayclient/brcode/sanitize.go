package brcode

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sanitize turns free text (a shop's name, a city) into what a BR Code field accepts:
// printable ASCII. Letters are transliterated so that the text keeps its sound: accented Latin
// letters lose their marks ("São João" to "Sao Joao", "Łódź" to "Lodz"), ligatures and other
// Latin letters are spelled out ("Straße" to "Strasse"), Cyrillic and Greek letters are
// romanised ("Кафе Москва" to "Kafe Moskva", "Ταβέρνα" to "Taverna"), typographic quotes
// and dashes become their ASCII forms. Every other character outside printable ASCII is
// dropped (scripts without a letter-by-letter romanisation, such as Chinese, Japanese,
// Arabic or Hebrew, symbols, emoji), white space is made single spaces and trimmed, and the
// result is cut to at most max characters (no limit when max <= 0). It may be empty: the
// caller then needs a name of its own.
func Sanitize(s string, max int) string {
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i, r := range rs {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\u00A0' {
			space = b.Len() > 0
			continue
		}
		out := asciiOf(rs, i)
		if out == "" {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(out)
	}
	out := b.String()
	if max > 0 && len(out) > max {
		out = strings.TrimRight(out[:max], " ")
	}
	return out
}

// asciiOf is rs[i], not a white space, in printable ASCII: itself, its romanisation (in
// capitals within a word in capitals), or "" when it has none.
func asciiOf(rs []rune, i int) string {
	r := rs[i]
	if r >= 0x20 && r <= 0x7E {
		return string(r)
	}
	out := transliterate(r)
	if len(out) > 1 && unicode.IsUpper(r) && upperAround(rs, i) {
		out = strings.ToUpper(out) // "ЩИ" is "SHCHI", "Щи" "Shchi"
	}
	return out
}

// upperAround reports whether the letter next to rs[i] (the following one, else the one
// before) is upper case: a word written in capitals.
func upperAround(rs []rune, i int) bool {
	if i+1 < len(rs) && unicode.IsLetter(rs[i+1]) {
		return unicode.IsUpper(rs[i+1])
	}
	return i > 0 && unicode.IsUpper(rs[i-1])
}

// transliterate returns the printable ASCII that stands for r, or "" when there is none.
func transliterate(r rune) string {
	if i := strings.IndexRune(latinMarked, r); i >= 0 {
		n := utf8.RuneCountInString(latinMarked[:i])
		return latinBase[n : n+1]
	}
	return letters[r]
}

// latinMarked and latinBase pair each Latin letter with diacritics of the blocks Latin-1
// Supplement, Latin Extended-A and -B and Latin Extended Additional with its base letter, the
// n-th rune of one with the n-th byte of the other: the letters whose canonical decomposition
// (Unicode NFD) is an ASCII letter followed by combining marks.
const (
	latinMarked = "ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíî" +
		"ïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜ" +
		"ĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐő" +
		"ŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽ" +
		"žƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻ" +
		"ȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯ" +
		"ȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣ" +
		"ḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋ" +
		"ṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳ" +
		"ṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẠạ" +
		"ẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉ" +
		"ỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰự" +
		"ỲỳỴỵỶỷỸỹ"
	latinBase = "AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiii" +
		"inooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeG" +
		"gGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOo" +
		"RrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZ" +
		"zOoUuAaIiOoUuUuUuUuUuAaAaGgKkOoOojGgNnAa" +
		"AaAaEeEeIiIiOoOoRrRrUuUuSsTtHhAaEeOoOoOo" +
		"OoYyAaBbBbBbCcDdDdDdDdDdEeEeEeEeEeFfGgHh" +
		"HhHhHhHhIiIiKkKkKkLlLlLlLlMmMmMmNnNnNnNn" +
		"OoOoOoOoPpPpRrRrRrRrSsSsSsSsSsTtTtTtTtUu" +
		"UuUuUuUuVvVvWwWwWwWwWwXxXxYyZzZzZzhtwyAa" +
		"AaAaAaAaAaAaAaAaAaAaAaEeEeEeEeEeEeEeEeIi" +
		"IiOoOoOoOoOoOoOoOoOoOoOoOoUuUuUuUuUuUuUu" +
		"YyYyYyYy"
)

// letters spells out the letters (and a few signs) with no ASCII base letter.
var letters = map[rune]string{
	// Latin letters that do not decompose, and ligatures.
	'ß': "ss", 'ẞ': "SS", 'Æ': "AE", 'æ': "ae", 'Œ': "OE", 'œ': "oe", 'Ø': "O", 'ø': "o",
	'Ð': "D", 'ð': "d", 'Þ': "Th", 'þ': "th", 'Đ': "D", 'đ': "d", 'Ħ': "H", 'ħ': "h",
	'ı': "i", 'Ĳ': "IJ", 'ĳ': "ij", 'Ŀ': "L", 'ŀ': "l", 'Ł': "L", 'ł': "l", 'ŉ': "n",
	'Ŋ': "N", 'ŋ': "n", 'ĸ': "k", 'ſ': "s", 'Ŧ': "T", 'ŧ': "t", 'ƒ': "f", 'ª': "a",
	'º': "o",
	// Cyrillic, romanised as Russian's BGN/PCGN (Ъ and Ь, signs without a sound, are dropped), with Ukrainian, Belarusian, Serbian and Macedonian letters.
	'А': "A", 'а': "a", 'Б': "B", 'б': "b", 'В': "V", 'в': "v", 'Г': "G", 'г': "g",
	'Д': "D", 'д': "d", 'Е': "E", 'е': "e", 'Ё': "E", 'ё': "e", 'Ж': "Zh", 'ж': "zh",
	'З': "Z", 'з': "z", 'И': "I", 'и': "i", 'Й': "Y", 'й': "y", 'К': "K", 'к': "k",
	'Л': "L", 'л': "l", 'М': "M", 'м': "m", 'Н': "N", 'н': "n", 'О': "O", 'о': "o",
	'П': "P", 'п': "p", 'Р': "R", 'р': "r", 'С': "S", 'с': "s", 'Т': "T", 'т': "t",
	'У': "U", 'у': "u", 'Ф': "F", 'ф': "f", 'Х': "Kh", 'х': "kh", 'Ц': "Ts", 'ц': "ts",
	'Ч': "Ch", 'ч': "ch", 'Ш': "Sh", 'ш': "sh", 'Щ': "Shch", 'щ': "shch", 'Ъ': "", 'ъ': "",
	'Ы': "Y", 'ы': "y", 'Ь': "", 'ь': "", 'Э': "E", 'э': "e", 'Ю': "Yu", 'ю': "yu",
	'Я': "Ya", 'я': "ya", 'Є': "Ye", 'є': "ye", 'І': "I", 'і': "i", 'Ї': "Yi", 'ї': "yi",
	'Ґ': "G", 'ґ': "g", 'Ў': "U", 'ў': "u", 'Ђ': "Dj", 'ђ': "dj", 'Ј': "J", 'ј': "j",
	'Љ': "Lj", 'љ': "lj", 'Њ': "Nj", 'њ': "nj", 'Ћ': "C", 'ћ': "c", 'Џ': "Dz", 'џ': "dz",
	'Ѓ': "Gj", 'ѓ': "gj", 'Ќ': "Kj", 'ќ': "kj", 'Ѕ': "Dz", 'ѕ': "dz",
	// Greek, romanised as ELOT 743 (letter by letter), with its accented vowels.
	'Α': "A", 'α': "a", 'Β': "V", 'β': "v", 'Γ': "G", 'γ': "g", 'Δ': "D", 'δ': "d",
	'Ε': "E", 'ε': "e", 'Ζ': "Z", 'ζ': "z", 'Η': "I", 'η': "i", 'Θ': "Th", 'θ': "th",
	'Ι': "I", 'ι': "i", 'Κ': "K", 'κ': "k", 'Λ': "L", 'λ': "l", 'Μ': "M", 'μ': "m",
	'Ν': "N", 'ν': "n", 'Ξ': "X", 'ξ': "x", 'Ο': "O", 'ο': "o", 'Π': "P", 'π': "p",
	'Ρ': "R", 'ρ': "r", 'Σ': "S", 'σ': "s", 'ς': "s", 'Τ': "T", 'τ': "t", 'Υ': "Y",
	'υ': "y", 'Φ': "F", 'φ': "f", 'Χ': "Ch", 'χ': "ch", 'Ψ': "Ps", 'ψ': "ps", 'Ω': "O",
	'ω': "o", 'Ά': "A", 'ά': "a", 'Έ': "E", 'έ': "e", 'Ή': "I", 'ή': "i", 'Ί': "I",
	'ί': "i", 'ΐ': "i", 'Ϊ': "I", 'ϊ': "i", 'Ό': "O", 'ό': "o", 'Ύ': "Y", 'ύ': "y",
	'ΰ': "y", 'Ϋ': "Y", 'ϋ': "y", 'Ώ': "O", 'ώ': "o",
	// Typographic quotes, dashes and signs.
	'‘': "'", '’': "'", '‚': "'", '′': "'", '“': "\"", '”': "\"", '„': "\"", '″': "\"",
	'«': "\"", '»': "\"", '‐': "-", '‑': "-", '‒': "-", '–': "-", '—': "-", '−': "-",
	'…': "...", '№': "No",
}
