package postgres_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestActions: the merchant's actions on an order, on PostgreSQL (several services on one
// database in the concurrent cases).
func TestActions(t *testing.T) {
	t.Parallel()
	dbURL := newDatabase(t)
	storetest.RunActions(t, func(t *testing.T) checkout.Store {
		return open(t, newSchema(t, dbURL))
	})
}
