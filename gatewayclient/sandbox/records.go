package sandbox

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brcode"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Acquirer and institution data of the sandbox itself. The ISPB 99999999 belongs to no real
// institution, so sandbox end-to-end ids can never be mistaken for real ones.
const (
	acquirerName  = "PIX_SANDBOX"
	sandboxISPB   = "99999999"
	receiptHost   = "https://receipts.sandbox.invalid"
	receiptTTL    = 30 * 24 * time.Hour
	expiredReason = "QR code expired"
)

// Fee rule of the sandbox: 0.99% of the amount paid, rounded half up to whole cents.
const feeBasisPoints = 99

// fee returns the fee of a payment of paid cents.
func fee(paid gatewayclient.Cents) gatewayclient.Cents {
	return (paid*feeBasisPoints + 5000) / 10000
}

// payerBanks are real ISPBs of large Brazilian banks, used for generated payers.
var payerBanks = [...]string{"00000000", "00360305", "60746948", "60701190", "90400888", "18236120", "00416968", "30306294"}

// firstNames and lastNames make realistic generated names.
var (
	firstNames = [...]string{"Ana", "Bruno", "Carla", "Diego", "Eduarda", "Felipe", "Gabriela", "Henrique", "Isabela", "João",
		"Larissa", "Marcos", "Natália", "Otávio", "Paula", "Rafael", "Sofia", "Thiago", "Vitória", "Lucas"}
	lastNames = [...]string{"Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
		"Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa"}
	companyWords = [...]string{"Comércio", "Serviços", "Digital", "Soluções", "Distribuidora", "Tecnologia", "Alimentos", "Moda"}
)

// merchant is the receiver of every deposit and the payer of every withdrawal.
type merchant struct {
	name, city string
	key        string // EVP PIX key used in the BR Codes
	cnpj       string
}

// holder returns the merchant as an AccountHolder.
func (m merchant) holder() *gatewayclient.AccountHolder {
	return &gatewayclient.AccountHolder{
		Type:        gatewayclient.HolderPJ,
		Name:        m.name,
		Document:    m.cnpj,
		BankAccount: gatewayclient.BankAccount{Type: "PAYMENT", Digit: "0", ISPB: sandboxISPB},
		Pix:         gatewayclient.PixKey{Key: m.key, Type: gatewayclient.PixKeyEVP},
	}
}

// loadMerchant reads the merchant's PIX key and CNPJ, making them at the first start.
func (s *Sandbox) loadMerchant(ctx context.Context, name, city string) error {
	if name == "" {
		name = "PIX CHECKOUT SANDBOX"
	}
	if city == "" {
		city = "SAO PAULO"
	}
	// Folded to ASCII and cut to the BR Code limits: "São Paulo" would otherwise make every
	// BR Code fail to encode.
	s.merchant = merchant{name: brcode.Sanitize(name, brcode.MaxNameLength), city: brcode.Sanitize(city, brcode.MaxCityLength)}
	for _, f := range []struct {
		key  string
		dst  *string
		make func() string
	}{
		{"merchant_pix_key", &s.merchant.key, func() string { return newUUID() }},
		{"merchant_cnpj", &s.merchant.cnpj, func() string { return brdoc.GenerateCNPJ(newRand(), false) }},
	} {
		v, ok, err := getSetting(ctx, s.w, f.key)
		if err != nil {
			return err
		}
		if !ok {
			v = f.make()
			if err := putSetting(ctx, s.w, f.key, v); err != nil {
				return err
			}
		}
		*f.dst = v
	}
	return nil
}

// newRand returns a generator seeded from the operating system, for records made by the API.
// (Seeded records use a deterministic generator instead.)
func newRand() *rand.Rand {
	var b [32]byte
	_, _ = crand.Read(b[:]) // never fails on supported platforms
	return rand.New(rand.NewChaCha8(b))
}

// newUUID returns a random UUID version 4.
func newUUID() string {
	var b [16]byte
	_, _ = crand.Read(b[:])
	return formatUUID(b)
}

// uuidFrom returns a UUID version 4 drawn from r (deterministic for a seeded r).
func uuidFrom(r *rand.Rand) string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], r.Uint64())
	binary.LittleEndian.PutUint64(b[8:], r.Uint64())
	return formatUUID(b)
}

func formatUUID(b [16]byte) string {
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	const hex = "0123456789abcdef"
	out := make([]byte, 36)
	j := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hex[c>>4], hex[c&0x0f]
		j += 2
	}
	return string(out)
}

// endToEndID returns a BCB end-to-end id: prefix ("E" for a payment, "D" for a refund), the
// 8-digit ISPB of the institution that started it, yyyyMMddHHmm in UTC and 11 alphanumerics:
// 32 characters.
func endToEndID(r *rand.Rand, prefix, ispb string, t time.Time) string {
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b strings.Builder
	b.Grow(32)
	b.WriteString(prefix)
	b.WriteString(ispb)
	b.WriteString(t.UTC().Format("200601021504"))
	for range 11 {
		b.WriteByte(alnum[r.IntN(len(alnum))])
	}
	return b.String()
}

// personName returns a realistic full name.
func personName(r *rand.Rand) string {
	return firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))] + " " + lastNames[r.IntN(len(lastNames))]
}

// randomHolder returns a realistic payer or receiver: mostly people (PF, CPF), some companies
// (PJ, CNPJ), each with a bank and a PIX key.
func randomHolder(r *rand.Rand) *gatewayclient.AccountHolder {
	h := &gatewayclient.AccountHolder{
		BankAccount: gatewayclient.BankAccount{
			Type:  [...]string{"CHECKING", "SAVINGS", "PAYMENT"}[r.IntN(3)],
			Digit: fmt.Sprint(r.IntN(10)),
			ISPB:  payerBanks[r.IntN(len(payerBanks))],
		},
	}
	if r.IntN(5) == 0 {
		h.Type = gatewayclient.HolderPJ
		h.Name = lastNames[r.IntN(len(lastNames))] + " " + companyWords[r.IntN(len(companyWords))] + " Ltda"
		h.Document = brdoc.GenerateCNPJ(r, r.IntN(10) == 0)
	} else {
		h.Type = gatewayclient.HolderPF
		h.Name = personName(r)
		h.Document = brdoc.GenerateCPF(r)
	}
	h.Pix = randomPixKey(r, h)
	return h
}

// randomPixKey returns a PIX key for h: its document, an e-mail, a phone or a random key.
func randomPixKey(r *rand.Rand, h *gatewayclient.AccountHolder) gatewayclient.PixKey {
	switch r.IntN(4) {
	case 0:
		t := gatewayclient.PixKeyCPF
		if h.Type == gatewayclient.HolderPJ {
			t = gatewayclient.PixKeyCNPJ
		}
		return gatewayclient.PixKey{Key: h.Document, Type: t}
	case 1:
		user := strings.ToLower(strings.Fields(h.Name)[0])
		user = strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "ã", "a", "ç", "c", "ô", "o").Replace(user)
		return gatewayclient.PixKey{Key: fmt.Sprintf("%s%d@example.com", user, r.IntN(1000)), Type: gatewayclient.PixKeyEmail}
	case 2:
		ddd := [...]string{"11", "21", "31", "41", "51", "61", "71", "81", "85", "92"}[r.IntN(10)]
		return gatewayclient.PixKey{Key: fmt.Sprintf("+55%s9%08d", ddd, r.IntN(100000000)), Type: gatewayclient.PixKeyPhone}
	default:
		return gatewayclient.PixKey{Key: uuidFrom(r), Type: gatewayclient.PixKeyEVP}
	}
}

// receipt returns a receipt link for an end-to-end id. The host is reserved (.invalid): the
// sandbox makes no receipt documents.
func receipt(kind, e2e string, at time.Time) *gatewayclient.PaymentReceipt {
	return &gatewayclient.PaymentReceipt{URL: receiptHost + "/" + kind + "/" + e2e, ExpirationDate: at.Add(receiptTTL)}
}

// msTime truncates t to the wire precision (milliseconds, UTC).
func msTime(t time.Time) time.Time { return t.UTC().Truncate(time.Millisecond) }

// withDurations fills durationInMilliseconds: each state lasts until the next entry; the
// current (last) one until now.
func withDurations(h []gatewayclient.StatusHistory, now time.Time) []gatewayclient.StatusHistory {
	out := make([]gatewayclient.StatusHistory, len(h))
	copy(out, h)
	for i := range out {
		end := now
		if i+1 < len(out) {
			end = out[i+1].Date
		}
		d := end.Sub(out[i].Date).Milliseconds()
		if d < 0 {
			d = 0
		}
		out[i].DurationInMilliseconds = d
	}
	return out
}

// maskHolder returns a copy of h with its document masked.
func maskHolder(h *gatewayclient.AccountHolder) *gatewayclient.AccountHolder {
	if h == nil {
		return nil
	}
	c := *h
	c.Document = brdoc.MaskDocument(c.Document)
	if c.Pix.Type == gatewayclient.PixKeyCPF || c.Pix.Type == gatewayclient.PixKeyCNPJ {
		c.Pix.Key = brdoc.MaskDocument(c.Pix.Key)
	}
	return &c
}
