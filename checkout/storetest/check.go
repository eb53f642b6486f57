package storetest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// must stops the test when err is not nil.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// get returns v, stopping the test when err is not nil.
func get[T any](t testing.TB, v T, err error) T {
	t.Helper()
	must(t, err)
	return v
}

// same reports, and the test goes on, when got is not deeply equal to want.
func same[T any](t testing.TB, what string, got, want T) bool {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %+v, want %+v", what, got, want)
		return false
	}
	return true
}

// sameCode reports, and the test goes on, when err does not carry the error code want.
func sameCode(t testing.TB, what string, err error, want checkout.Code) {
	t.Helper()
	if got := checkout.ErrorCode(err); got != want {
		t.Errorf("%s: error %v (code %q), want code %q", what, err, got, want)
	}
}

// sameErr reports, and the test goes on, when err is not target (as errors.Is tells).
func sameErr(t testing.TB, what string, err, target error) bool {
	t.Helper()
	if !errors.Is(err, target) {
		t.Errorf("%s: error %v, want %v", what, err, target)
		return false
	}
	return true
}

// errOf is the error of a call that returns a value too.
func errOf[T any](_ T, err error) error { return err }

// errOf2 is the error of a call that returns two values too.
func errOf2[T, U any](_ T, _ U, err error) error { return err }

// result is a call's value and error, to compare whole: same(t, what, res(call()), res(want, nil)).
type result[T any] struct {
	V   T
	Err error
}

func res[T any](v T, err error) result[T] { return result[T]{v, err} }
