package storetest

import (
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
