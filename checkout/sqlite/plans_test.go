package sqlite

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestIndexUse: the claim of notifications and the reads by session and merchant reference use
// their partial indexes (see storetest.RunIndexUse).
func TestIndexUse(t *testing.T) {
	var s *Store
	storetest.RunIndexUse(t, func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store {
		var err error
		s, err = open(context.Background(), filepath.Join(t.TempDir(), "checkout.db"), options{busyTimeout: 5000, wrap: wrap})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, func(t *testing.T, st sqlstore.Stmt) string {
		rows, err := s.r.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+st.SQL, st.Args...)
		if err != nil {
			t.Fatalf("explaining %s: %v", st.SQL, err)
		}
		defer rows.Close()
		var lines []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, detail)
		}
		return strings.Join(lines, "\n")
	}, regexp.MustCompile(`(?m)^SCAN (outbox|orders|cart_lines|n|p|o|l)\b`), true)
}

// TestSortPlans: each sort of the order list reads its index in order (see
// storetest.RunSortPlans).
func TestSortPlans(t *testing.T) {
	var s *Store
	storetest.RunSortPlans(t, func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store {
		var err error
		s, err = open(context.Background(), filepath.Join(t.TempDir(), "checkout.db"), options{busyTimeout: 5000, wrap: wrap})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, func(t *testing.T, st sqlstore.Stmt) string { return explainPlan(t, s, st) },
		regexp.MustCompile(`USE TEMP B-TREE FOR (RIGHT PART OF )?ORDER BY`))
}

// explainPlan is SQLite's plan of a statement, one step a line.
func explainPlan(t *testing.T, s *Store, st sqlstore.Stmt) string {
	rows, err := s.r.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+st.SQL, st.Args...)
	if err != nil {
		t.Fatalf("explaining %s: %v", st.SQL, err)
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, detail)
	}
	return strings.Join(lines, "\n")
}
