package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestQueryCounts: listing orders costs the same statements for 1 order as for 30 (no N+1).
func TestQueryCounts(t *testing.T) {
	storetest.RunQueryCounts(t, func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store {
		s, err := open(context.Background(), filepath.Join(t.TempDir(), "checkout.db"), options{busyTimeout: 5000, wrap: wrap})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// TestSummaryQueryCounts: a page of order summaries is one statement, the overview two.
func TestSummaryQueryCounts(t *testing.T) {
	storetest.RunSummaryQueryCounts(t, func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store {
		s, err := open(context.Background(), filepath.Join(t.TempDir(), "checkout.db"), options{busyTimeout: 5000, wrap: wrap})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
