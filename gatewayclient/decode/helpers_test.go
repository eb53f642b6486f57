package decode_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// fc is the (Field, Code) pair of a violation, what every test asserts.
type fc struct{ Field, Code string }

// assertViolations checks that err is a *gc.ValidationError of the given kind, matches
// gc.ErrValidation, and holds exactly the wanted violations in order. want == nil means err
// must be nil.
func assertViolations(t *testing.T, err error, kind gc.UnprocessableKind, want []fc) {
	t.Helper()
	if len(want) == 0 {
		if err != nil {
			t.Fatalf("want no error, got %v", err)
		}
		return
	}
	if err == nil {
		t.Fatalf("want violations %v, got nil error", want)
	}
	if !errors.Is(err, gc.ErrValidation) {
		t.Errorf("errors.Is(%v, ErrValidation) = false", err)
	}
	var ve *gc.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *gc.ValidationError, got %T: %v", err, err)
	}
	if ve.Kind != kind {
		t.Errorf("kind = %q, want %q (%v)", ve.Kind, kind, err)
	}
	got := make([]fc, len(ve.Violations))
	for i, v := range ve.Violations {
		got[i] = fc{v.Field, v.Code}
		if v.Message == "" {
			t.Errorf("violation %v has no message", v)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("violations\n got %v\nwant %v\n(%v)", got, want, err)
	}
}

// violationsOf returns the violations of a *gc.ValidationError of kind, failing otherwise.
func violationsOf(t *testing.T, err error, kind gc.UnprocessableKind) []gc.Violation {
	t.Helper()
	var ve *gc.ValidationError
	if !errors.As(err, &ve) || ve.Kind != kind || len(ve.Violations) == 0 {
		t.Fatalf("error %v: want a *gc.ValidationError of kind %q", err, kind)
	}
	return ve.Violations
}

// filterTimes returns two times a day apart, with milliseconds, for the filters.
func filterTimes() (t0, t1 time.Time) {
	t0 = time.Date(2024, 1, 2, 3, 4, 5, 6_000_000, time.UTC)
	return t0, t0.Add(24 * time.Hour)
}
