package team_test

import (
	"context"
	"errors"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// TestTextRule: users' e-mails follow checkout.CheckText.
func TestTextRule(t *testing.T) {
	f := newFixture(t)
	_, err := f.acc.AddUser(context.Background(), "ana\u2066@example.com", "s3nha-muito-boa", team.RoleOwner)
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || fe.Code(team.FieldEmail) != checkout.CodeText {
		t.Errorf("an e-mail with U+2066: %v", err)
	}
}
