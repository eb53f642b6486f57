package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestActions: the merchant's actions on an order, on SQLite.
func TestActions(t *testing.T) {
	storetest.RunActions(t, func(t *testing.T) checkout.Store {
		s := open(t, filepath.Join(t.TempDir(), "checkout.db"))
		t.Cleanup(func() { s.Close() })
		return s
	})
}
