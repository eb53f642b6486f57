package merchant_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
)

// TestTextRule: API key names and users' e-mails follow checkout.CheckText.
func TestTextRule(t *testing.T) {
	ctx := context.Background()
	keys := merchant.NewKeys(&memKeys{}, merchant.KeysOptions{})
	_, _, err := keys.Create(ctx, "ERP \u202elanretni", merchant.ScopeWrite, nil)
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || fe.Code("name") != checkout.CodeText {
		t.Errorf("a key name with U+202E: %v", err)
	}
	f := newFixture(t)
	_, err = f.acc.AddUser(ctx, "ana\u2066@example.com", "s3nha-muito-boa", merchant.RoleOwner)
	if !errors.As(err, &fe) || fe.Code(merchant.FieldEmail) != checkout.CodeText {
		t.Errorf("an e-mail with U+2066: %v", err)
	}
}
