package sqlite_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestActions: the merchant's actions on an order, on SQLite.
func TestActions(t *testing.T) {
	storetest.RunActions(t, func(t *testing.T) checkout.Store {
		return migrated(t)
	})
}
