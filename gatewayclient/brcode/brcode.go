package brcode

import (
	"slices"
	"strings"
)

// Limits and fixed values of the BR Code.
const (
	// MaxLength is the longest payload, in characters.
	MaxLength = 512
	// MaxNameLength is the longest merchant name (field 59).
	MaxNameLength = 25
	// MaxCityLength is the longest merchant city (field 60).
	MaxCityLength = 15
	// MaxKeyLength is the longest PIX key (field 26/01); the DICT's keys are at most 77.
	MaxKeyLength = 77
	// MaxURLLength is the longest location URL (field 26/25).
	MaxURLLength = 77
	// MaxTxIDLength is the longest txid of a static code (field 62/05).
	MaxTxIDLength = 25
	// MaxAmount is the largest amount in cents: 9999999999.99, the 13 characters of field 54.
	MaxAmount int64 = 999_999_999_999

	// PixGUI is the globally unique identifier of PIX in template 26 (compared without case).
	PixGUI = "br.gov.bcb.pix"
	// NoTxID is the txid meaning "none": a static code without an identifier, or a dynamic
	// code whose txid is known from its location.
	NoTxID = "***"
	// InitiationStatic is field 01 of a code that may be paid several times.
	InitiationStatic = "11"
	// InitiationDynamic is field 01 of a code to be paid once.
	InitiationDynamic = "12"
)

// Field is one TLV data object: a two-digit ID and its value, whose length is written as two
// digits before it.
type Field struct {
	ID    string // two digits, "00" to "99"
	Value string // 1 to 99 characters
}

// Payload is a decoded BR Code. The zero value of an optional field means the field is absent;
// Encode fills the fixed fields (PayloadFormat, GUI, MerchantCategoryCode, Currency,
// CountryCode, TxID) with their usual values when they are empty.
type Payload struct {
	// PayloadFormat is field 00, "01".
	PayloadFormat string
	// PointOfInitiation is field 01: InitiationStatic ("11"), InitiationDynamic ("12") or ""
	// when omitted.
	PointOfInitiation string
	// GUI is field 26/00, PixGUI in any case (the case is kept as decoded).
	GUI string
	// Key is field 26/01, the PIX key of a static code; exclusive with URL.
	Key string
	// Description is field 26/02, additional information shown to the payer.
	Description string
	// URL is field 26/25, the location of a dynamic code's payload, without "https://".
	URL string
	// MerchantCategoryCode is field 52, four digits; "0000" when empty on encode.
	MerchantCategoryCode string
	// Currency is field 53, "986" (BRL); "986" when empty on encode.
	Currency string
	// Amount is field 54 in cents; 0 means the field is omitted (the payer chooses).
	Amount int64
	// CountryCode is field 58, "BR"; "BR" when empty on encode.
	CountryCode string
	// MerchantName is field 59, 1 to 25 characters.
	MerchantName string
	// MerchantCity is field 60, 1 to 15 characters.
	MerchantCity string
	// PostalCode is field 61, optional.
	PostalCode string
	// TxID is field 62/05: NoTxID ("***") or 1 to 25 letters and digits; NoTxID when empty on
	// encode. A dynamic code uses NoTxID.
	TxID string
	// AccountExtra holds the sub-fields of template 26 not modelled above (e.g. 03, the
	// withdrawal facilitator of Pix Saque and Pix Troco).
	AccountExtra []Field
	// AdditionalExtra holds the sub-fields of template 62 other than 05.
	AdditionalExtra []Field
	// Extra holds the top-level fields not modelled above, such as other merchant account
	// templates (02-51) or the 80-99 templates.
	Extra []Field

	// layout records how a decoded payload was written when that differs from what Encode
	// would write by default, so that Encode gives back the very same string.
	layout layout
}

// layout holds the field order of each level (nil when ascending, Encode's default) and the
// amount as written (empty when it is Encode's form).
type layout struct {
	top, account, additional []uint8
	amount                   string
}

// Dynamic reports whether p is a dynamic code: one carrying a location URL (26/25) from which
// the payer's bank fetches the charge, rather than a static PIX key.
func (p Payload) Dynamic() bool { return p.URL != "" }

// ParseTLV splits s into its top-level data objects, without looking inside templates.
// Lengths count bytes (BR Codes are ASCII). Errors wrap ErrFormat.
func ParseTLV(s string) ([]Field, error) {
	return parseTLV(s, "")
}

func parseTLV(s, parent string) ([]Field, error) {
	fields := make([]Field, 0, len(s)/12+1)
	for i := 0; i < len(s); {
		if len(s)-i < 4 {
			return nil, formatErr(parent, "truncated data object at position %d: %q", i, s[i:])
		}
		id := s[i : i+2]
		if !isDigits(id) {
			return nil, formatErr(parent, "ID %q at position %d is not two digits", id, i)
		}
		path := join(parent, id)
		lenText := s[i+2 : i+4]
		if !isDigits(lenText) {
			return nil, formatErr(path, "length %q is not two digits", lenText)
		}
		n := twoDigits(lenText)
		if n == 0 {
			return nil, formatErr(path, "length 00: a data object holds 1 to 99 characters")
		}
		if rest := len(s) - i - 4; n > rest {
			return nil, formatErr(path, "length %02d but only %d characters remain", n, rest)
		}
		fields = append(fields, Field{ID: id, Value: s[i+4 : i+4+n]})
		i += 4 + n
	}
	return fields, nil
}

// Decode reads a BR Code: its structure, its CRC (an error wrapping ErrCRC when wrong), the
// presence of the mandatory fields and every field rule of the package doc. The string must be
// exactly the code, without surrounding spaces.
func Decode(s string) (Payload, error) {
	var p Payload
	fields, err := checkedFields(s)
	if err != nil {
		return Payload{}, err
	}
	var seen [100]bool
	var orderBuf [100]uint8 // IDs are unique, so at most 100; on the stack unless kept
	order := orderBuf[:0]
	for _, f := range fields {
		id := twoDigits(f.ID)
		if seen[id] {
			return Payload{}, formatErr(f.ID, "appears twice")
		}
		seen[id] = true
		order = append(order, uint8(id))
		if err := p.decodeField(f); err != nil {
			return Payload{}, err
		}
	}
	for _, id := range [...]int{0, 26, 52, 53, 58, 59, 60, 62} {
		if !seen[id] {
			return Payload{}, invalidErr(string(appendID(nil, uint8(id))), "is missing")
		}
	}
	if !ascending(order) {
		p.layout.top = slices.Clone(order)
	}
	if err := p.validate(); err != nil {
		return Payload{}, err
	}
	return p, nil
}

// checkedFields is the top-level fields of s, its length, characters and CRC checked, without
// the CRC field; the first is the payload format.
func checkedFields(s string) ([]Field, error) {
	if len(s) > MaxLength {
		return nil, formatErr("", "%d characters, at most %d", len(s), MaxLength)
	}
	if i := nonPrintable(s); i >= 0 {
		return nil, formatErr("", "character %q at position %d is not printable ASCII", s[i], i)
	}
	fields, err := ParseTLV(s)
	if err != nil {
		return nil, err
	}
	if len(fields) == 0 {
		return nil, formatErr("", "empty payload")
	}
	last := fields[len(fields)-1]
	if last.ID != "63" {
		return nil, formatErr("63", "missing: the payload must end with 6304 and the CRC")
	}
	if len(last.Value) != 4 {
		return nil, formatErr("63", "length %02d, must be 04", len(last.Value))
	}
	want, ok := parseCRC(last.Value)
	if !ok {
		return nil, formatErr("63", "%q is not four hexadecimal digits", last.Value)
	}
	if got := crc16(s[:len(s)-4]); got != want {
		return nil, &Error{Field: "63", Reason: "the payload says " + last.Value + ", its content gives " + string(appendCRC(nil, got)), Kind: ErrCRC}
	}
	fields = fields[:len(fields)-1]
	if len(fields) == 0 || fields[0].ID != "00" {
		return nil, formatErr("00", "must be the first field")
	}
	return fields, nil
}

// decodeField sets the top-level field f on p; a field the package does not know goes to Extra.
func (p *Payload) decodeField(f Field) error {
	switch f.ID {
	case "00":
		p.PayloadFormat = f.Value
	case "01":
		p.PointOfInitiation = f.Value
	case "26":
		return p.decodeAccount(f.Value)
	case "52":
		p.MerchantCategoryCode = f.Value
	case "53":
		p.Currency = f.Value
	case "54":
		return p.decodeAmount(f.Value)
	case "58":
		p.CountryCode = f.Value
	case "59":
		p.MerchantName = f.Value
	case "60":
		p.MerchantCity = f.Value
	case "61":
		p.PostalCode = f.Value
	case "62":
		return p.decodeAdditional(f.Value)
	case "63":
		return formatErr("63", "must be the last field")
	default:
		p.Extra = append(p.Extra, f)
	}
	return nil
}

// decodeAmount sets the amount of field 54, keeping its spelling when it is not the canonical one.
func (p *Payload) decodeAmount(v string) error {
	cents, ok := parseAmount(v)
	if !ok {
		return invalidErr("54", "%q is not an amount in reais written with a dot and at most two decimals, such as 10.50", v)
	}
	if cents == 0 {
		return invalidErr("54", "%q is zero: the field is omitted when the payer chooses the amount", v)
	}
	p.Amount = cents
	if string(appendAmount(nil, cents)) != v {
		p.layout.amount = v
	}
	return nil
}

func (p *Payload) decodeAccount(v string) error {
	subs, err := parseTLV(v, "26")
	if err != nil {
		return err
	}
	var seen [100]bool
	var orderBuf [100]uint8
	order := orderBuf[:0]
	for _, f := range subs {
		id := twoDigits(f.ID)
		if seen[id] {
			return formatErr(join("26", f.ID), "appears twice")
		}
		seen[id] = true
		order = append(order, uint8(id))
		switch f.ID {
		case "00":
			p.GUI = f.Value
		case "01":
			p.Key = f.Value
		case "02":
			p.Description = f.Value
		case "25":
			p.URL = f.Value
		default:
			p.AccountExtra = append(p.AccountExtra, f)
		}
	}
	if !seen[0] {
		return invalidErr("26.00", "is missing: PIX codes carry the GUI %s", PixGUI)
	}
	if !ascending(order) {
		p.layout.account = slices.Clone(order)
	}
	return nil
}

func (p *Payload) decodeAdditional(v string) error {
	subs, err := parseTLV(v, "62")
	if err != nil {
		return err
	}
	var seen [100]bool
	var orderBuf [100]uint8
	order := orderBuf[:0]
	for _, f := range subs {
		id := twoDigits(f.ID)
		if seen[id] {
			return formatErr(join("62", f.ID), "appears twice")
		}
		seen[id] = true
		order = append(order, uint8(id))
		if f.ID == "05" {
			p.TxID = f.Value
		} else {
			p.AdditionalExtra = append(p.AdditionalExtra, f)
		}
	}
	if !seen[5] {
		return invalidErr("62.05", "is missing: use %s when there is no txid", NoTxID)
	}
	if !ascending(order) {
		p.layout.additional = slices.Clone(order)
	}
	return nil
}

// Encode checks p against the field rules of the package doc and writes it as a BR Code,
// ending with 6304 and the CRC16 as four upper-case hexadecimal digits. The amount is written
// with a dot and two decimals ("10.50", "0.01", "1000.00"). A payload from Decode is written
// back exactly as it was read.
func (p Payload) Encode() (string, error) {
	b, err := p.appendTo(make([]byte, 0, 256))
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func (p *Payload) appendTo(b []byte) ([]byte, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	start := len(b)
	var buf [16]Field
	fs := append(buf[:0],
		Field{"00", or(p.PayloadFormat, "01")},
		Field{"01", p.PointOfInitiation},
		Field{"26", ""}, // template, written by appendAccount
		Field{"52", or(p.MerchantCategoryCode, "0000")},
		Field{"53", or(p.Currency, "986")},
		Field{"54", ""}, // written by appendAmount
		Field{"58", or(p.CountryCode, "BR")},
		Field{"59", p.MerchantName},
		Field{"60", p.MerchantCity},
		Field{"61", p.PostalCode},
		Field{"62", ""}, // template, written by appendAdditional
	)
	fs = append(fs, p.Extra...)
	arrange(fs, p.layout.top)
	var err error
	for _, f := range fs {
		switch f.ID {
		case "26":
			b, err = p.appendAccount(b)
		case "54":
			if p.Amount > 0 {
				b = p.appendAmountField(b)
			}
		case "62":
			b, err = p.appendAdditional(b)
		default:
			if f.Value != "" {
				b = appendTLV(b, f.ID, f.Value)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	b = append(b, "6304"...)
	b = appendCRC(b, crc16(b[start:]))
	if n := len(b) - start; n > MaxLength {
		return nil, invalidErr("", "the code would have %d characters, at most %d", n, MaxLength)
	}
	return b, nil
}

func (p *Payload) appendAccount(b []byte) ([]byte, error) {
	var buf [8]Field
	fs := append(buf[:0],
		Field{"00", or(p.GUI, PixGUI)},
		Field{"01", p.Key},
		Field{"02", p.Description},
		Field{"25", p.URL},
	)
	fs = append(fs, p.AccountExtra...)
	return appendTemplate(b, "26", fs, p.layout.account)
}

func (p *Payload) appendAdditional(b []byte) ([]byte, error) {
	var buf [8]Field
	fs := append(buf[:0], Field{"05", or(p.TxID, NoTxID)})
	fs = append(fs, p.AdditionalExtra...)
	return appendTemplate(b, "62", fs, p.layout.additional)
}

// appendAmountField writes field 54, as decoded when the decoded text still says p.Amount.
func (p *Payload) appendAmountField(b []byte) []byte {
	if p.layout.amount != "" {
		if cents, ok := parseAmount(p.layout.amount); ok && cents == p.Amount {
			return appendTLV(b, "54", p.layout.amount)
		}
	}
	b = append(b, "5400"...)
	start := len(b)
	b = appendAmount(b, p.Amount)
	n := len(b) - start // at most 13 by validate
	b[start-2], b[start-1] = '0'+byte(n/10), '0'+byte(n%10)
	return b
}

// appendTemplate writes the template id holding the non-empty fields of fs, in the order of
// layout (or ascending), and checks that the template fits its two-digit length.
func appendTemplate(b []byte, id string, fs []Field, layout []uint8) ([]byte, error) {
	arrange(fs, layout)
	b = append(b, id...)
	b = append(b, "00"...)
	start := len(b)
	for _, f := range fs {
		if f.Value != "" {
			b = appendTLV(b, f.ID, f.Value)
		}
	}
	n := len(b) - start
	if n > 99 {
		return nil, invalidErr(id, "%d characters once encoded, at most 99", n)
	}
	b[start-2], b[start-1] = '0'+byte(n/10), '0'+byte(n%10)
	return b, nil
}

// arrange sorts fs into the order of layout, fields that layout does not list coming after it
// in ascending ID order; with no layout, the order is ascending.
func arrange(fs []Field, layout []uint8) {
	var pos [100]uint8 // 1 + index in layout; 0 when absent
	for i, id := range layout {
		pos[id] = uint8(i + 1)
	}
	rank := func(f Field) int {
		id := twoDigits(f.ID)
		if pos[id] != 0 {
			return int(pos[id])
		}
		return len(layout) + 1 + id
	}
	slices.SortFunc(fs, func(a, b Field) int { return rank(a) - rank(b) })
}

func appendTLV(b []byte, id, v string) []byte {
	b = append(b, id...)
	b = append(b, '0'+byte(len(v)/10), '0'+byte(len(v)%10))
	return append(b, v...)
}

// appendAmount writes cents in reais with a dot and exactly two decimals, without floats.
func appendAmount(b []byte, cents int64) []byte {
	b = appendUint(b, uint64(cents/100))
	c := cents % 100
	return append(b, '.', '0'+byte(c/10), '0'+byte(c%10))
}

func appendUint(b []byte, v uint64) []byte {
	var d [20]byte
	i := len(d)
	for {
		i--
		d[i] = '0' + byte(v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, d[i:]...)
}

// parseAmount reads the forms of field 54 the manual allows: digits, optionally a dot and one
// or two decimals ("10", "10.5", "10.50"), at most 13 characters. It counts in integer cents.
func parseAmount(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 13 {
		return 0, false
	}
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || !isDigits(whole) || (hasDot && (frac == "" || len(frac) > 2 || !isDigits(frac))) {
		return 0, false
	}
	var cents int64
	for i := 0; i < len(whole); i++ {
		cents = cents*10 + int64(whole[i]-'0')
	}
	cents *= 100
	switch len(frac) {
	case 1:
		cents += int64(frac[0]-'0') * 10
	case 2:
		cents += int64(frac[0]-'0')*10 + int64(frac[1]-'0')
	}
	return cents, true
}

func or(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func join(parent, id string) string {
	if parent == "" {
		return id
	}
	return parent + "." + id
}

func appendID(b []byte, id uint8) []byte {
	return append(b, '0'+id/10, '0'+id%10)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// twoDigits reads an ID or a length already checked to be two digits.
func twoDigits(s string) int {
	return int(s[0]-'0')*10 + int(s[1]-'0')
}

func ascending(ids []uint8) bool {
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			return false
		}
	}
	return true
}

// nonPrintable returns the index of the first byte of s outside printable ASCII, or -1.
func nonPrintable(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7E {
			return i
		}
	}
	return -1
}
