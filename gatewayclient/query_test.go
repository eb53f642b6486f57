package gatewayclient

import (
	"errors"
	"math"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// violationsOf returns the violations of a *ValidationError of kind, failing otherwise.
func violationsOf(t *testing.T, err error, kind UnprocessableKind) []Violation {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Kind != kind || len(ve.Violations) == 0 {
		t.Fatalf("error %v: want a *ValidationError of kind %q", err, kind)
	}
	return ve.Violations
}

// TestParseQueryRefusesWhatItCannotRead: url.ParseQuery drops a pair holding ";" or a bad
// escape and goes on, which would silently widen a filter; ParseQuery refuses the query and
// names each such parameter.
func TestParseQueryRefusesWhatItCannotRead(t *testing.T) {
	for raw, want := range map[string][]string{
		"status=PAID;x":                    {"status"},
		"page=1;DROP":                      {"page"},
		"status=PAID&minAmount=1;2&page=3": {"minAmount"},
		"status=PAID%zz":                   {"status"},
		"a;b=1&c=%&page=2":                 {"a;b", "c"},
		"%zz=1":                            {"%zz"},
	} {
		_, err := ParseQuery(raw)
		vs := violationsOf(t, err, KindInvalidData)
		var got []string
		for _, v := range vs {
			got = append(got, v.Field)
			if v.Code != CodeFormat || !strings.Contains(v.Message, "could not be read") {
				t.Errorf("%q: violation %+v", raw, v)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: violations name %v, want %v", raw, got, want)
		}
		if _, err := ParseDepositQuery(raw, "", ""); err == nil {
			t.Errorf("ParseDepositQuery(%q) accepted it", raw)
		}
		if _, err := ParseWithdrawalQuery(raw, "", ""); err == nil {
			t.Errorf("ParseWithdrawalQuery(%q) accepted it", raw)
		}
	}
	// What url.ParseQuery reads whole, ParseQuery reads the same; %3B is a ";" that was meant.
	for _, raw := range []string{"", "status=PAID&status=REFUNDED&page=2", "externalCode=a%3Bb", "x=&y"} {
		got, err := ParseQuery(raw)
		want, _ := url.ParseQuery(raw)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v %v, want %v", raw, got, err, want)
		}
	}
	f, err := ParseWithdrawalQuery("externalCode=order%3B0001", "", "")
	if err != nil || f.ExternalCode != "order;0001" {
		t.Errorf("an encoded ; : %+v %v", f, err)
	}
}

// TestPageNumbersAreNeverClamped: a page beyond an int is refused (clamped, it would answer
// another page); the largest int is kept as it is.
func TestPageNumbersAreNeverClamped(t *testing.T) {
	for _, tc := range []struct {
		raw, pageParam string
		want           Violation
	}{
		{"page=9999999999999999999999", "", Violation{Field: "page", Code: CodeMax}},
		{"perPage=99999999999999999999999", "", Violation{Field: "perPage", Code: CodeMax}},
		{"page=-9999999999999999999999", "", Violation{Field: "page", Code: CodeMin}},
		{"p=99999999999999999999", "p", Violation{Field: "p", Code: CodeMax}},
	} {
		_, err := ParseDepositQuery(tc.raw, tc.pageParam, "")
		vs := violationsOf(t, err, KindInvalidData)
		if len(vs) != 1 || vs[0].Field != tc.want.Field || vs[0].Code != tc.want.Code {
			t.Errorf("%q: %+v, want %+v", tc.raw, vs, tc.want)
		}
		if _, err := ParseWithdrawalQuery(tc.raw, tc.pageParam, ""); err == nil {
			t.Errorf("withdrawals: %q accepted", tc.raw)
		}
	}
	f, err := ParseDepositQuery("page=9223372036854775807&perPage=10", "", "")
	if err != nil || f.Page != math.MaxInt || f.PerPage != 10 {
		t.Fatalf("the largest page: %+v %v", f, err)
	}
}

// FuzzParseQuery checks that ParseQuery accepts exactly what url.ParseQuery reads whole, with
// the same result, and otherwise names at least one parameter.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"status=PAID;x", "page=1;DROP", "a=%zz", "a=1&b=2", "", ";", "&&", "=;=", "%3B=%3B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got, err := ParseQuery(raw)
		want, werr := url.ParseQuery(raw)
		if (err == nil) != (werr == nil) {
			t.Fatalf("ParseQuery %v, url.ParseQuery %v", err, werr)
		}
		if err == nil {
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ParseQuery %v, url.ParseQuery %v", got, want)
			}
			return
		}
		violationsOf(t, err, KindInvalidData)
	})
}
