// Package cep looks up Brazilian postal codes (CEP), so that the customer form fills in the
// street, neighbourhood, city and state as soon as the shopper types one.
//
// A Provider answers one CEP. HTTP reaches a web service in production (ViaCEP's JSON format by
// default, any URL template answering the same fields); Table is a small built-in table used in
// sandbox mode, so that the demo and the tests work offline. Cached wraps a provider with a
// bounded in-memory cache. A lookup is a convenience: when it fails or does not know the CEP,
// the shopper types the address, and nothing else depends on it.
package cep

import (
	"context"
	"errors"
	"strings"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Address is what a CEP tells of an address. Fields the provider does not know are empty (a
// city-wide CEP has no street).
type Address struct {
	CEP          string `json:"cep"`          // 8 digits
	Street       string `json:"street"`       // logradouro
	Neighborhood string `json:"neighborhood"` // bairro
	City         string `json:"city"`         // localidade
	State        string `json:"state"`        // UF, two letters
}

// ErrNotFound: the CEP is well formed but the provider does not know it.
var ErrNotFound = errors.New("cep: not found")

// ErrInvalid: the text is not a CEP (8 digits, with or without the hyphen).
var ErrInvalid = errors.New("cep: not a CEP")

// Provider looks a CEP up. cep is already normalised to 8 digits.
type Provider interface {
	Lookup(ctx context.Context, cep string) (Address, error)
}

// Normalize returns the 8 digits of a CEP typed as "01310-100" or "01310100", or
// ErrInvalid.
func Normalize(s string) (string, error) {
	s = strings.TrimSpace(s)
	if !brdoc.ValidCEP(s) {
		return "", ErrInvalid
	}
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	if b.Len() != 8 {
		return "", ErrInvalid
	}
	return b.String(), nil
}
