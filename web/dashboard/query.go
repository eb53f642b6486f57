package dashboard

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/decode"
	"github.com/pixcheckout/pixcheckout/views"
)

// The dashboard's deposit and withdrawal views take the gateway API's own query parameters, so
// that a view is a link: the same names, status and depositOrigin repeated, but amounts typed
// in reais and dates in São Paulo time, as a merchant types them. This file reads them strictly
// (nothing dropped or guessed) into the gateway client's filters.

// Names of the filter parameters (the gateway's).
const (
	paramStartDate      = "startDate"
	paramEndDate        = "endDate"
	paramStatus         = "status"
	paramMinAmount      = "minAmount"
	paramMaxAmount      = "maxAmount"
	paramDepositOrigin  = "depositOrigin"
	paramID             = "id"
	paramPixKey         = "pixKey"
	paramEndToEnd       = "endToEnd"
	paramEndToEndRefund = "endToEndRefund"
	paramExternalCode   = "externalCode"
	paramPage           = "page"
	paramPerPage        = "perPage"
)

// Pagination of the dashboard's lists.
const (
	defaultPerPage = 25
	maxPerPage     = 100           // the most the gateway (and the sandbox) serves per page
	maxPage        = 1_000_000_000 // far past any real list, far below any overflow
)

// addFilterError keeps the first violation of a parameter.
func addFilterError(fe *checkout.ValidationError, param, code, msg string) {
	if !fe.Has(param) {
		fe.Add(param, code, msg)
	}
}

// addFilterViolations maps violations of the gateway (or of its client's validation) onto the
// parameters: status[2] is status's, and a path the form does not know goes to "", its message
// then saying the path.
func addFilterViolations(fe *checkout.ValidationError, vs []checkout.Violation, known map[string]bool) {
	for _, v := range vs {
		param, msg := v.Field, v.Message
		if i := strings.IndexByte(param, '['); i >= 0 {
			param = param[:i]
		}
		if !known[param] {
			param = ""
			if v.Field != "" {
				msg = v.Field + ": " + msg
			}
		}
		addFilterError(fe, param, v.Code, msg)
	}
}

// strictQuery reads a raw query string strictly (decode.Query): a pair that
// url.ParseQuery would drop (a ';' in it, a bad %-escape) is a violation of its parameter
// instead of vanishing, since "status=PAID;x" must not list every status. The pairs that can
// be read are returned too, so that the form shows them again; with any violation the gateway
// is not called at all.
func strictQuery(raw string) (url.Values, *checkout.ValidationError) {
	errs := &checkout.ValidationError{}
	q, err := decode.Query(raw)
	if err == nil {
		return q, errs
	}
	var ve *checkout.ValidationError
	if !errors.As(err, &ve) {
		addFilterError(errs, "", codeUnreadable, err.Error())
		return url.Values{}, errs
	}
	for _, v := range ve.Violations {
		addFilterError(errs, v.Field, codeUnreadable, v.Message)
	}
	q, _ = url.ParseQuery(raw) // the pairs that can be read
	return q, errs
}

// queryReader reads filter parameters from strictly parsed values, collecting violations.
type queryReader struct {
	q    url.Values
	errs *checkout.ValidationError
}

// single returns the one non-blank value of name, trimmed ("" when none); several are a
// duplicate.
func (r *queryReader) single(name string) string {
	var v string
	n := 0
	for _, s := range r.q[name] {
		if s = strings.TrimSpace(s); s != "" {
			v = s
			n++
		}
	}
	if n > 1 {
		addFilterError(r.errs, name, checkout.CodeDuplicate, "must be given once")
		return ""
	}
	return v
}

// list returns the values of a repeated parameter (each may also hold several separated by
// commas), blank ones skipped; an unknown value or a repeated one is a violation.
func list[T ~string](r *queryReader, name string, valid func(T) bool) []T {
	var out []T
	for _, s := range r.q[name] {
		for part := range strings.SplitSeq(s, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			v := T(part)
			switch {
			case !valid(v):
				addFilterError(r.errs, name, checkout.CodeEnum, fmt.Sprintf("%q is not a known value", part))
			case containsValue(out, v):
				addFilterError(r.errs, name, checkout.CodeDuplicate, fmt.Sprintf("%q is repeated", part))
			default:
				out = append(out, v)
			}
		}
	}
	return out
}

func containsValue[T comparable](vals []T, v T) bool {
	for _, x := range vals {
		if x == v {
			return true
		}
	}
	return false
}

// time reads a date-time: São Paulo local time as a datetime-local input sends it
// (2026-03-01T14:30, seconds optional), a bare date (the day's first instant, or its last for
// endOfDay), or an ISO 8601 time with its offset or Z.
func (r *queryReader) time(name string, endOfDay bool) time.Time {
	s := r.single(name)
	if s == "" {
		return time.Time{}
	}
	t, err := parseDashboardTime(s, endOfDay)
	if err != nil {
		addFilterError(r.errs, name, checkout.CodeFormat, "must be a date and time such as 2026-03-01T14:30 (São Paulo) or an ISO 8601 time with offset")
		return time.Time{}
	}
	return t
}

// parseDashboardTime reads the date-time forms the dashboard accepts, to UTC.
func parseDashboardTime(s string, endOfDay bool) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02T15:04:05.999999999"} {
		if t, err := time.ParseInLocation(layout, s, views.SaoPaulo()); err == nil {
			return t.UTC(), nil
		}
	}
	if d, err := time.ParseInLocation("2006-01-02", s, views.SaoPaulo()); err == nil {
		if endOfDay {
			d = d.AddDate(0, 0, 1).Add(-time.Millisecond)
		}
		return d.UTC(), nil
	}
	return time.Time{}, errors.New("not a date-time")
}

// amount reads an amount typed in reais into cents.
func (r *queryReader) amount(name string) checkout.Cents {
	s := r.single(name)
	if s == "" {
		return 0
	}
	c, err := checkout.ParseReais(s)
	if err != nil {
		code := checkout.CodeFormat
		if errors.Is(err, checkout.ErrNegativeAmount) {
			code = checkout.CodeMin
		}
		addFilterError(r.errs, name, code, err.Error())
		return 0
	}
	if c == 0 {
		addFilterError(r.errs, name, checkout.CodeMin, "must be more than zero")
	}
	return c
}

// integer reads a whole number between lo and hi.
func (r *queryReader) integer(name string, lo, hi int) int {
	s := r.single(name)
	if s == "" {
		return 0
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		addFilterError(r.errs, name, checkout.CodeInteger, "must be a whole number")
		return 0
	case n < lo || err != nil && strings.HasPrefix(s, "-"):
		addFilterError(r.errs, name, checkout.CodeMin, fmt.Sprintf("must be at least %d", lo))
		return 0
	case n > hi || err != nil:
		addFilterError(r.errs, name, checkout.CodeMax, fmt.Sprintf("must be at most %d", hi))
		return 0
	}
	return n
}

// depositParams are the parameters of the deposit view's form.
var depositParams = map[string]bool{paramStartDate: true, paramEndDate: true, paramStatus: true,
	paramMinAmount: true, paramMaxAmount: true, paramDepositOrigin: true, paramPage: true, paramPerPage: true}

// withdrawalParams are the parameters of the withdrawal view's form.
var withdrawalParams = map[string]bool{paramStartDate: true, paramEndDate: true, paramStatus: true,
	paramID: true, paramPixKey: true, paramEndToEnd: true, paramEndToEndRefund: true, paramExternalCode: true,
	paramMinAmount: true, paramMaxAmount: true, paramPage: true, paramPerPage: true}

// parseDepositQuery reads the deposit view's query into the gateway's filter and checks every
// rule of the API (gatewayclient's own validation), so that nothing the gateway would refuse
// is sent. The filter is usable only when the errors are empty. PerPage is defaultPerPage when
// not given.
func parseDepositQuery(raw string) (url.Values, gatewayclient.DepositFilter, *checkout.ValidationError) {
	q, errs := strictQuery(raw)
	r := &queryReader{q: q, errs: errs}
	f := gatewayclient.DepositFilter{
		StartDate:     r.time(paramStartDate, false),
		EndDate:       r.time(paramEndDate, true),
		Status:        list(r, paramStatus, gatewayclient.DepositStatus.Valid),
		MinAmount:     r.amount(paramMinAmount),
		MaxAmount:     r.amount(paramMaxAmount),
		DepositOrigin: list(r, paramDepositOrigin, gatewayclient.DepositOrigin.Valid),
		Page:          r.integer(paramPage, 1, maxPage),
		PerPage:       r.integer(paramPerPage, 1, maxPerPage),
	}
	checkFilter(errs, &f.PerPage, func() error { return f.Validate() }, depositParams)
	return q, f, errs
}

// checkFilter gives a filter its default page size and adds the violations of the API's rules
// that validate finds in the filter so completed, by the parameters of the view (known).
func checkFilter(errs *checkout.ValidationError, perPage *int, validate func() error, known map[string]bool) {
	if *perPage == 0 {
		*perPage = defaultPerPage
	}
	var ve *checkout.ValidationError
	if err := validate(); errors.As(err, &ve) {
		addFilterViolations(errs, ve.Violations, known)
	}
}

// parseWithdrawalQuery is parseDepositQuery for the withdrawal view.
func parseWithdrawalQuery(raw string) (url.Values, gatewayclient.WithdrawalFilter, *checkout.ValidationError) {
	q, errs := strictQuery(raw)
	r := &queryReader{q: q, errs: errs}
	f := gatewayclient.WithdrawalFilter{
		StartDate:      r.time(paramStartDate, false),
		EndDate:        r.time(paramEndDate, true),
		Status:         list(r, paramStatus, gatewayclient.WithdrawalStatus.Valid),
		ID:             strings.ToLower(r.single(paramID)),
		PixKey:         r.single(paramPixKey),
		EndToEnd:       r.single(paramEndToEnd),
		EndToEndRefund: r.single(paramEndToEndRefund),
		ExternalCode:   r.single(paramExternalCode),
		MinAmount:      r.amount(paramMinAmount),
		MaxAmount:      r.amount(paramMaxAmount),
		Page:           r.integer(paramPage, 1, maxPage),
		PerPage:        r.integer(paramPerPage, 1, maxPerPage),
	}
	checkFilter(errs, &f.PerPage, func() error { return f.Validate() }, withdrawalParams)
	return q, f, errs
}

// formatReaisInput writes cents as a pt-BR amount for an input ("1234,56"), the inverse of
// checkout.ParseReais.
func formatReaisInput(c checkout.Cents) string {
	return fmt.Sprintf("%d,%02d", c/100, c%100)
}
