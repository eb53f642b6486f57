// Package brand is the store's own face: the name shoppers see, the payee's legal name and
// CNPJ/CPF, the store's address, its support contact, its brand colour and accent, a note under
// the payment and the thank-you text of the paid page — one Profile, set by the merchant in the
// dashboard and read by every shopper page, e-mail and poster.
//
// The configuration's CHECKOUT_MERCHANT_NAME, _LEGAL_NAME, _DOCUMENT and CHECKOUT_SUPPORT_*
// are the initial values of a new install (Manager.Seed stores them at the first start); from
// then on the stored profile is the source. A Manager keeps the profile it read until a save
// (its own, or another instance's told by the change feed: Forget) says it changed.
package brand

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/png" // the logo's pictures, read to make a missing app icon
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// The names of the profile's fields: the dashboard form's inputs, the keys of its
// *checkout.ValidationError and the names in the audit log.
const (
	FieldName         = "name"
	FieldLegalName    = "legal_name"
	FieldDocument     = "document"
	FieldAddress      = "address"
	FieldSupportEmail = "support_email"
	FieldSupportPhone = "support_phone"
	FieldSupportURL   = "support_url"
	FieldBrandColor   = "brand_color"
	FieldAccentColor  = "accent_color"
	FieldNote         = "note"
	FieldThanks       = "thanks"
	FieldLogo         = "logo"
)

// Fields lists the form's fields in the order of the page.
var Fields = []string{FieldName, FieldLegalName, FieldDocument, FieldAddress, FieldSupportEmail, FieldSupportPhone,
	FieldSupportURL, FieldBrandColor, FieldAccentColor, FieldNote, FieldThanks}

// Lengths the fields may have, in characters.
const (
	MaxName      = 80 // the name: a header and a title
	MaxLegalName = 150
	MaxAddress   = 300
	MaxURL       = 500
	MaxNote      = 1000 // the note under the payment: terms, returns
	MaxThanks    = 300
)

// Profile is the store's face as stored. Empty fields are left out of the pages.
type Profile struct {
	Name         string // shown to shoppers: header, titles, e-mails, posters (required)
	LegalName    string // razão social of the payee; the name when empty
	Document     string // CNPJ or CPF of the payee, as typed (validated by brdoc)
	Address      string // the store's address (Decreto 7.962/2013), one or more lines
	SupportEmail string
	SupportPhone string
	SupportURL   string // https
	BrandColor   string // "#rrggbb" lower-case, or "" for the pages' own colours
	AccentColor  string // "#rrggbb", or "" for the brand colour's
	Note         string // plain text under the payment; its https links become links
	Thanks       string // the paid page's thank-you text; "" its default
	LogoKey      string // the logo's pictures (LogoImage); "" none
	// LogoWidth and LogoHeight are the size of the logo's header picture (imaging.LogoHeader),
	// in pixels, read with the profile (never saved with it); 0 without a logo.
	LogoWidth, LogoHeight int
	// Version grows by one at each save; 0 before the first. The stylesheet's URL follows it.
	Version   int
	UpdatedAt time.Time
}

// Value returns the profile's field by its name (Fields), as the form shows it.
func (p Profile) Value(field string) string {
	switch field {
	case FieldName:
		return p.Name
	case FieldLegalName:
		return p.LegalName
	case FieldDocument:
		return p.Document
	case FieldAddress:
		return p.Address
	case FieldSupportEmail:
		return p.SupportEmail
	case FieldSupportPhone:
		return p.SupportPhone
	case FieldSupportURL:
		return p.SupportURL
	case FieldBrandColor:
		return p.BrandColor
	case FieldAccentColor:
		return p.AccentColor
	case FieldNote:
		return p.Note
	case FieldThanks:
		return p.Thanks
	case FieldLogo:
		return p.LogoKey
	}
	return ""
}

// set changes the profile's field by its name.
func (p *Profile) set(field, v string) {
	ptr := map[string]*string{FieldName: &p.Name, FieldLegalName: &p.LegalName, FieldDocument: &p.Document,
		FieldAddress: &p.Address, FieldSupportEmail: &p.SupportEmail, FieldSupportPhone: &p.SupportPhone,
		FieldSupportURL: &p.SupportURL, FieldBrandColor: &p.BrandColor, FieldAccentColor: &p.AccentColor,
		FieldNote: &p.Note, FieldThanks: &p.Thanks}[field]
	if ptr != nil {
		*ptr = v
	}
}

// FromForm returns a profile of the values typed in a form, by field name (get is
// url.Values.Get), trimmed; colours lower-cased. The logo and version are not the form's.
func FromForm(get func(string) string) Profile {
	var p Profile
	for _, f := range Fields {
		v := strings.TrimSpace(strings.ReplaceAll(get(f), "\r\n", "\n"))
		if f == FieldBrandColor || f == FieldAccentColor {
			v = strings.ToLower(v)
		}
		p.set(f, v)
	}
	return p
}

// PayeeName is the payee as the shopper's bank shows it: the legal name, else the name.
func (p Profile) PayeeName() string {
	if p.LegalName != "" {
		return p.LegalName
	}
	return p.Name
}

// Seller is the transaction's seller the gateway receives: the payee's name (PayeeName) and
// document. It is nil when the profile has no document (the spec requires both), or when the
// gateway would refuse the seller — a profile of the configuration, which Check never saw:
// a missing seller costs the shopper nothing, a refused one every order.
func (p Profile) Seller() *gatewayclient.Seller {
	if s := p.seller(); s != nil && sellerProblem(s) == "" {
		return s
	}
	return nil
}

// seller is the payee as the gateway's seller, valid or not; nil without a document.
func (p Profile) seller() *gatewayclient.Seller {
	if p.Document == "" {
		return nil
	}
	return &gatewayclient.Seller{Name: p.PayeeName(), Document: p.Document}
}

// sellerProblem returns the first violation of s by the gateway's own rules (gatewayclient's
// validation of the spec), as "field: message", or "".
func sellerProblem(s *gatewayclient.Seller) string {
	req := gatewayclient.CreateTransactionRequest{Seller: s}
	var ve *gatewayclient.ValidationError
	if errors.As(req.Validate(), &ve) {
		for _, v := range ve.Violations {
			if strings.HasPrefix(v.Field, "seller.") {
				return v.String()
			}
		}
	}
	return ""
}

// Changes lists the fields whose values differ between p and q, by name, in Fields' order
// (the logo last): what the audit log records of a save.
func (p Profile) Changes(q Profile) []string {
	var out []string
	for _, f := range append(Fields[:len(Fields):len(Fields)], FieldLogo) {
		if p.Value(f) != q.Value(f) {
			out = append(out, f)
		}
	}
	return out
}

// hexColor is a colour as the form's colour input gives it: # and six hex digits.
var hexColor = regexp.MustCompile(`^#[0-9a-f]{6}$`)

// Check returns the problems of p as a *checkout.ValidationError naming each field, or nil.
// The document is a valid CNPJ or CPF (brdoc), the e-mail an address, the phone a Brazilian
// number with its area code, the URL https, the colours #rrggbb.
func (p Profile) Check() error {
	var e checkout.ValidationError
	tooLong := func(field, v string, n int) bool {
		if utf8.RuneCountInString(v) > n {
			e.Add(field, checkout.CodeMax, fmt.Sprintf("must have at most %d characters", n))
			return true
		}
		return false
	}
	if p.Name == "" {
		e.Add(FieldName, checkout.CodeRequired, "is required")
	} else {
		tooLong(FieldName, p.Name, MaxName)
	}
	tooLong(FieldLegalName, p.LegalName, MaxLegalName)
	if p.Document != "" && !brdoc.ValidDocument(p.Document) {
		e.Add(FieldDocument, checkout.CodeDocument, "must be a valid CNPJ or CPF")
	}
	tooLong(FieldAddress, p.Address, MaxAddress)
	if !e.Has(FieldLegalName) && !e.Has(FieldDocument) {
		p.checkSeller(&e)
	}
	p.checkContact(&e, tooLong)
	for _, c := range []struct{ field, v string }{{FieldBrandColor, p.BrandColor}, {FieldAccentColor, p.AccentColor}} {
		if c.v != "" && !hexColor.MatchString(c.v) {
			e.Add(c.field, checkout.CodeFormat, "must be a colour as #rrggbb")
		}
	}
	tooLong(FieldNote, p.Note, MaxNote)
	tooLong(FieldThanks, p.Thanks, MaxThanks)
	e.Kind = gatewayclient.KindValidation
	return e.Err()
}

// checkSeller adds a problem of the seller sent to the gateway to e: its name must pass the
// gateway's own rule, or the seller would be left out of every transaction. The problem is the
// legal name's, which the merchant fills when the store's name does not pass.
func (p Profile) checkSeller(e *checkout.ValidationError) {
	if s := p.seller(); s != nil && sellerProblem(s) != "" {
		e.Add(FieldLegalName, checkout.CodeFormat,
			"must have only letters, digits, spaces and . , ' - & / ( ) (the gateway's rule for the seller's name)")
	}
}

// checkContact adds the problems of the support contact to e.
func (p Profile) checkContact(e *checkout.ValidationError, tooLong func(field, v string, n int) bool) {
	if p.SupportEmail != "" && !brdoc.ValidEmail(p.SupportEmail) {
		e.Add(FieldSupportEmail, checkout.CodeFormat, "must be an e-mail address")
	}
	if p.SupportPhone != "" && brdoc.NormalizePhone(p.SupportPhone) == "" {
		e.Add(FieldSupportPhone, checkout.CodeFormat, "must be a Brazilian phone number with area code")
	}
	if p.SupportURL != "" && !tooLong(FieldSupportURL, p.SupportURL, MaxURL) {
		if u, err := url.Parse(p.SupportURL); err != nil || u.Scheme != "https" || u.Host == "" {
			e.Add(FieldSupportURL, checkout.CodeFormat, "must be an https:// URL")
		}
	}
}

// Store keeps the one profile and the logo's pictures.
type Store interface {
	// StoreProfile returns the stored profile, or checkout.ErrNotFound before the first save.
	StoreProfile(ctx context.Context) (Profile, error)
	// SaveStoreProfile stores p as version p.Version, which must follow the stored one by
	// one (the first save is version 1): otherwise checkout.ErrConflict, and nothing changes.
	// LogoWidth and LogoHeight are not saved: StoreProfile reads them from the logo's pictures.
	SaveStoreProfile(ctx context.Context, p Profile) error
	// SaveStoreLogo stores the pictures of l, once per key.
	SaveStoreLogo(ctx context.Context, l *imaging.Logo) error
	// SaveStoreLogoImage stores one picture of a logo by key and size, once (a picture of that
	// key and size stored already is kept).
	SaveStoreLogoImage(ctx context.Context, key, size string, v imaging.Variant) error
	// StoreLogoImage returns one picture of a logo by key and size (imaging.LogoSizes), or
	// checkout.ErrNotFound.
	StoreLogoImage(ctx context.Context, key, size string) (*checkout.ImageVariant, error)
}

// Manager reads and changes the profile. It keeps what it read until a save makes it stale:
// its own (at once), or another instance's, which the change feed tells with Forget. It is
// safe for concurrent use.
type Manager struct {
	store   Store
	initial Profile
	now     func() time.Time

	mu   sync.Mutex
	kept *Profile // nil: read again
}

// NewManager returns a Manager on store. initial is the profile of the configuration, shown
// until the first save (Seed stores it) and when the store cannot be read at all.
func NewManager(store Store, initial Profile, clock func() time.Time) *Manager {
	if clock == nil {
		clock = time.Now
	}
	return &Manager{store: store, initial: initial, now: clock}
}

// Initial returns the configuration's profile the manager was made with.
func (m *Manager) Initial() Profile { return m.initial }

// Seed stores the configuration's profile when none is stored: the environment's values are a
// new install's, and never replace what a merchant saved.
func (m *Manager) Seed(ctx context.Context) error {
	_, err := m.store.StoreProfile(ctx)
	if !errors.Is(err, checkout.ErrNotFound) {
		if err != nil {
			return fmt.Errorf("brand: reading the store's profile: %w", err)
		}
		return nil
	}
	p := m.initial
	p.Version, p.UpdatedAt = 1, m.now()
	if err := m.store.SaveStoreProfile(ctx, p); err != nil && !errors.Is(err, checkout.ErrConflict) {
		return fmt.Errorf("brand: storing the initial profile: %w", err)
	}
	m.Forget()
	return nil
}

// Get returns the profile in force: the stored one, else the configuration's. When the store
// cannot be read it returns what it kept (else the configuration's) with the error: a page
// shows the store's face as last known rather than fail.
func (m *Manager) Get(ctx context.Context) (Profile, error) {
	m.mu.Lock()
	if m.kept != nil {
		p := *m.kept
		m.mu.Unlock()
		return p, nil
	}
	m.mu.Unlock()
	p, err := m.store.StoreProfile(ctx)
	switch {
	case errors.Is(err, checkout.ErrNotFound):
		p = m.initial
	case err != nil:
		return m.initial, fmt.Errorf("brand: reading the store's profile: %w", err)
	}
	m.mu.Lock()
	m.kept = &p
	m.mu.Unlock()
	return p, nil
}

// Forget drops the kept profile: the next Get reads it again. The change feed calls it when
// another instance saved.
func (m *Manager) Forget() {
	m.mu.Lock()
	m.kept = nil
	m.mu.Unlock()
}

// Save checks p's fields (Check) and stores them over the profile in force, keeping its logo;
// it returns the profile before and after. Two saves racing: the later one gets
// checkout.ErrConflict rather than undo the first unseen.
func (m *Manager) Save(ctx context.Context, p Profile) (before, after Profile, err error) {
	if err := p.Check(); err != nil {
		return Profile{}, Profile{}, err
	}
	return m.change(ctx, func(q *Profile) {
		logo := q.LogoKey
		*q = p
		q.LogoKey = logo
	})
}

// SetLogo makes key the logo's pictures ("" removes the logo).
func (m *Manager) SetLogo(ctx context.Context, key string) (before, after Profile, err error) {
	return m.change(ctx, func(q *Profile) { q.LogoKey = key })
}

// UseLogo stores the pictures of l (checkout.Catalogue.ProcessLogo made them of an upload) and
// makes them the store's logo. A former logo's pictures stay served: e-mails already sent
// show them.
func (m *Manager) UseLogo(ctx context.Context, l *imaging.Logo) (before, after Profile, err error) {
	if err := m.store.SaveStoreLogo(ctx, l); err != nil {
		return Profile{}, Profile{}, fmt.Errorf("brand: storing the logo: %w", err)
	}
	return m.SetLogo(ctx, l.Key)
}

// LogoImage returns one picture of a logo, current or former, by key and size (one of
// imaging.LogoSizes), or checkout.ErrNotFound. A logo stored before an app icon's size existed
// gets that icon at its first request (appIcon).
func (m *Manager) LogoImage(ctx context.Context, key, size string) (*checkout.ImageVariant, error) {
	if !slices.Contains(imaging.LogoSizes[:], size) || key == "" {
		return nil, checkout.ErrNotFound
	}
	v, err := m.store.StoreLogoImage(ctx, key, size)
	if _, icon := imaging.AppIconSizes[size]; icon && errors.Is(err, checkout.ErrNotFound) {
		return m.appIcon(ctx, key, size)
	}
	if err != nil && !errors.Is(err, checkout.ErrNotFound) {
		return nil, fmt.Errorf("brand: reading the logo: %w", err)
	}
	return v, err
}

// appIcon makes, stores and returns the app icon of size of a logo stored before that size
// existed, from the largest of its header's and e-mails' pictures (the upload itself is not
// kept); checkout.ErrNotFound when there is no such logo. Made at the first request rather than
// by a migration: Go decodes and scales, the stores' SQL cannot, and a logo nobody shows costs
// nothing. Two instances making it at once store the same bytes once.
func (m *Manager) appIcon(ctx context.Context, key, size string) (*checkout.ImageVariant, error) {
	var from []byte
	area := 0
	for _, s := range []string{imaging.LogoHeader, imaging.LogoMail} {
		v, err := m.store.StoreLogoImage(ctx, key, s)
		if errors.Is(err, checkout.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("brand: reading the logo: %w", err)
		}
		if c, _, err := image.DecodeConfig(bytes.NewReader(v.Data)); err == nil && c.Width*c.Height > area {
			from, area = v.Data, c.Width*c.Height
		}
	}
	if from == nil {
		return nil, checkout.ErrNotFound
	}
	icon, err := imaging.AppIcon(from, size)
	if err != nil {
		return nil, fmt.Errorf("brand: the logo's app icon %s: %w", size, err)
	}
	if err := m.store.SaveStoreLogoImage(ctx, key, size, icon); err != nil {
		return nil, fmt.Errorf("brand: storing the logo's app icon %s: %w", size, err)
	}
	return &checkout.ImageVariant{ContentType: icon.ContentType, Data: icon.Data}, nil
}

// change applies edit to the stored profile and stores it as the next version.
func (m *Manager) change(ctx context.Context, edit func(*Profile)) (before, after Profile, err error) {
	m.Forget()
	before, err = m.store.StoreProfile(ctx)
	switch {
	case errors.Is(err, checkout.ErrNotFound):
		before = m.initial
	case err != nil:
		return Profile{}, Profile{}, fmt.Errorf("brand: reading the store's profile: %w", err)
	}
	after = before
	edit(&after)
	after.Version, after.UpdatedAt = before.Version+1, m.now()
	if err := m.store.SaveStoreProfile(ctx, after); err != nil {
		return Profile{}, Profile{}, fmt.Errorf("brand: saving the store's profile: %w", err)
	}
	m.Forget()
	return before, after, nil
}
