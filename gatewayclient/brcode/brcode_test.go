package brcode

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Published examples. Their CRCs were checked against CRC16 (see TestCRC16).
const (
	// The static example of the BCB's Manual de Padrões para Iniciação do Pix.
	bcbStatic = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D"
	// The dynamic example of the same manual.
	bcbDynamic = "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***630464E4"
	// The manual's dynamic example followed by a recurrence template (80).
	bcbComposite = "00020101021226700014br.gov.bcb.pix2548pix.example.com/8b3da2f39a4140d1a91abd93113bd4415204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***80740014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac1200026304FB42"
	// The example of the BCB's BR Code manual, as published: its txid has a "-".
	brCodeManual = "00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38"
	// Static with key and amount.
	staticAmount = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406123.455802BR5913FULANO DE TAL6008BRASILIA62070503***6304488D"
	// Static with key, description, amount and a txid.
	staticDescAmountTxID = "00020126670014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400000205Teste52040000530398654045.005802BR5913Fulano de Tal6008BRASILIA6207050312363040E95"
	// Static with key and description, no amount.
	staticDesc = "00020126730014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400000211Description5204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63043428"
	// Static with description, amount 12.50 and a txid.
	staticCafe = "00020126730014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400000211Cafe & bolo520400005303986540512.505802BR5913Joao da Silva6008BRASILIA62090505FAT426304F8A7"
	// A bank's dynamic code: upper-case GUI, a 25-character merchant name.
	bankDynamic = "00020101021226770014BR.GOV.BCB.PIX2555api.itau/pix/qr/v2/3ea1b5e2-55b8-4da6-b6e6-1c965f769f485204000053039865802BR5925IFOOD.COM AGENCIA DE REST6009SAO PAULO62070503***63047EAD"
	// A community example, as published: city of 19 characters, txid with "-".
	communityStatic = "00020126580014br.gov.bcb.pix0136bee05743-4291-4f3c-9259-595df1307ba1520400005303986540510.005802BR5914Alexandre Lima6019Presidente Prudente62180514Um-Id-Qualquer6304D475"
)

// withCRC completes body (which must end with "6304") with its CRC.
func withCRC(body string) string {
	return string(appendCRC([]byte(body), crc16(body)))
}

// recrc replaces the CRC of a complete code after an edit.
func recrc(s string) string { return withCRC(s[:len(s)-4]) }

func TestCRC16(t *testing.T) {
	tests := []struct {
		data string
		want uint16
	}{
		{"", 0xFFFF},
		{"123456789", 0x29B1}, // the CRC-16/CCITT-FALSE check value
		{"A", 0xB915},
	}
	for _, s := range []string{bcbStatic, bcbDynamic, bcbComposite, brCodeManual, staticAmount,
		staticDescAmountTxID, staticDesc, staticCafe, bankDynamic, communityStatic} {
		var want uint16
		for _, c := range s[len(s)-4:] {
			want = want<<4 | uint16(strings.IndexRune(hexDigits, c))
		}
		tests = append(tests, struct {
			data string
			want uint16
		}{s[:len(s)-4], want})
	}
	for _, tt := range tests {
		if got := CRC16([]byte(tt.data)); got != tt.want {
			t.Errorf("CRC16(%.30q…) = %04X, want %04X", tt.data, got, tt.want)
		}
		if got := crc16(tt.data); got != tt.want {
			t.Errorf("crc16(string %.30q…) = %04X, want %04X", tt.data, got, tt.want)
		}
	}
}

func TestRoundTripPublished(t *testing.T) {
	manualFixed := recrc(strings.Replace(brCodeManual, "62190515RP12345678-2019", "62180514RP123456782019", 1))
	for name, s := range map[string]string{
		"bcb static":              bcbStatic,
		"bcb dynamic":             bcbDynamic,
		"bcb composite":           bcbComposite,
		"br code manual, txid ok": manualFixed,
		"static amount":           staticAmount,
		"static desc amount txid": staticDescAmountTxID,
		"static desc":             staticDesc,
		"static cafe":             staticCafe,
		"bank dynamic":            bankDynamic,
	} {
		t.Run(name, func(t *testing.T) {
			p, err := Decode(s)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			got, err := p.Encode()
			if err != nil {
				t.Fatalf("Encode: %v", err)
			}
			if got != s {
				t.Fatalf("Encode(Decode(s)):\n got %s\nwant %s", got, s)
			}
		})
	}
}

func TestDecodeFields(t *testing.T) {
	p, err := Decode(bcbStatic)
	if err != nil {
		t.Fatal(err)
	}
	want := Payload{PayloadFormat: "01", GUI: "br.gov.bcb.pix", Key: "123e4567-e12b-12d1-a456-426655440000",
		MerchantCategoryCode: "0000", Currency: "986", CountryCode: "BR", MerchantName: "Fulano de Tal",
		MerchantCity: "BRASILIA", TxID: "***"}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Decode(bcbStatic) = %+v\nwant %+v", p, want)
	}
	if p.Dynamic() {
		t.Error("static code reported as dynamic")
	}

	p, err = Decode(bcbComposite)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Dynamic() || p.URL != "pix.example.com/8b3da2f39a4140d1a91abd93113bd441" || p.PointOfInitiation != InitiationDynamic {
		t.Errorf("dynamic fields: %+v", p)
	}
	wantExtra := []Field{{"80", "0014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac120002"}}
	if !reflect.DeepEqual(p.Extra, wantExtra) {
		t.Errorf("Extra = %v, want %v", p.Extra, wantExtra)
	}

	p, err = Decode(staticCafe)
	if err != nil {
		t.Fatal(err)
	}
	if p.Amount != 1250 || p.Description != "Cafe & bolo" || p.TxID != "FAT42" {
		t.Errorf("amount/description/txid = %d %q %q", p.Amount, p.Description, p.TxID)
	}

	p, err = Decode(bankDynamic)
	if err != nil {
		t.Fatal(err)
	}
	if p.GUI != "BR.GOV.BCB.PIX" || p.MerchantName != "IFOOD.COM AGENCIA DE REST" {
		t.Errorf("GUI/name = %q %q", p.GUI, p.MerchantName)
	}
}

// body joins raw data objects and completes them with field 63.
func body(raw ...string) string {
	return withCRC(strings.Join(raw, "") + "6304")
}

func tlv(id, v string) string { return string(appendTLV(nil, id, v)) }

// standard returns the fields of a valid static code, with the given ones replaced or added.
func standard(over map[string]string) string {
	ids := []string{"00", "26", "52", "53", "54", "58", "59", "60", "62"}
	vals := map[string]string{
		"00": "01", "26": tlv("00", "br.gov.bcb.pix") + tlv("01", "12345678909"), "52": "0000",
		"53": "986", "58": "BR", "59": "Fulano de Tal", "60": "BRASILIA", "62": tlv("05", "***"),
	}
	for k, v := range over {
		vals[k] = v
	}
	var fs []string
	for _, id := range ids {
		if v, ok := vals[id]; ok && v != "-" {
			fs = append(fs, tlv(id, v))
		}
	}
	return body(fs...)
}

func TestNonCanonicalRoundTrip(t *testing.T) {
	for name, s := range map[string]string{
		"amount without decimals": standard(map[string]string{"54": "10"}),
		"amount with one decimal": standard(map[string]string{"54": "10.5"}),
		"amount leading zero":     standard(map[string]string{"54": "010.50"}),
		"fields out of order": body("000201", tlv("26", tlv("00", "br.gov.bcb.pix")+tlv("01", "12345678909")),
			"5303986", "52040000", "5802BR", "6008BRASILIA", "5913Fulano de Tal", "62070503***"),
		"sub-fields out of order": standard(map[string]string{
			"26": tlv("01", "12345678909") + tlv("00", "BR.gov.bcb.PIX") + tlv("03", "12345678"),
			"62": tlv("50", "x") + tlv("05", "ABC123")}),
	} {
		t.Run(name, func(t *testing.T) {
			p, err := Decode(s)
			if err != nil {
				t.Fatalf("Decode(%s): %v", s, err)
			}
			got, err := p.Encode()
			if err != nil || got != s {
				t.Fatalf("Encode = %s, %v\nwant %s", got, err, s)
			}
		})
	}

	p, err := Decode(standard(map[string]string{"54": "10.5"}))
	if err != nil || p.Amount != 1050 {
		t.Fatalf("Decode amount 10.5 = %d, %v", p.Amount, err)
	}
	p.Amount = 2000 // a changed amount is written in the canonical form, not the stale text
	got, err := p.Encode()
	if err != nil || !strings.Contains(got, "540520.00") {
		t.Fatalf("Encode after changing the amount = %s, %v", got, err)
	}
}

func TestLowerCaseCRCAccepted(t *testing.T) {
	s := standard(nil)
	lower := s[:len(s)-4] + strings.ToLower(s[len(s)-4:])
	p, err := Decode(lower)
	if err != nil {
		t.Fatalf("Decode with lower-case CRC: %v", err)
	}
	if got, _ := p.Encode(); got != s {
		t.Errorf("Encode = %s, want %s", got, s)
	}
}

func TestDecodeRejects(t *testing.T) {
	key := tlv("00", "br.gov.bcb.pix") + tlv("01", "12345678909")
	tests := []struct {
		name  string
		code  string
		kind  error
		field string
	}{
		{"wrong CRC", bcbStatic[:len(bcbStatic)-4] + "1D3E", ErrCRC, "63"},
		{"CRC of another code", bcbStatic[:len(bcbStatic)-4] + "64E4", ErrCRC, "63"},
		{"CRC not hex", bcbStatic[:len(bcbStatic)-4] + "1D3G", ErrFormat, "63"},
		{"empty", "", ErrFormat, ""},
		{"truncated TLV", bcbStatic[:100], ErrFormat, "59"},
		{"truncated header", "000201265", ErrFormat, ""},
		{"bad length digits", recrc(strings.Replace(bcbStatic, "5913Fulano", "59X3Fulano", 1)), ErrFormat, "59"},
		{"bad ID digits", recrc(strings.Replace(bcbStatic, "5802BR", "5A02BR", 1)), ErrFormat, ""},
		{"length 00", body("000201", tlv("26", key), "5200", "5303986"), ErrFormat, "52"},
		{"bad sub-field length", standard(map[string]string{"26": "0014br.gov.bcb.pix01X1"}), ErrFormat, "26.01"},
		{"no CRC field", bcbStatic[:len(bcbStatic)-8], ErrFormat, "63"},
		{"CRC length 05", bcbStatic[:len(bcbStatic)-8] + "63051D3D0", ErrFormat, "63"},
		{"only the CRC", withCRC("6304"), ErrFormat, "00"},
		{"00 not first", body(tlv("26", key), "000201", "52040000", "5303986", "5802BR", "5901A", "6001B", "62070503***"), ErrFormat, "00"},
		{"duplicate field", body("000201", tlv("26", key), "52040000", "5303986", "5802BR", "5901A", "5901B", "6001B", "62070503***"), ErrFormat, "59"},
		{"duplicate sub-field", standard(map[string]string{"26": key + tlv("01", "x")}), ErrFormat, "26.01"},
		{"63 not last", body("000201", "6304ABCD", tlv("26", key)), ErrFormat, "63"},
		{"non-ASCII", recrc(strings.Replace(standard(nil), "BRASILIA", "BRASÍLIA", 1)), ErrFormat, ""},
		{"too long", body("000201", tlv("26", key), "52040000", "5303986", "5802BR", "5901A", "6001B", "62070503***",
			tlv("80", strings.Repeat("x", 99)), tlv("81", strings.Repeat("x", 99)), tlv("82", strings.Repeat("x", 99)),
			tlv("83", strings.Repeat("x", 99)), tlv("84", strings.Repeat("x", 99))), ErrFormat, ""},
		{"missing GUI", standard(map[string]string{"26": tlv("01", "12345678909")}), ErrInvalid, "26.00"},
		{"other GUI", standard(map[string]string{"26": tlv("00", "br.com.outro") + tlv("01", "12345678909")}), ErrInvalid, "26.00"},
		{"missing 26", standard(map[string]string{"26": "-"}), ErrInvalid, "26"},
		{"missing 52", standard(map[string]string{"52": "-"}), ErrInvalid, "52"},
		{"missing 58", standard(map[string]string{"58": "-"}), ErrInvalid, "58"},
		{"missing 59", standard(map[string]string{"59": "-"}), ErrInvalid, "59"},
		{"missing 62", standard(map[string]string{"62": "-"}), ErrInvalid, "62"},
		{"missing 62.05", standard(map[string]string{"62": tlv("01", "***")}), ErrInvalid, "62.05"},
		{"name of 26", standard(map[string]string{"59": strings.Repeat("A", 26)}), ErrInvalid, "59"},
		{"city of 16", standard(map[string]string{"60": strings.Repeat("B", 16)}), ErrInvalid, "60"},
		{"community example, city of 19", communityStatic, ErrInvalid, "60"},
		{"amount 1,00", standard(map[string]string{"54": "1,00"}), ErrInvalid, "54"},
		{"amount 10.", standard(map[string]string{"54": "10."}), ErrInvalid, "54"},
		{"amount .5", standard(map[string]string{"54": ".5"}), ErrInvalid, "54"},
		{"amount 1.234", standard(map[string]string{"54": "1.234"}), ErrInvalid, "54"},
		{"amount +1.00", standard(map[string]string{"54": "+1.00"}), ErrInvalid, "54"},
		{"amount -1.00", standard(map[string]string{"54": "-1.00"}), ErrInvalid, "54"},
		{"amount with space", standard(map[string]string{"54": " 1.00"}), ErrInvalid, "54"},
		{"amount 1e3", standard(map[string]string{"54": "1e3"}), ErrInvalid, "54"},
		{"amount 0.00", standard(map[string]string{"54": "0.00"}), ErrInvalid, "54"},
		{"amount of 14 characters", standard(map[string]string{"54": "99999999999.99"}), ErrInvalid, "54"},
		{"amount above the maximum", standard(map[string]string{"54": "9999999999999"}), ErrInvalid, "54"},
		{"txid with invalid chars (BR Code manual)", brCodeManual, ErrInvalid, "62.05"},
		{"txid with space", standard(map[string]string{"62": tlv("05", "AB CD")}), ErrInvalid, "62.05"},
		{"txid of 26", standard(map[string]string{"62": tlv("05", strings.Repeat("a", 26))}), ErrInvalid, "62.05"},
		{"txid **", standard(map[string]string{"62": tlv("05", "**")}), ErrInvalid, "62.05"},
		{"both key and URL", standard(map[string]string{"26": key + tlv("25", "pix.example.com/x")}), ErrInvalid, "26"},
		{"neither key nor URL", standard(map[string]string{"26": tlv("00", "br.gov.bcb.pix")}), ErrInvalid, "26"},
		{"URL with scheme", standard(map[string]string{"26": tlv("00", "br.gov.bcb.pix") + tlv("25", "https://pix.example.com/x")}), ErrInvalid, "26.25"},
		{"dynamic with a txid", standard(map[string]string{"26": tlv("00", "br.gov.bcb.pix") + tlv("25", "pix.example.com/x"), "62": tlv("05", "ABC")}), ErrInvalid, "62.05"},
		{"payload format 02", standard(map[string]string{"00": "02"}), ErrInvalid, "00"},
		{"currency 840", standard(map[string]string{"53": "840"}), ErrInvalid, "53"},
		{"country US", standard(map[string]string{"58": "US"}), ErrInvalid, "58"},
		{"MCC letters", standard(map[string]string{"52": "00A0"}), ErrInvalid, "52"},
		{"point of initiation 13", recrc(strings.Replace(bcbDynamic, "010212", "010213", 1)), ErrInvalid, "01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Decode(tt.code)
			if err == nil {
				t.Fatalf("Decode(%s) = %+v, want an error", tt.code, p)
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("error %q is not %v", err, tt.kind)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			if e.Field != tt.field {
				t.Errorf("error %q names field %q, want %q", err, e.Field, tt.field)
			}
			if !reflect.DeepEqual(p, Payload{}) {
				t.Errorf("Decode returned a partial payload with its error: %+v", p)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := Decode(standard(map[string]string{"59": strings.Repeat("A", 26)}))
	want := "brcode: field 59 (merchant name): 26 characters, at most 25"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func staticPayload() Payload {
	return Payload{Key: "123e4567-e12b-12d1-a456-426655440000", MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA"}
}

func TestEncodeDefaults(t *testing.T) {
	got, err := staticPayload().Encode()
	if err != nil || got != bcbStatic {
		t.Fatalf("Encode = %s, %v\nwant %s", got, err, bcbStatic)
	}
	dyn := Payload{PointOfInitiation: InitiationDynamic, URL: "pix.example.com/8b3da2f39a4140d1a91abd93113bd441",
		MerchantName: "Fulano de Tal", MerchantCity: "BRASILIA"}
	got, err = dyn.Encode()
	if err != nil || got != bcbDynamic {
		t.Fatalf("Encode = %s, %v\nwant %s", got, err, bcbDynamic)
	}
	withAmount := staticPayload()
	withAmount.MerchantName = "FULANO DE TAL"
	withAmount.Amount = 12345
	if got, err = withAmount.Encode(); err != nil || got != staticAmount {
		t.Fatalf("Encode = %s, %v\nwant %s", got, err, staticAmount)
	}
}

func TestEncodeRules(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(p *Payload)
		field   string // "" when valid
		contain string // a piece the valid code must contain
	}{
		{"name of 25", func(p *Payload) { p.MerchantName = strings.Repeat("N", 25) }, "", "5925NNNNN"},
		{"name of 26", func(p *Payload) { p.MerchantName = strings.Repeat("N", 26) }, "59", ""},
		{"empty name", func(p *Payload) { p.MerchantName = "" }, "59", ""},
		{"city of 15", func(p *Payload) { p.MerchantCity = strings.Repeat("C", 15) }, "", "6015CCC"},
		{"city of 16", func(p *Payload) { p.MerchantCity = strings.Repeat("C", 16) }, "60", ""},
		{"empty city", func(p *Payload) { p.MerchantCity = "" }, "60", ""},
		{"accented city", func(p *Payload) { p.MerchantCity = "São Paulo" }, "60", ""},
		{"amount 0 omitted", func(p *Payload) { p.Amount = 0 }, "", "53039865802BR"},
		{"amount 1 cent", func(p *Payload) { p.Amount = 1 }, "", "54040.01"},
		{"amount 10 cents", func(p *Payload) { p.Amount = 10 }, "", "54040.10"},
		{"amount 1050", func(p *Payload) { p.Amount = 1050 }, "", "540510.50"},
		{"amount 1000000", func(p *Payload) { p.Amount = 1000000 }, "", "540810000.00"},
		{"amount max", func(p *Payload) { p.Amount = MaxAmount }, "", "54139999999999.99"},
		{"amount above max", func(p *Payload) { p.Amount = MaxAmount + 1 }, "54", ""},
		{"negative amount", func(p *Payload) { p.Amount = -1 }, "54", ""},
		{"txid of 25", func(p *Payload) { p.TxID = strings.Repeat("T", 25) }, "", "62290525TTT"},
		{"txid of 26", func(p *Payload) { p.TxID = strings.Repeat("T", 26) }, "62.05", ""},
		{"txid with dash", func(p *Payload) { p.TxID = "ab-c" }, "62.05", ""},
		{"both key and URL", func(p *Payload) { p.URL = "pix.example.com/x" }, "26", ""},
		{"no key nor URL", func(p *Payload) { p.Key = "" }, "26", ""},
		{"key of 78", func(p *Payload) { p.Key = strings.Repeat("k", 78) }, "26.01", ""},
		{"URL of 77", func(p *Payload) { p.Key, p.URL = "", strings.Repeat("u", 77) }, "", "2577uuu"},
		{"URL of 78", func(p *Payload) { p.Key, p.URL = "", strings.Repeat("u", 78) }, "26.25", ""},
		{"URL with scheme", func(p *Payload) { p.Key, p.URL = "", "https://pix.example.com/x" }, "26.25", ""},
		{"dynamic with txid", func(p *Payload) { p.Key, p.URL, p.TxID = "", "pix.example.com/x", "ABC" }, "62.05", ""},
		{"upper-case GUI kept", func(p *Payload) { p.GUI = "BR.GOV.BCB.PIX" }, "", "0014BR.GOV.BCB.PIX"},
		{"other GUI", func(p *Payload) { p.GUI = "br.com.outro" }, "26.00", ""},
		{"template 26 of 99", func(p *Payload) { p.Key, p.Description = "k", strings.Repeat("d", 72) }, "", "2699"},
		{"template 26 of 100", func(p *Payload) { p.Key, p.Description = "k", strings.Repeat("d", 73) }, "26", ""},
		{"point of initiation 13", func(p *Payload) { p.PointOfInitiation = "13" }, "01", ""},
		{"MCC of 3", func(p *Payload) { p.MerchantCategoryCode = "123" }, "52", ""},
		{"extra modelled ID", func(p *Payload) { p.Extra = []Field{{"59", "x"}} }, "59", ""},
		{"extra bad ID", func(p *Payload) { p.Extra = []Field{{"8", "x"}} }, "", ""},
		{"extra empty value", func(p *Payload) { p.Extra = []Field{{"80", ""}} }, "80", ""},
		{"extra repeated", func(p *Payload) { p.Extra = []Field{{"80", "a"}, {"80", "b"}} }, "80", ""},
		{"extra sorted in", func(p *Payload) { p.Extra = []Field{{"80", "z"}, {"27", "y"}} }, "", "2701y52040000"},
		{"account extra", func(p *Payload) { p.AccountExtra = []Field{{"03", "12345678"}} }, "", "030812345678"},
		{"longer than 512", func(p *Payload) {
			for id := 80; id < 86; id++ {
				p.Extra = append(p.Extra, Field{string(appendID(nil, uint8(id))), strings.Repeat("x", 99)})
			}
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := staticPayload()
			tt.edit(&p)
			got, err := p.Encode()
			wantErr := tt.field != "" || tt.contain == ""
			if !wantErr {
				if err != nil {
					t.Fatalf("Encode: %v", err)
				}
				if !strings.Contains(got, tt.contain) {
					t.Errorf("Encode = %s, want it to contain %s", got, tt.contain)
				}
				if _, err := Decode(got); err != nil {
					t.Errorf("Decode(Encode) = %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Encode = %s, want an error", got)
			}
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v (%T) is not an *Error of ErrInvalid", err, err)
			}
			if e.Field != tt.field {
				t.Errorf("error %q names field %q, want %q", err, e.Field, tt.field)
			}
		})
	}
}

func TestParseTLV(t *testing.T) {
	fs, err := ParseTLV("000201" + "2607" + "0003abc" + "6304ABCD")
	want := []Field{{"00", "01"}, {"26", "0003abc"}, {"63", "ABCD"}}
	if err != nil || !reflect.DeepEqual(fs, want) {
		t.Errorf("ParseTLV = %v, %v; want %v", fs, err, want)
	}
	for _, s := range []string{"0", "000", "0002", "00020", "0A0201", "00A201", "0000"} {
		if _, err := ParseTLV(s); !errors.Is(err, ErrFormat) {
			t.Errorf("ParseTLV(%q) error = %v, want ErrFormat", s, err)
		}
	}
	if fs, err := ParseTLV(""); err != nil || len(fs) != 0 {
		t.Errorf("ParseTLV(\"\") = %v, %v", fs, err)
	}
}

func TestSanitize(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"São Paulo", 15, "Sao Paulo"},
		{"  Açaí  do\tJoão \n", 0, "Acai do Joao"},
		{"Rua Nº 5 – Ação ✓", 0, "Rua No 5 - Acao"},
		// Other scripts keep their sound.
		{"Кафе Москва", 25, "Kafe Moskva"},
		{"Щи и борщ", 0, "Shchi i borshch"},
		{"ЩИ И БОРЩ", 0, "SHCHI I BORSHCH"},
		{"Київ Ґанок, Љубљана", 0, "Kiyiv Ganok, Ljubljana"},
		{"Ταβέρνα Αθήνα", 0, "Taverna Athina"},
		{"Straße Łódź Ærø", 0, "Strasse Lodz AEro"},
		{"Phở Việt Nam", 0, "Pho Viet Nam"},
		{"Café d’Ana “Sabor”", 0, "Cafe d'Ana \"Sabor\""},
		{"Кафе Москва на Арбате и Щукинской", 25, "Kafe Moskva na Arbate i S"},
		// What has no romanisation letter by letter is dropped.
		{"北京饭店", 25, ""},
		{"Loja 北京 Centro 🙂", 0, "Loja Centro"},
		{"Presidente Prudente", 15, "Presidente Prud"},
		{"Loja Bonita Comercio de Roupas", 25, "Loja Bonita Comercio de R"},
		{"ab cd", 3, "ab"},
		{"ÀÉÎÕÜÇÑÝ àéîõüçñý", 0, "AEIOUCNY aeioucny"},
	}
	for _, tt := range tests {
		if got := Sanitize(tt.in, tt.max); got != tt.want {
			t.Errorf("Sanitize(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
