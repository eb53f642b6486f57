package checkout_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// TestErrorCode: every error has one code, found through wrapping, for the domain's own errors
// and for the gateway client's.
func TestErrorCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want checkout.Code
	}{
		{nil, ""},
		{fmt.Errorf("cart: %w", checkout.ErrNotFound), checkout.CodeNotFound},
		{fmt.Errorf("x: %w", checkout.ErrConflict), checkout.CodeConflict},
		{checkout.ErrInvalidTransition, checkout.CodeConflict},
		{checkout.ErrNotRenewable, checkout.CodeConflict},
		{checkout.ErrEmptyCart, checkout.CodeEmptyCart},
		{fmt.Errorf("placing: %w", &checkout.ValidationError{}), checkout.CodeInvalid},
		{&gatewayclient.ValidationError{}, checkout.CodeInvalid},
		{&gatewayclient.APIError{StatusCode: 422}, checkout.CodeInvalid},
		{&gatewayclient.APIError{StatusCode: 404}, checkout.CodeNotFound},
		{&gatewayclient.APIError{StatusCode: 429}, checkout.CodeRateLimited},
		{&gatewayclient.APIError{StatusCode: 503}, checkout.CodeUnavailable},
		{&gatewayclient.APIError{StatusCode: 401}, checkout.CodeGatewayAuth},
		{&gatewayclient.APIError{StatusCode: 403}, checkout.CodeGatewayAuth},
		{fmt.Errorf("call: %w", context.DeadlineExceeded), checkout.CodeUnavailable},
		{context.Canceled, checkout.CodeCanceled},
		{errors.New("disk on fire"), checkout.CodeInternal},
	} {
		if got := checkout.ErrorCode(tc.err); got != tc.want {
			t.Errorf("ErrorCode(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	// The sentinels keep their messages and errors.Is.
	err := fmt.Errorf("order: %w", checkout.ErrNotFound)
	if !errors.Is(err, checkout.ErrNotFound) || errors.Is(err, checkout.ErrConflict) || checkout.ErrNotFound.Error() != "checkout: not found" {
		t.Errorf("sentinel matching: %v", err)
	}
}

// A failed gateway call is logged with what it met: a refused secret is never "did not answer".
func TestGatewayProblemNamesTheCause(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&gatewayclient.TokenError{StatusCode: 401}, "gateway refused the credentials"},
		{&gatewayclient.APIError{StatusCode: 401}, "gateway refused the credentials"},
		{&gatewayclient.APIError{StatusCode: 403}, "gateway refused the permission"},
		{&gatewayclient.APIError{StatusCode: 404}, "gateway answered 404 (check the URL's path prefix)"},
		{&gatewayclient.APIError{StatusCode: 503}, "gateway answered a server error"},
		{&gatewayclient.APIError{StatusCode: 429}, "gateway asked to slow down"},
		{context.DeadlineExceeded, "gateway did not answer in time"},
	}
	for _, tc := range cases {
		if got := checkout.GatewayProblem(tc.err); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.err, got, tc.want)
		}
	}
}
