package brcode

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecode checks that Decode never panics, that its errors are *Error of one of the three
// kinds, and that whatever it accepts Encode writes back to the same string (but for the case
// of the CRC) and decodes to the same Payload.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{bcbStatic, bcbDynamic, bcbComposite, brCodeManual, staticAmount,
		staticDescAmountTxID, staticDesc, staticCafe, bankDynamic, communityStatic,
		standard(map[string]string{"54": "10.5"}),
		standard(map[string]string{"26": tlv("01", "12345678909") + tlv("00", "BR.gov.bcb.PIX") + tlv("03", "12345678")}),
		body("000201", tlv("26", tlv("00", "br.gov.bcb.pix")+tlv("01", "k")), "5303986", "52040000", "5802BR", "6001B", "5901A", "62070503***"),
		"", "6304", "000201", bcbStatic[:50], strings.ToLower(bcbStatic),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkDecode(t, s)
		// Random mutations nearly always break the CRC; checking the mutated code with its
		// CRC recomputed lets them reach the field rules too.
		if len(s) >= 8 && s[len(s)-8:len(s)-4] == "6304" {
			checkDecode(t, recrc(s))
		}
	})
}

func checkDecode(t *testing.T, s string) {
	t.Helper()
	p, err := Decode(s)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || !(errors.Is(err, ErrFormat) || errors.Is(err, ErrCRC) || errors.Is(err, ErrInvalid)) {
			t.Fatalf("Decode error %v (%T) is not an *Error of a known kind", err, err)
		}
		return
	}
	out, err := p.Encode()
	if err != nil {
		t.Fatalf("Decode accepted %q but Encode fails: %v", s, err)
	}
	if len(out) != len(s) || out[:len(out)-4] != s[:len(s)-4] || !strings.EqualFold(out[len(out)-4:], s[len(s)-4:]) {
		t.Fatalf("Encode(Decode(s)) differs:\n got %q\nwant %q", out, s)
	}
	q, err := Decode(out)
	if err != nil {
		t.Fatalf("Decode(Encode(p)) = %v", err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Fatalf("Decode(Encode(p)) = %+v\nwant %+v", q, p)
	}
}

// FuzzEncodeDecode builds a valid Payload from arbitrary inputs, encodes it and checks that
// decoding gives it back field for field.
func FuzzEncodeDecode(f *testing.F) {
	f.Add("Fulano de Tal", "BRASILIA", "123e4567-e12b-12d1-a456-426655440000", "", int64(0), "***", false, uint8(0), "")
	f.Add("Loja São João", "São Paulo", "pix.example.com/qr/v2/abc", "", int64(1), "", true, uint8(2), "01310-100")
	f.Add("IFOOD.COM AGENCIA DE RESTAURANTES", "Presidente Prudente", "+5511999999999", "Pedido 42", int64(1000000), "PEDIDO42", false, uint8(1), "")
	f.Add("N", "C", "a@b.co", "x", MaxAmount, strings.Repeat("Z", 30), false, uint8(0), "70074900")
	f.Add("", "", "", "", int64(-5), "a-b c", true, uint8(7), "")
	f.Fuzz(func(t *testing.T, name, city, target, desc string, amount int64, txid string, dynamic bool, poi uint8, postal string) {
		p := Payload{
			PayloadFormat:        "01",
			PointOfInitiation:    [...]string{"", InitiationStatic, InitiationDynamic}[poi%3],
			GUI:                  PixGUI,
			Description:          Sanitize(desc, 30),
			MerchantCategoryCode: "0000",
			Currency:             "986",
			CountryCode:          "BR",
			MerchantName:         or(Sanitize(name, MaxNameLength), "N"),
			MerchantCity:         or(Sanitize(city, MaxCityLength), "C"),
			PostalCode:           Sanitize(postal, 20),
			TxID:                 NoTxID,
		}
		if amount < 0 {
			amount = -(amount + 1) // keeps MinInt64 in range
		}
		p.Amount = amount % (MaxAmount + 1)
		target = Sanitize(target, 40)
		if dynamic {
			// No spaces and no scheme: dropping every ':' rules out "://".
			p.URL = or(strings.NewReplacer(" ", "", ":", "").Replace(target), "pix.example.com")
		} else {
			p.Key = or(target, "k")
			if id := alnum(txid, MaxTxIDLength); id != "" {
				p.TxID = id
			}
		}
		s, err := p.Encode()
		if err != nil {
			t.Fatalf("Encode(%+v): %v", p, err)
		}
		q, err := Decode(s)
		if err != nil {
			t.Fatalf("Decode(%q): %v", s, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("Decode(Encode(p)) = %+v\nwant %+v", q, p)
		}
	})
}

// alnum keeps the letters and digits of s, at most max of them.
func alnum(s string, max int) string {
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < max; i++ {
		if c := s[i]; '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' {
			b.WriteByte(c)
		}
	}
	return b.String()
}
