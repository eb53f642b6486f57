package gatewayclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// ErrValidation matches (with errors.Is) every validation failure: a *ValidationError found by
// the client before sending, and an *APIError for a 422 answer of the gateway.
var ErrValidation = errors.New("gatewayclient: validation failed")

// UnprocessableKind tells the two kinds of 422 apart.
type UnprocessableKind string

// The two kinds of 422 (see the package doc): the data could not be read as the API's types
// (malformed JSON, wrong type, missing required field, unknown enum value), or it was read but
// a rule failed.
const (
	KindInvalidData UnprocessableKind = "Invalid or missing data"
	KindValidation  UnprocessableKind = "Validations"
)

// Machine-readable codes of a Violation. A form maps them to its own wording; the Message of a
// Violation is an English fallback.
const (
	// CodeJSON: the body is not well-formed JSON (KindInvalidData, empty Field).
	CodeJSON = "json"
	// CodeRequired: a required field is missing or blank.
	CodeRequired = "required"
	// CodeType: the value has the wrong JSON type (a string where an object is expected...).
	CodeType = "type"
	// CodeInteger: a number (amount, quantity, seconds) is not an integer: 1.5, 1e3, "abc".
	CodeInteger = "integer"
	// CodeMin: a number is below its minimum (negative amounts included).
	CodeMin = "min"
	// CodeMax: a number is above its maximum.
	CodeMax = "max"
	// CodeMinLength: a text is shorter than its minimum number of characters.
	CodeMinLength = "min_length"
	// CodeMaxLength: a text is longer than its maximum number of characters.
	CodeMaxLength = "max_length"
	// CodeEnum: a value is not one of the allowed values (paymentMethod, status...).
	CodeEnum = "enum"
	// CodeFormat: a text does not have the required format (CEP, phone, e-mail, IP, name,
	// digits-only number, ISO date or time, valid UTF-8).
	CodeFormat = "format"
	// CodeDocument: a CPF or CNPJ is malformed or its check digits are wrong.
	CodeDocument = "document"
	// CodeURL: webhookUrl is not an absolute URL with a public host name and TLD, or it has a
	// fragment or user information.
	CodeURL = "url"
	// CodeHTTPS: webhookUrl does not use the https scheme.
	CodeHTTPS = "https_required"
	// CodeDuplicate: a value repeats an earlier one of the same list (status[1]), or a query
	// parameter that takes one value was given several.
	CodeDuplicate = "duplicate"
	// CodeRange: the bounds of a range are reversed (minAmount > maxAmount, startDate > endDate).
	CodeRange = "range"
	// CodeUUID: a value is not a UUID version 4.
	CodeUUID = "uuid"
	// CodePixKey: a value is not a PIX key of one of the five kinds (CPF, CNPJ, e-mail, phone, EVP).
	CodePixKey = "pix_key"
	// CodeFuture: a date that must be in the past (birthdate) is in the future.
	CodeFuture = "future"
)

// Limits of the spec, in the units of their fields.
const (
	MinAmount                 Cents = 1        // transaction amount, item unitPrice, deposit filter amounts
	MaxAmount                 Cents = 10000000 // every amount and amount filter
	MinWithdrawalFilterAmount Cents = 10       // withdrawal filter minAmount and maxAmount
	MinQuantity                     = 1        // item quantity
	MaxQuantity                     = 100      // item quantity
	MinExpirationSeconds            = 60       // pix.expirationSeconds
	MaxExpirationSeconds            = 86400    // pix.expirationSeconds
)

// Violation is one failed rule: the field's path in the request (customer.document,
// items[2].unitPrice, status[1]), a machine-readable code and a human-readable message.
type Violation struct {
	Field   string // path of the field (customer.document, items[2].unitPrice); "" for the whole body
	Code    string // one of the Code constants
	Message string // English text for people; forms may map Code to their own wording
}

// String formats v as the gateway's error messages do: "field: message".
func (v Violation) String() string {
	if v.Field == "" {
		return v.Message
	}
	return v.Field + ": " + v.Message
}

// ParseViolation reads a message written by Violation.String back into a Violation (Code is
// left empty: it does not travel over the wire).
func ParseViolation(s string) Violation {
	field, msg, ok := strings.Cut(s, ": ")
	if !ok || field == "" || strings.ContainsAny(field, " \t") {
		return Violation{Message: s}
	}
	return Violation{Field: field, Message: msg}
}

// ValidationError reports every violation found in a request at once.
type ValidationError struct {
	Kind       UnprocessableKind // KindValidation, or KindInvalidData from the decoders
	Violations []Violation       // every violation found, in the order of the fields
}

// Error lists the violations.
func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return "gatewayclient: invalid request: " + strings.Join(parts, "; ")
}

// Is makes errors.Is(err, ErrValidation) true.
func (e *ValidationError) Is(target error) bool { return target == ErrValidation }

// For returns the violations of one field path (customer.document), so that a form can show
// them beside that field.
func (e *ValidationError) For(field string) []Violation {
	var out []Violation
	for _, v := range e.Violations {
		if v.Field == field {
			out = append(out, v)
		}
	}
	return out
}

// Add appends a violation of field.
func (e *ValidationError) Add(field, code, msg string) {
	e.Violations = append(e.Violations, Violation{Field: field, Code: code, Message: msg})
}

// Has reports whether field has a violation.
func (e *ValidationError) Has(field string) bool { return e.first(field) != nil }

// Code returns the code of the first violation of field, or "".
func (e *ValidationError) Code(field string) string {
	if v := e.first(field); v != nil {
		return v.Code
	}
	return ""
}

// Message returns the message of the first violation of field, or "": the one a form shows
// beside the field.
func (e *ValidationError) Message(field string) string {
	if v := e.first(field); v != nil {
		return v.Message
	}
	return ""
}

// first is the first violation of field, or nil.
func (e *ValidationError) first(field string) *Violation {
	if e != nil {
		for i := range e.Violations {
			if e.Violations[i].Field == field {
				return &e.Violations[i]
			}
		}
	}
	return nil
}

// OrNil returns e, or nil when it holds no violation.
func (e *ValidationError) OrNil() *ValidationError {
	if e == nil || len(e.Violations) == 0 {
		return nil
	}
	return e
}

// Err returns e as an error, or nil (not a nil *ValidationError) when it holds no violation.
func (e *ValidationError) Err() error {
	if e.OrNil() == nil {
		return nil
	}
	return e
}

// checker collects violations; each check adds at most one violation per field, the first
// rule that fails, so that a form shows one message per field.
type checker struct {
	ValidationError
}

func (c *checker) add(field, code, format string, args ...any) {
	c.Add(field, code, fmt.Sprintf(format, args...))
}

// err returns the collected violations as a *ValidationError of the given kind, or nil.
func (c *checker) err(kind UnprocessableKind) error {
	c.Kind = kind
	return c.Err()
}

// required adds a CodeRequired violation when s is empty or only white space, and reports
// whether s is present.
func (c *checker) required(field, s string) bool {
	if strings.TrimSpace(s) == "" {
		c.add(field, CodeRequired, "is required")
		return false
	}
	return true
}

// length checks that s has min..max characters. Characters are Unicode code points (runes),
// not bytes, so "São Paulo" has 9; a text that is not valid UTF-8 has no length and is a
// CodeFormat violation.
func (c *checker) length(field, s string, minLen, maxLen int) bool {
	if !utf8.ValidString(s) {
		c.add(field, CodeFormat, "must be valid UTF-8 text")
		return false
	}
	// Control characters (NUL above all) have no place in single-line text, and some
	// databases refuse NUL outright: reject them here rather than fail later.
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		c.add(field, CodeFormat, "must not contain control characters")
		return false
	}
	n := utf8.RuneCountInString(s)
	switch {
	case n < minLen:
		c.add(field, CodeMinLength, "must have at least %d characters", minLen)
		return false
	case n > maxLen:
		c.add(field, CodeMaxLength, "must have at most %d characters", maxLen)
		return false
	}
	return true
}

// requiredLength checks a required text with a length rule.
func (c *checker) requiredLength(field, s string, minLen, maxLen int) {
	if c.required(field, s) {
		c.length(field, s, minLen, maxLen)
	}
}

// optionalLength checks a text with a length rule when it is not empty.
func (c *checker) optionalLength(field, s string, minLen, maxLen int) {
	if s != "" {
		c.length(field, s, minLen, maxLen)
	}
}

// between checks min <= v <= max for an integer field.
func (c *checker) between(field string, v, lo, hi int64) bool {
	switch {
	case v < lo:
		c.add(field, CodeMin, "must be at least %d", lo)
		return false
	case v > hi:
		c.add(field, CodeMax, "must be at most %d", hi)
		return false
	}
	return true
}

// document checks a required CPF or CNPJ (masked or not; numeric or alphanumeric CNPJ).
func (c *checker) document(field, s string) {
	if c.required(field, s) && !brdoc.ValidDocument(s) {
		c.add(field, CodeDocument, "must be a valid CPF or CNPJ")
	}
}

// name checks a required "international alphanumeric text".
func (c *checker) name(field, s string) {
	if c.required(field, s) && !validName(s) {
		c.add(field, CodeFormat, "must contain only letters, digits, spaces and . , ' - & / ( )")
	}
}

// validName reports whether s is "international alphanumeric text": letters of any script
// (with combining marks, for decomposed accents), digits, spaces and the punctuation found in
// person and company names; at least one letter or digit. Control characters and markup
// characters such as <>{} are rejected.
func validName(s string) bool {
	alnum := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			alnum = true
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r):
		case r == ' ' || strings.ContainsRune(".,'’-&/()", r):
		default:
			return false // includes utf8.RuneError from invalid UTF-8
		}
	}
	return alnum
}

// Validate checks every rule of the spec and reports every violation at once as a
// *ValidationError of Kind KindValidation (nil when the request is valid). Birthdates are
// compared with the current time; see ValidateAt.
func (r *CreateTransactionRequest) Validate() error {
	return r.ValidateAt(time.Now())
}

// ValidateAt is Validate with the current time given, for birthdate's "not in the future"
// rule. A birthdate is in the future when it is after today's date in every time zone
// (UTC+14), so that a baby born today anywhere is accepted.
func (r *CreateTransactionRequest) ValidateAt(now time.Time) error {
	c := &checker{}
	if r == nil {
		c.add("", CodeRequired, "the request is missing")
		return c.err(KindValidation)
	}
	c.between("amount", int64(r.Amount), int64(MinAmount), int64(MaxAmount))
	checkPaymentMethod(c, r.PaymentMethod)
	if r.WebhookURL != "" {
		if code, msg := checkWebhookURL(r.WebhookURL); code != "" {
			c.add("webhookUrl", code, "%s", msg)
		}
	}
	c.optionalLength("externalCode", r.ExternalCode, 8, 255)
	c.requiredLength("idempotencyKey", r.IdempotencyKey, 8, 255)
	if r.Customer != nil {
		r.Customer.check(c, now)
	}
	if r.Seller != nil {
		c.name("seller.name", r.Seller.Name)
		c.document("seller.document", r.Seller.Document)
	}
	if r.Address != nil {
		r.Address.check(c)
	} else if !r.InfoProduct() {
		c.add("address", CodeRequired, "is required when isInfoProduct is false")
	}
	for i, it := range r.Items {
		if !it.valid() { // builds the field paths only for an item that needs them
			it.check(c, fmt.Sprintf("items[%d]", i))
		}
	}
	if r.Metadata != nil {
		if _, err := json.Marshal(r.Metadata); err != nil {
			c.add("metadata", CodeType, "must be a JSON object")
		}
	}
	r.checkPix(c)
	return c.err(KindValidation)
}

// checkPaymentMethod adds the violations of the payment method.
func checkPaymentMethod(c *checker, m PaymentMethod) {
	switch m {
	case PaymentMethodPIX:
	case "":
		c.add("paymentMethod", CodeRequired, "is required")
	default:
		c.add("paymentMethod", CodeEnum, "must be one of: PIX")
	}
}

// checkPix adds the violations of the pix options, required with the PIX method.
func (r *CreateTransactionRequest) checkPix(c *checker) {
	switch {
	case r.Pix == nil && r.PaymentMethod == PaymentMethodPIX:
		c.add("pix", CodeRequired, "is required when paymentMethod is PIX")
	case r.Pix != nil && r.Pix.ExpirationSeconds != nil:
		c.between("pix.expirationSeconds", int64(*r.Pix.ExpirationSeconds), MinExpirationSeconds, MaxExpirationSeconds)
	}
}

// Validate checks a customer on its own, as a transaction's would be checked at now (a charge
// keeps its customer before any transaction): every violation, by the transaction's paths
// (customer.name, customer.document...).
func (cu *Customer) Validate(now time.Time) error {
	var c checker
	cu.check(&c, now)
	return c.err(KindValidation)
}

// check adds the violations of a customer.
func (cu *Customer) check(c *checker, now time.Time) {
	if cu.IP != "" {
		if a, err := netip.ParseAddr(cu.IP); err != nil || a.Zone() != "" {
			c.add("customer.ip", CodeFormat, "must be an IPv4 or IPv6 address")
		}
	}
	c.name("customer.name", cu.Name)
	c.document("customer.document", cu.Document)
	if cu.Email != "" && !brdoc.ValidEmail(cu.Email) {
		c.add("customer.email", CodeFormat, "must be a valid e-mail address")
	}
	if cu.Landline != "" && !brdoc.ValidLandline(cu.Landline) {
		c.add("customer.landline", CodeFormat, "must be a Brazilian landline number with area code")
	}
	if cu.MobilePhone != "" && !brdoc.ValidMobile(cu.MobilePhone) {
		c.add("customer.mobilePhone", CodeFormat, "must be a Brazilian mobile number with area code")
	}
	if !cu.Birthdate.IsZero() {
		checkBirthdate(c, cu.Birthdate, now)
	}
}

// checkBirthdate adds the violations of a customer's birthdate: a real date, not after today
// in the earliest time zone.
func checkBirthdate(c *checker, d Date, now time.Time) {
	t := time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
	latest := now.UTC().Add(14 * time.Hour) // the date in UTC+14, the earliest time zone
	today := time.Date(latest.Year(), latest.Month(), latest.Day(), 0, 0, 0, 0, time.UTC)
	switch {
	case d.Year < 1 || d.Year > 9999 || t.Year() != d.Year || t.Month() != d.Month || t.Day() != d.Day:
		c.add("customer.birthdate", CodeFormat, "must be a valid date (YYYY-MM-DD)")
	case t.After(today):
		c.add("customer.birthdate", CodeFuture, "must not be in the future")
	}
}

// check adds the violations of an address.
func (a *Address) check(c *checker) {
	if c.required("address.zipCode", a.ZipCode) && !brdoc.ValidCEP(a.ZipCode) {
		c.add("address.zipCode", CodeFormat, "must be a valid CEP (00000-000)")
	}
	c.optionalLength("address.complement", a.Complement, 2, 150)
	if c.required("address.number", a.Number) && c.length("address.number", a.Number, 1, 10) && !allDigits(a.Number) {
		c.add("address.number", CodeFormat, "must contain digits only")
	}
	c.requiredLength("address.street", a.Street, 2, 200)
	c.requiredLength("address.neighborhood", a.Neighborhood, 2, 100)
	c.requiredLength("address.city", a.City, 2, 100)
	c.requiredLength("address.state", a.State, 2, 50)
	c.requiredLength("address.country", a.Country, 2, 60)
}

// allDigits reports whether s is made of ASCII digits only.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// valid reports whether check would find nothing, without building any field path.
func (it *Item) valid() bool {
	return strings.TrimSpace(it.Title) != "" && textLength(it.Title, 2, 150) &&
		(it.Description == "" || textLength(it.Description, 2, 255)) &&
		it.UnitPrice >= MinAmount && it.UnitPrice <= MaxAmount &&
		(it.Quantity == nil || *it.Quantity >= MinQuantity && *it.Quantity <= MaxQuantity)
}

// textLength reports whether s is valid UTF-8 of minLen..maxLen characters without a control
// character, the rule of checker.length.
func textLength(s string, minLen, maxLen int) bool {
	if !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return false
	}
	n := utf8.RuneCountInString(s)
	return n >= minLen && n <= maxLen
}

// check adds the violations of an item whose path is prefix (items[2]).
func (it *Item) check(c *checker, prefix string) {
	c.requiredLength(prefix+".title", it.Title, 2, 150)
	c.optionalLength(prefix+".description", it.Description, 2, 255)
	c.between(prefix+".unitPrice", int64(it.UnitPrice), int64(MinAmount), int64(MaxAmount))
	if it.Quantity != nil {
		c.between(prefix+".quantity", int64(*it.Quantity), MinQuantity, MaxQuantity)
	}
}

// checkWebhookURL returns the code and message of the first rule s breaks, or "" when s is an
// absolute https URL with a host name that has an alphabetic TLD, without user information or
// fragment. IP literals and single-label hosts such as localhost are refused: the gateway
// must reach the URL over the public internet.
func checkWebhookURL(s string) (code, msg string) {
	u, err := url.Parse(s)
	if err != nil || !utf8.ValidString(s) {
		return CodeURL, "must be a valid URL"
	}
	if u.Scheme == "" || u.Opaque != "" {
		return CodeURL, "must be an absolute URL (https://host/path)"
	}
	if !strings.EqualFold(u.Scheme, "https") {
		return CodeHTTPS, "must use https"
	}
	if u.User != nil {
		return CodeURL, "must not contain user information"
	}
	// url.Parse drops an empty fragment ("https://x.com/#"): look for the character itself,
	// which cannot appear unescaped anywhere else in a URL.
	if strings.Contains(s, "#") {
		return CodeURL, "must not contain a fragment (#)"
	}
	host := u.Hostname()
	if host == "" {
		return CodeURL, "must have a host"
	}
	if _, err := netip.ParseAddr(host); err == nil || strings.HasPrefix(u.Host, "[") {
		return CodeURL, "must have a host name, not an IP address"
	}
	if !validPort(u.Port()) {
		return CodeURL, "must have a valid port"
	}
	if !validHostName(host) {
		return CodeURL, "must have a host name with a top-level domain (example.com)"
	}
	return "", ""
}

// validHostName reports whether host is a DNS name of two labels or more whose labels are
// letters, digits and inner hyphens (1..63 each) and whose last label, the TLD, is alphabetic
// with 2 letters or more (or an IDN TLD in its xn-- form).
func validHostName(host string) bool {
	if len(host) > 253 {
		return false
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if !validLabel(l) {
			return false
		}
	}
	return validTLD(labels[len(labels)-1])
}

// validPort reports whether a URL's port is absent or 1..65535.
func validPort(p string) bool {
	if p == "" {
		return true
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

// validLabel reports whether a host name's label has 1..63 letters, digits and inner hyphens.
func validLabel(l string) bool {
	if l == "" || utf8.RuneCountInString(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for _, r := range l {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' {
			return false
		}
	}
	return true
}

// validTLD reports whether a top-level domain is alphabetic with 2 letters or more, or an IDN
// TLD in its xn-- form.
func validTLD(tld string) bool {
	if strings.HasPrefix(strings.ToLower(tld), "xn--") {
		return len(tld) > 4
	}
	if utf8.RuneCountInString(tld) < 2 {
		return false
	}
	for _, r := range tld {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// WithDefaults returns a copy of r with the spec's defaults made explicit: Quantity 1 on items
// that have none and pix.expirationSeconds 1800 when pix is present without it. IsInfoProduct
// is left as is (InfoProduct gives its effective value). The Items slice and the Pix value
// are copied, so changing the result never changes r.
func (r CreateTransactionRequest) WithDefaults() CreateTransactionRequest {
	if r.Items != nil {
		items := make([]Item, len(r.Items))
		copy(items, r.Items)
		for i := range items {
			if items[i].Quantity == nil {
				items[i].Quantity = Ptr(DefaultQuantity)
			}
		}
		r.Items = items
	}
	if r.Pix != nil {
		p := *r.Pix
		if p.ExpirationSeconds == nil {
			p.ExpirationSeconds = Ptr(DefaultExpirationSeconds)
		}
		r.Pix = &p
	}
	return r
}

// Validate checks the filter of GET /deposit: amounts 1..10000000 when set (0 is "not set",
// negative is a violation) with minAmount <= maxAmount, startDate <= endDate, known statuses
// and origins without duplicates, page and perPage not negative. It reports every violation
// at once as a *ValidationError of Kind KindValidation, nil when the filter is valid.
func (f DepositFilter) Validate() error {
	c := &checker{}
	c.amountRange(f.MinAmount, f.MaxAmount, MinAmount)
	c.dateRange(f.StartDate, f.EndDate)
	checkList(c, "status", f.Status, DepositStatus.Valid)
	checkList(c, "depositOrigin", f.DepositOrigin, DepositOrigin.Valid)
	c.paging(f.Page, f.PerPage)
	return c.err(KindValidation)
}

// Validate checks the filter of GET /withdrawal: amounts 10..10000000 when set with
// minAmount <= maxAmount, startDate <= endDate, known statuses without duplicates, id a UUID
// v4, pixKey a key of one of the five kinds, endToEnd, endToEndRefund and externalCode 8..255
// characters when set, page and perPage not negative. It reports every violation at once as a
// *ValidationError of Kind KindValidation, nil when the filter is valid.
func (f WithdrawalFilter) Validate() error {
	c := &checker{}
	c.amountRange(f.MinAmount, f.MaxAmount, MinWithdrawalFilterAmount)
	c.dateRange(f.StartDate, f.EndDate)
	checkList(c, "status", f.Status, WithdrawalStatus.Valid)
	if f.ID != "" && !brdoc.ValidUUIDv4(f.ID) {
		c.add("id", CodeUUID, "must be a UUID v4")
	}
	if f.PixKey != "" && !brdoc.ValidPixKey(f.PixKey) {
		c.add("pixKey", CodePixKey, "must be a PIX key: CPF, CNPJ, e-mail, phone or random key (EVP)")
	}
	c.optionalLength("endToEnd", f.EndToEnd, 8, 255)
	c.optionalLength("endToEndRefund", f.EndToEndRefund, 8, 255)
	c.optionalLength("externalCode", f.ExternalCode, 8, 255)
	c.paging(f.Page, f.PerPage)
	return c.err(KindValidation)
}

// amountRange checks minAmount and maxAmount of a filter (0: not set).
func (c *checker) amountRange(lo, hi, minAllowed Cents) {
	okLo := lo == 0 || c.between("minAmount", int64(lo), int64(minAllowed), int64(MaxAmount))
	okHi := hi == 0 || c.between("maxAmount", int64(hi), int64(minAllowed), int64(MaxAmount))
	if okLo && okHi && lo != 0 && hi != 0 && lo > hi {
		c.add("maxAmount", CodeRange, "must be greater than or equal to minAmount")
	}
}

// dateRange checks that the dates set can be written as ISO 8601 (years 1 to 9999 in UTC)
// and that startDate <= endDate when both are set.
func (c *checker) dateRange(start, end time.Time) {
	okStart := c.isoTime("startDate", start)
	okEnd := c.isoTime("endDate", end)
	if okStart && okEnd && !start.IsZero() && !end.IsZero() && start.After(end) {
		c.add("endDate", CodeRange, "must not be before startDate")
	}
}

// isoTime checks that t, when set, has a four-digit year in UTC.
func (c *checker) isoTime(field string, t time.Time) bool {
	if t.IsZero() {
		return true
	}
	if y := t.UTC().Year(); y < 1 || y > 9999 {
		c.add(field, CodeFormat, "must be between years 0001 and 9999")
		return false
	}
	return true
}

// paging checks the pagination parameters (0: not set).
func (c *checker) paging(page, perPage int) {
	if page < 0 {
		c.add("page", CodeMin, "must not be negative")
	}
	if perPage < 0 {
		c.add("perPage", CodeMin, "must not be negative")
	}
}

// checkList checks that every value of a repeated filter parameter is valid and that none
// repeats an earlier one; the violation names the value's index (status[1]).
func checkList[T ~string](c *checker, field string, vals []T, valid func(T) bool) {
	for i, v := range vals {
		switch {
		case !valid(v):
			c.add(fmt.Sprintf("%s[%d]", field, i), CodeEnum, "%q is not a known value", string(v))
		case indexOf(vals[:i], v) >= 0:
			c.add(fmt.Sprintf("%s[%d]", field, i), CodeDuplicate, "%q is repeated", string(v))
		}
	}
}

// indexOf returns the index of v in vals, or -1.
func indexOf[T comparable](vals []T, v T) int {
	for i, x := range vals {
		if x == v {
			return i
		}
	}
	return -1
}
