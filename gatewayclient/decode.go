package gatewayclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DecodeCreateTransactionRequest reads the JSON body of POST /transaction as the gateway does,
// for servers that receive it (the sandbox). It tells the two kinds of 422 apart:
//
//   - a *ValidationError of Kind KindInvalidData when the data cannot be read as the API's
//     types: the body is not a JSON object, a field has the wrong JSON type (amount "10" or
//     true: CodeType; amount 1.5 or 1e3: CodeInteger), a required field is missing or null
//     (CodeRequired), paymentMethod is not a known value (CodeEnum), or birthdate is not an
//     ISO date (CodeFormat). Every such violation is reported at once, and the request
//     returned is the zero value;
//   - otherwise the request is validated with Validate, and a failure is returned as its
//     *ValidationError of Kind KindValidation, together with the request as decoded.
//
// Field names are matched exactly (the spec says they are case-sensitive) and unknown fields
// are ignored. A key given twice in one object ({"amount":1990,"amount":1}) is a CodeDuplicate
// violation of Kind KindInvalidData for each repetition: which of the two the sender meant
// cannot be known, and parsers disagree on it. email, landline, mobilePhone and birthdate, declared as objects by the spec,
// are read as strings. An integer too large for its Go type is read as the largest value of
// that type, so that Validate reports it as above the maximum. An empty items array and an
// empty metadata object decode as absent. Defaults are not applied (see WithDefaults). The
// caller limits the size of body.
func DecodeCreateTransactionRequest(body []byte) (CreateTransactionRequest, error) {
	d := &jsonDecoder{}
	var r CreateTransactionRequest
	if !json.Valid(body) {
		d.add("", CodeJSON, "the body is not valid JSON")
		return r, d.err(KindInvalidData)
	}
	if jsonKind(body) != "object" {
		d.add("", CodeType, "the body must be a JSON object")
		return r, d.err(KindInvalidData)
	}
	if dups := duplicateKeys(body); len(dups) > 0 {
		for _, path := range dups {
			d.add(path, CodeDuplicate, "is given more than once")
		}
		return r, d.err(KindInvalidData)
	}
	top, ok := d.object("", body)
	if !ok {
		return r, d.err(KindInvalidData)
	}
	if v, ok := d.integer("amount", top, "amount", true, 64); ok {
		r.Amount = Cents(v)
	}
	switch pm := d.str("paymentMethod", top, "paymentMethod", true); pm {
	case "":
		// d.str reported a missing or non-string value; an empty string is missing too.
		if jsonKind(top["paymentMethod"]) == "string" {
			d.add("paymentMethod", CodeRequired, "is required")
		}
	case string(PaymentMethodPIX):
		r.PaymentMethod = PaymentMethodPIX
	default:
		d.add("paymentMethod", CodeEnum, "must be one of: PIX")
	}
	r.WebhookURL = d.str("webhookUrl", top, "webhookUrl", false)
	r.ExternalCode = d.str("externalCode", top, "externalCode", false)
	r.IdempotencyKey = d.str("idempotencyKey", top, "idempotencyKey", true)
	if m, ok := d.object("customer", top["customer"]); ok {
		r.Customer = d.customer(m)
	}
	if m, ok := d.object("seller", top["seller"]); ok {
		r.Seller = &Seller{
			Name:     d.str("seller.name", m, "name", true),
			Document: d.str("seller.document", m, "document", true),
		}
	}
	if raw, present := top["isInfoProduct"]; present {
		switch jsonKind(raw) {
		case "null":
		case "bool":
			r.IsInfoProduct = Ptr(bytes.Equal(raw, []byte("true")))
		default:
			d.add("isInfoProduct", CodeType, "must be a boolean")
		}
	}
	if m, ok := d.object("address", top["address"]); ok {
		r.Address = d.address(m)
	}
	r.Items = d.items(top["items"])
	r.Metadata = d.metadata(top["metadata"])
	if m, ok := d.object("pix", top["pix"]); ok {
		r.Pix = &PixRequest{}
		if v, ok := d.integer("pix.expirationSeconds", m, "expirationSeconds", false, strconv.IntSize); ok {
			r.Pix.ExpirationSeconds = Ptr(int(v))
		}
	}
	if err := d.err(KindInvalidData); err != nil {
		return CreateTransactionRequest{}, err
	}
	return r, r.Validate()
}

// duplicateKeys returns the path of every key that appears again in the same object of the
// valid JSON document body: "amount", "customer.name", "items[1].title".
func duplicateKeys(body []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var dups []string
	// walk reads one value at path. json.Valid has bounded the nesting (10000 levels).
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				p := key
				if path != "" {
					p = path + "." + key
				}
				if seen[key] {
					dups = append(dups, p)
				}
				seen[key] = true
				if err := walk(p); err != nil {
					return err
				}
			}
			_, err = dec.Token() // }
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
			_, err = dec.Token() // ]
			return err
		}
		return nil
	}
	_ = walk("") // body is valid JSON: no error can come
	return dups
}

// jsonDecoder walks a JSON document value by value, collecting KindInvalidData violations
// instead of stopping at the first.
type jsonDecoder struct {
	checker
}

// jsonKind names the type of a well-formed JSON value from its first byte.
func jsonKind(raw []byte) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "absent"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// object reads raw as a JSON object. Absent or null gives (nil, false) without a violation
// (optional objects); any other type is a CodeType violation.
func (d *jsonDecoder) object(field string, raw []byte) (map[string]json.RawMessage, bool) {
	switch jsonKind(raw) {
	case "absent", "null":
		return nil, false
	case "object":
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			d.add(field, CodeType, "must be an object")
			return nil, false
		}
		return m, true
	}
	d.add(field, CodeType, "must be an object")
	return nil, false
}

// str reads m[key] as a string. A missing or null value is "" and, when required, a
// CodeRequired violation.
func (d *jsonDecoder) str(field string, m map[string]json.RawMessage, key string, required bool) string {
	raw := m[key]
	switch jsonKind(raw) {
	case "absent", "null":
		if required {
			d.add(field, CodeRequired, "is required")
		}
		return ""
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return s
		}
	}
	d.add(field, CodeType, "must be a string")
	return ""
}

// integer reads m[key] as a JSON integer of bitSize bits: no fraction, no exponent. A value
// out of range is clamped (strconv does so), so that Validate reports it against its limits.
func (d *jsonDecoder) integer(field string, m map[string]json.RawMessage, key string, required bool, bitSize int) (int64, bool) {
	raw := m[key]
	switch jsonKind(raw) {
	case "absent", "null":
		if required {
			d.add(field, CodeRequired, "is required")
		}
		return 0, false
	case "number":
	default:
		d.add(field, CodeType, "must be a number")
		return 0, false
	}
	s := string(bytes.TrimSpace(raw))
	if strings.ContainsAny(s, ".eE") {
		d.add(field, CodeInteger, "must be an integer")
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, bitSize)
	if err != nil && !isRangeError(err) {
		d.add(field, CodeInteger, "must be an integer")
		return 0, false
	}
	return v, true
}

// isRangeError reports whether err is strconv's "value out of range".
func isRangeError(err error) bool {
	return errors.Is(err, strconv.ErrRange)
}

// customer reads the customer object.
func (d *jsonDecoder) customer(m map[string]json.RawMessage) *Customer {
	c := &Customer{
		IP:          d.str("customer.ip", m, "ip", false),
		Name:        d.str("customer.name", m, "name", true),
		Document:    d.str("customer.document", m, "document", true),
		Email:       d.str("customer.email", m, "email", false),
		Landline:    d.str("customer.landline", m, "landline", false),
		MobilePhone: d.str("customer.mobilePhone", m, "mobilePhone", false),
	}
	// An empty birthdate is read as absent, as for the other optional texts.
	if s := d.str("customer.birthdate", m, "birthdate", false); s != "" {
		bd, err := ParseDate(s)
		if err != nil {
			d.add("customer.birthdate", CodeFormat, "must be an ISO date (YYYY-MM-DD)")
		}
		c.Birthdate = bd
	}
	return c
}

// address reads the address object; every field but complement is required.
func (d *jsonDecoder) address(m map[string]json.RawMessage) *Address {
	return &Address{
		ZipCode:      d.str("address.zipCode", m, "zipCode", true),
		Complement:   d.str("address.complement", m, "complement", false),
		Number:       d.str("address.number", m, "number", true),
		Street:       d.str("address.street", m, "street", true),
		Neighborhood: d.str("address.neighborhood", m, "neighborhood", true),
		City:         d.str("address.city", m, "city", true),
		State:        d.str("address.state", m, "state", true),
		Country:      d.str("address.country", m, "country", true),
	}
}

// items reads the items array; an empty array is absent.
func (d *jsonDecoder) items(raw []byte) []Item {
	switch jsonKind(raw) {
	case "absent", "null":
		return nil
	case "array":
	default:
		d.add("items", CodeType, "must be an array")
		return nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		d.add("items", CodeType, "must be an array")
		return nil
	}
	var items []Item
	for i, e := range elems {
		p := fmt.Sprintf("items[%d]", i)
		m, ok := d.object(p, e)
		if !ok {
			if jsonKind(e) == "null" {
				d.add(p, CodeType, "must be an object")
			}
			continue
		}
		it := Item{
			Title:       d.str(p+".title", m, "title", true),
			Description: d.str(p+".description", m, "description", false),
		}
		if v, ok := d.integer(p+".unitPrice", m, "unitPrice", true, 64); ok {
			it.UnitPrice = Cents(v)
		}
		if v, ok := d.integer(p+".quantity", m, "quantity", false, strconv.IntSize); ok {
			it.Quantity = Ptr(int(v))
		}
		items = append(items, it)
	}
	return items
}

// metadata reads the free metadata object, keeping numbers as written (json.Number) so that
// no value is rounded; an empty object is absent.
func (d *jsonDecoder) metadata(raw []byte) map[string]any {
	switch jsonKind(raw) {
	case "absent", "null":
		return nil
	case "object":
	default:
		d.add("metadata", CodeType, "must be an object")
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		d.add("metadata", CodeType, "must be an object")
		return nil
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// Names of the pagination query parameters when the caller gives none.
const (
	defaultPageParam    = "page"
	defaultPerPageParam = "perPage"
)

// pagingNames applies the default names of the pagination parameters.
func pagingNames(page, perPage string) (string, string) {
	if page == "" {
		page = defaultPageParam
	}
	if perPage == "" {
		perPage = defaultPerPageParam
	}
	return page, perPage
}

// ParseQuery parses a raw URL query (the part after "?") strictly, for servers. Where
// url.ParseQuery drops each pair it cannot read — one holding ";" (status=PAID;x), or a bad
// %-escape — and goes on, which would silently widen a filter, ParseQuery refuses the whole
// query: a *ValidationError of Kind KindInvalidData with one CodeFormat violation per such
// parameter, named after it. Use it before ParseDepositFilter or ParseWithdrawalFilter
// (ParseDepositQuery and ParseWithdrawalQuery do both) rather than (*url.URL).Query.
func ParseQuery(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err == nil {
		return q, nil
	}
	c := &checker{}
	for pair := range strings.SplitSeq(raw, "&") {
		if _, perr := url.ParseQuery(pair); perr == nil {
			continue
		}
		name, _, _ := strings.Cut(pair, "=")
		if n, uerr := url.QueryUnescape(name); uerr == nil && n != "" {
			name = n
		}
		if strings.Contains(pair, ";") {
			c.add(name, CodeFormat, `could not be read: ";" is not allowed in a query (encode it as %%3B)`)
		} else {
			c.add(name, CodeFormat, "could not be read: malformed %%-escape")
		}
	}
	if len(c.vs) == 0 { // not expected: url.ParseQuery failed on the whole but on no pair
		c.add("query", CodeFormat, "could not be read: %s", err.Error())
	}
	return nil, c.err(KindInvalidData)
}

// ParseDepositQuery is ParseQuery then ParseDepositFilter: the whole reading of the raw query
// of GET /deposit for a server.
func ParseDepositQuery(raw, pageParam, perPageParam string) (DepositFilter, error) {
	q, err := ParseQuery(raw)
	if err != nil {
		return DepositFilter{}, err
	}
	return ParseDepositFilter(q, pageParam, perPageParam)
}

// ParseWithdrawalQuery is ParseQuery then ParseWithdrawalFilter.
func ParseWithdrawalQuery(raw, pageParam, perPageParam string) (WithdrawalFilter, error) {
	q, err := ParseQuery(raw)
	if err != nil {
		return WithdrawalFilter{}, err
	}
	return ParseWithdrawalFilter(q, pageParam, perPageParam)
}

// ParseDepositFilter reads the query of GET /deposit, for servers that receive it (the
// sandbox, the dashboard). q must come from ParseQuery (or use ParseDepositQuery):
// (*url.URL).Query drops the pairs it cannot read. pageParam and perPageParam name the pagination parameters ("page"
// and "perPage" when empty). Dates are RFC 3339 times with or without fractional seconds;
// amounts, page and perPage are integers; status and depositOrigin may be repeated, and each
// value may also hold several comma-separated values. Empty values are ignored, as a form
// sends its blank fields. Parameters that take one value may not be repeated.
//
// A value that cannot be read (a malformed date, a decimal amount, an unknown status) gives a
// *ValidationError of Kind KindInvalidData, with every such violation, and a zero filter;
// otherwise the filter is returned with the result of its Validate (pagination violations
// named after pageParam and perPageParam), plus a CodeMin violation for an amount sent as 0:
// the filter type reads 0 as "not set", but the spec's minimum applies to a value that was
// sent.
func ParseDepositFilter(q url.Values, pageParam, perPageParam string) (DepositFilter, error) {
	pageParam, perPageParam = pagingNames(pageParam, perPageParam)
	p := &queryParser{q: q}
	f := DepositFilter{
		StartDate:     p.time("startDate"),
		EndDate:       p.time("endDate"),
		Status:        parseList(p, "status", DepositStatus.Valid),
		MinAmount:     p.amount("minAmount"),
		MaxAmount:     p.amount("maxAmount"),
		DepositOrigin: parseList(p, "depositOrigin", DepositOrigin.Valid),
		Page:          p.pageNumber(pageParam),
		PerPage:       p.pageNumber(perPageParam),
	}
	if err := p.err(KindInvalidData); err != nil {
		return DepositFilter{}, err
	}
	return f, p.finish(f.Validate(), MinAmount, pageParam, perPageParam)
}

// ParseWithdrawalFilter reads the query of GET /withdrawal like ParseDepositFilter, with the
// text parameters id, pixKey, endToEnd, endToEndRefund and externalCode taken as given.
func ParseWithdrawalFilter(q url.Values, pageParam, perPageParam string) (WithdrawalFilter, error) {
	pageParam, perPageParam = pagingNames(pageParam, perPageParam)
	p := &queryParser{q: q}
	f := WithdrawalFilter{
		StartDate:      p.time("startDate"),
		EndDate:        p.time("endDate"),
		Status:         parseList(p, "status", WithdrawalStatus.Valid),
		ID:             p.single("id"),
		PixKey:         p.single("pixKey"),
		EndToEnd:       p.single("endToEnd"),
		EndToEndRefund: p.single("endToEndRefund"),
		ExternalCode:   p.single("externalCode"),
		MinAmount:      p.amount("minAmount"),
		MaxAmount:      p.amount("maxAmount"),
		Page:           p.pageNumber(pageParam),
		PerPage:        p.pageNumber(perPageParam),
	}
	if err := p.err(KindInvalidData); err != nil {
		return WithdrawalFilter{}, err
	}
	return f, p.finish(f.Validate(), MinWithdrawalFilterAmount, pageParam, perPageParam)
}

// finish completes the error of a filter's Validate: an amount given explicitly as 0 breaks
// the minimum (the filter types read 0 as "not set", so Validate cannot see it), and the
// pagination violations are named after the query parameters the caller uses.
func (p *queryParser) finish(err error, minAllowed Cents, pageParam, perPageParam string) error {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		if err != nil || len(p.zeros) == 0 {
			return err
		}
		ve = &ValidationError{Kind: KindValidation}
	}
	for _, name := range p.zeros {
		ve.Violations = append(ve.Violations, Violation{Field: name, Code: CodeMin,
			Message: fmt.Sprintf("must be at least %d", minAllowed)})
	}
	for i := range ve.Violations {
		switch ve.Violations[i].Field {
		case "page":
			ve.Violations[i].Field = pageParam
		case "perPage":
			ve.Violations[i].Field = perPageParam
		}
	}
	return ve
}

// queryParser reads query parameters, collecting KindInvalidData violations.
type queryParser struct {
	checker
	q     url.Values
	zeros []string // amount parameters given as 0
}

// single returns the one non-empty value of name ("" when there is none); several values are
// a CodeDuplicate violation.
func (p *queryParser) single(name string) string {
	var v string
	n := 0
	for _, s := range p.q[name] {
		if s != "" {
			v = s
			n++
		}
	}
	if n > 1 {
		p.add(name, CodeDuplicate, "must be given once")
		return ""
	}
	return v
}

// time reads an RFC 3339 time, as UTC.
func (p *queryParser) time(name string) time.Time {
	s := p.single(name)
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		p.add(name, CodeFormat, "must be an ISO 8601 date with time (2006-01-02T15:04:05.000Z)")
		return time.Time{}
	}
	return t.UTC()
}

// integer reads a decimal integer of bitSize bits; out of range values are clamped, so that
// Validate reports them against their limits.
func (p *queryParser) integer(name string, bitSize int) int64 {
	v, _ := p.integerGiven(name, bitSize)
	return v
}

// integerGiven is integer that also reports whether a valid integer was given.
func (p *queryParser) integerGiven(name string, bitSize int) (int64, bool) {
	s := p.single(name)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, bitSize)
	if err != nil && !isRangeError(err) {
		p.add(name, CodeInteger, "must be an integer")
		return 0, false
	}
	return v, true
}

// pageNumber reads page or perPage. A number too large for an int is refused, never clamped:
// a page number that wrapped or was lowered would answer another page.
func (p *queryParser) pageNumber(name string) int {
	s := p.single(name)
	if s == "" {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, strconv.IntSize)
	switch {
	case err == nil:
		return int(v)
	case isRangeError(err) && !strings.HasPrefix(s, "-"):
		p.add(name, CodeMax, "must be at most %d", math.MaxInt)
	case isRangeError(err):
		p.add(name, CodeMin, "must not be negative")
	default:
		p.add(name, CodeInteger, "must be an integer")
	}
	return 0
}

// amount reads an amount in cents, noting one given explicitly as 0.
func (p *queryParser) amount(name string) Cents {
	v, given := p.integerGiven(name, 64)
	if given && v == 0 {
		p.zeros = append(p.zeros, name)
	}
	return Cents(v)
}

// parseList reads a repeated parameter whose values may also be comma-separated; an unknown
// value is a CodeEnum violation named after its index in the whole list (status[2]).
func parseList[T ~string](p *queryParser, name string, valid func(T) bool) []T {
	var out []T
	i := 0
	for _, s := range p.q[name] {
		for part := range strings.SplitSeq(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if v := T(part); valid(v) {
				out = append(out, v)
			} else {
				p.add(fmt.Sprintf("%s[%d]", name, i), CodeEnum, "%q is not a known value", part)
			}
			i++
		}
	}
	return out
}

// Query writes the filter as the query of GET /deposit: zero values are left out, status and
// depositOrigin repeat their parameter, dates are written with FormatTime. pageParam and
// perPageParam name the pagination parameters ("page" and "perPage" when empty).
// ParseDepositFilter reads the result back into an equal filter (times to the millisecond).
func (f DepositFilter) Query(pageParam, perPageParam string) url.Values {
	pageParam, perPageParam = pagingNames(pageParam, perPageParam)
	v := url.Values{}
	setTime(v, "startDate", f.StartDate)
	setTime(v, "endDate", f.EndDate)
	for _, s := range f.Status {
		v.Add("status", string(s))
	}
	setInt(v, "minAmount", int64(f.MinAmount))
	setInt(v, "maxAmount", int64(f.MaxAmount))
	for _, o := range f.DepositOrigin {
		v.Add("depositOrigin", string(o))
	}
	setInt(v, pageParam, int64(f.Page))
	setInt(v, perPageParam, int64(f.PerPage))
	return v
}

// Query writes the filter as the query of GET /withdrawal, like DepositFilter.Query.
// ParseWithdrawalFilter reads the result back into an equal filter (times to the millisecond).
func (f WithdrawalFilter) Query(pageParam, perPageParam string) url.Values {
	pageParam, perPageParam = pagingNames(pageParam, perPageParam)
	v := url.Values{}
	setTime(v, "startDate", f.StartDate)
	setTime(v, "endDate", f.EndDate)
	for _, s := range f.Status {
		v.Add("status", string(s))
	}
	setString(v, "id", f.ID)
	setString(v, "pixKey", f.PixKey)
	setString(v, "endToEnd", f.EndToEnd)
	setString(v, "endToEndRefund", f.EndToEndRefund)
	setString(v, "externalCode", f.ExternalCode)
	setInt(v, "minAmount", int64(f.MinAmount))
	setInt(v, "maxAmount", int64(f.MaxAmount))
	setInt(v, pageParam, int64(f.Page))
	setInt(v, perPageParam, int64(f.PerPage))
	return v
}

func setTime(v url.Values, name string, t time.Time) {
	if !t.IsZero() {
		v.Set(name, FormatTime(t))
	}
}

func setInt(v url.Values, name string, n int64) {
	if n != 0 {
		v.Set(name, strconv.FormatInt(n, 10))
	}
}

func setString(v url.Values, name, s string) {
	if s != "" {
		v.Set(name, s)
	}
}
