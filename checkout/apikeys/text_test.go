package apikeys_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
)

// TestTextRule: API key names follow checkout.CheckText.
func TestTextRule(t *testing.T) {
	keys := apikeys.NewKeys(&memKeys{}, apikeys.Options{})
	_, _, err := keys.Create(context.Background(), "ERP \u202elanretni", apikeys.ScopeWrite, nil)
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || fe.Code("name") != checkout.CodeText {
		t.Errorf("a key name with U+202E: %v", err)
	}
}
