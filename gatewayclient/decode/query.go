package decode

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Query parses a raw URL query (the part after "?") strictly. Where url.ParseQuery drops each
// pair it cannot read — one holding ";" (status=PAID;x), or a bad %-escape — and goes on,
// which would silently widen a filter, Query refuses the whole query: a *gc.ValidationError of
// Kind KindInvalidData with one CodeFormat violation per such parameter, named after it. Use
// it before DepositFilter or WithdrawalFilter (DepositQuery and WithdrawalQuery do both)
// rather than (*url.URL).Query.
func Query(raw string) (url.Values, error) {
	q, err := url.ParseQuery(raw)
	if err == nil {
		return q, nil
	}
	c := gc.ValidationError{Kind: gc.KindInvalidData}
	for pair := range strings.SplitSeq(raw, "&") {
		if _, perr := url.ParseQuery(pair); perr == nil {
			continue
		}
		name, _, _ := strings.Cut(pair, "=")
		if n, uerr := url.QueryUnescape(name); uerr == nil && n != "" {
			name = n
		}
		if strings.Contains(pair, ";") {
			c.Add(name, gc.CodeFormat, `could not be read: ";" is not allowed in a query (encode it as %3B)`)
		} else {
			c.Add(name, gc.CodeFormat, "could not be read: malformed %-escape")
		}
	}
	if len(c.Violations) == 0 { // not expected: url.ParseQuery failed on the whole but on no pair
		c.Add("query", gc.CodeFormat, "could not be read: "+err.Error())
	}
	return nil, c.Err()
}

// DepositQuery is Query then DepositFilter: the whole reading of the raw query of
// GET /deposit.
func DepositQuery(raw, pageParam, perPageParam string) (gc.DepositFilter, error) {
	q, err := Query(raw)
	if err != nil {
		return gc.DepositFilter{}, err
	}
	return DepositFilter(q, pageParam, perPageParam)
}

// WithdrawalQuery is Query then WithdrawalFilter.
func WithdrawalQuery(raw, pageParam, perPageParam string) (gc.WithdrawalFilter, error) {
	q, err := Query(raw)
	if err != nil {
		return gc.WithdrawalFilter{}, err
	}
	return WithdrawalFilter(q, pageParam, perPageParam)
}

// DepositFilter reads the query of GET /deposit. q must come from Query (or use
// DepositQuery): (*url.URL).Query drops the pairs it cannot read. pageParam and perPageParam
// name the pagination parameters ("page" and "perPage" when empty). Dates are RFC 3339 times
// with or without fractional seconds; amounts, page and perPage are integers; status and
// depositOrigin may be repeated, and each value may also hold several comma-separated values.
// Empty values are ignored, as a form sends its blank fields. Parameters that take one value
// may not be repeated.
//
// A value that cannot be read (a malformed date, a decimal amount, an unknown status) gives a
// *gc.ValidationError of Kind KindInvalidData, with every such violation, and a zero filter;
// otherwise the filter is returned with the result of its Validate (pagination violations
// named after pageParam and perPageParam), plus a CodeMin violation for an amount sent as 0:
// the filter type reads 0 as "not set", but the spec's minimum applies to a value that was
// sent.
func DepositFilter(q url.Values, pageParam, perPageParam string) (gc.DepositFilter, error) {
	pageParam, perPageParam = pagingNames(pageParam, perPageParam)
	p := &queryParser{q: q, vs: gc.ValidationError{Kind: gc.KindInvalidData}}
	f := gc.DepositFilter{
		StartDate:     p.time("startDate"),
		EndDate:       p.time("endDate"),
		Status:        parseList(p, "status", gc.DepositStatus.Valid),
		MinAmount:     p.amount("minAmount"),
		MaxAmount:     p.amount("maxAmount"),
		DepositOrigin: parseList(p, "depositOrigin", gc.DepositOrigin.Valid),
		Page:          p.pageNumber(pageParam),
		PerPage:       p.pageNumber(perPageParam),
	}
	if err := p.vs.Err(); err != nil {
		return gc.DepositFilter{}, err
	}
	return f, p.finish(f.Validate(), gc.MinAmount, pageParam, perPageParam)
}

// WithdrawalFilter reads the query of GET /withdrawal like DepositFilter, with the text
// parameters id, pixKey, endToEnd, endToEndRefund and externalCode taken as given.
func WithdrawalFilter(q url.Values, pageParam, perPageParam string) (gc.WithdrawalFilter, error) {
	pageParam, perPageParam = pagingNames(pageParam, perPageParam)
	p := &queryParser{q: q, vs: gc.ValidationError{Kind: gc.KindInvalidData}}
	f := gc.WithdrawalFilter{
		StartDate:      p.time("startDate"),
		EndDate:        p.time("endDate"),
		Status:         parseList(p, "status", gc.WithdrawalStatus.Valid),
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
	if err := p.vs.Err(); err != nil {
		return gc.WithdrawalFilter{}, err
	}
	return f, p.finish(f.Validate(), gc.MinWithdrawalFilterAmount, pageParam, perPageParam)
}

// pagingNames applies the client's default names of the pagination parameters.
func pagingNames(page, perPage string) (string, string) {
	return cmp.Or(page, gc.DefaultPageParam), cmp.Or(perPage, gc.DefaultPerPageParam)
}

// finish completes the error of a filter's Validate: an amount given explicitly as 0 breaks
// the minimum (the filter types read 0 as "not set", so Validate cannot see it), and the
// pagination violations are named after the query parameters the caller uses.
func (p *queryParser) finish(err error, minAllowed gc.Cents, pageParam, perPageParam string) error {
	var ve *gc.ValidationError
	if !errors.As(err, &ve) {
		if err != nil || len(p.zeros) == 0 {
			return err
		}
		ve = &gc.ValidationError{Kind: gc.KindValidation}
	}
	for _, name := range p.zeros {
		ve.Violations = append(ve.Violations, gc.Violation{Field: name, Code: gc.CodeMin,
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
	vs    gc.ValidationError
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
		p.vs.Add(name, gc.CodeDuplicate, "must be given once")
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
		p.vs.Add(name, gc.CodeFormat, "must be an ISO 8601 date with time (2006-01-02T15:04:05.000Z)")
		return time.Time{}
	}
	return t.UTC()
}

// integerGiven reads a decimal integer of bitSize bits and reports whether a valid one was
// given; out of range values are clamped, so that Validate reports them against their limits.
func (p *queryParser) integerGiven(name string, bitSize int) (int64, bool) {
	s := p.single(name)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, bitSize)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		p.vs.Add(name, gc.CodeInteger, "must be an integer")
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
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(s, "-"):
		p.vs.Add(name, gc.CodeMax, fmt.Sprintf("must be at most %d", math.MaxInt))
	case errors.Is(err, strconv.ErrRange):
		p.vs.Add(name, gc.CodeMin, "must not be negative")
	default:
		p.vs.Add(name, gc.CodeInteger, "must be an integer")
	}
	return 0
}

// amount reads an amount in cents, noting one given explicitly as 0.
func (p *queryParser) amount(name string) gc.Cents {
	v, given := p.integerGiven(name, 64)
	if given && v == 0 {
		p.zeros = append(p.zeros, name)
	}
	return gc.Cents(v)
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
				p.vs.Add(fmt.Sprintf("%s[%d]", name, i), gc.CodeEnum, fmt.Sprintf("%q is not a known value", part))
			}
			i++
		}
	}
	return out
}
