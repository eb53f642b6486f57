package gatewayclient

import (
	"cmp"
	"net/url"
	"strconv"
	"time"
)

// pagingNames applies the default names of the pagination parameters.
func pagingNames(page, perPage string) (string, string) {
	return cmp.Or(page, DefaultPageParam), cmp.Or(perPage, DefaultPerPageParam)
}

// Query writes the filter as the query of GET /deposit: zero values are left out, status and
// depositOrigin repeat their parameter, dates are written with FormatTime. pageParam and
// perPageParam name the pagination parameters ("page" and "perPage" when empty).
// DepositFilter of gatewayclient/decode reads the result back into an equal filter (times to the millisecond).
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
// WithdrawalFilter of gatewayclient/decode reads the result back into an equal filter (times to the millisecond).
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
