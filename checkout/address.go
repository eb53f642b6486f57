package checkout

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixcheckout/pixcheckout/checkout/cep"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ErrAddressServiceDown: the CEP lookup service did not answer; the shopper types the address.
var ErrAddressServiceDown = &Error{Code: CodeUnavailable, Message: "the address service did not answer"}

// LookupCEP returns what a CEP typed by the shopper tells of the address, for the form to fill
// in: a *ValidationError on FieldZipCode when it is not a CEP, ErrNotFound when the service does
// not know it (or no service is configured), ErrAddressServiceDown when the service fails.
func (s *Service) LookupCEP(ctx context.Context, typed string) (cep.Address, error) {
	code, err := cep.Normalize(typed)
	if err != nil {
		return cep.Address{}, fieldError(FieldZipCode, gatewayclient.CodeFormat, "must be a valid CEP (00000-000)")
	}
	if s.cep == nil {
		return cep.Address{}, fmt.Errorf("checkout: no CEP lookup: %w", ErrNotFound)
	}
	a, err := s.cep.Lookup(ctx, code)
	switch {
	case errors.Is(err, cep.ErrNotFound):
		return cep.Address{}, fmt.Errorf("checkout: CEP %s: %w", code, ErrNotFound)
	case err != nil:
		s.log.WarnContext(ctx, "CEP lookup", "err", err)
		return cep.Address{}, fmt.Errorf("checkout: CEP %s: %w", code, ErrAddressServiceDown)
	}
	return a, nil
}

// LooksUpCEP reports whether LookupCEP has a service to ask (the form then offers the lookup).
func (s *Service) LooksUpCEP() bool { return s.cep != nil }
