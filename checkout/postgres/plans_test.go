package postgres_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/checkout/sqlstore"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// TestIndexUse: the claim of notifications and the reads by session and merchant reference use
// their partial indexes in the generic plan of a prepared statement, the plan PostgreSQL keeps
// for pgx's cached statements once it judged it cheap enough on a small table (see
// storetest.RunIndexUse).
func TestIndexUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := newDatabase(t)
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	if _, err := conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	n := 0
	storetest.RunIndexUse(t, func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store {
		s, err := postgres.OpenWrapped(ctx, dbURL, wrap)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, func(t *testing.T, st sqlstore.Stmt) string {
		n++
		name := fmt.Sprintf("plan%d", n)
		if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+st.SQL); err != nil {
			t.Fatalf("preparing %s: %v", st.SQL, err)
		}
		args := make([]string, len(st.Args))
		for i, a := range st.Args {
			args[i] = literal(t, a)
		}
		rows, err := conn.Query(ctx, "EXPLAIN EXECUTE "+name+"("+strings.Join(args, ", ")+")", pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			t.Fatalf("explaining %s: %v", st.SQL, err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(lines, "\n")
	}, regexp.MustCompile(`Seq Scan on (outbox|orders)\b`), false)
}

// TestSortPlans: each sort of the order list reads its index in order, in the generic plan of
// a prepared statement (see storetest.RunSortPlans).
func TestSortPlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbURL := newDatabase(t)
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	if _, err := conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	n := 0
	storetest.RunSortPlans(t, func(t *testing.T, wrap func(sqlstore.DB) sqlstore.DB) checkout.Store {
		s, err := postgres.OpenWrapped(ctx, dbURL, wrap)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, func(t *testing.T, st sqlstore.Stmt) string {
		n++
		return explainGeneric(t, conn, fmt.Sprintf("sort%d", n), st)
	}, regexp.MustCompile(`(?m)^\s*(->\s*)?(Incremental )?Sort\b|Seq Scan on orders`))
}

// explainGeneric is PostgreSQL's generic plan of a statement prepared as name.
func explainGeneric(t *testing.T, conn *pgx.Conn, name string, st sqlstore.Stmt) string {
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+st.SQL); err != nil {
		t.Fatalf("preparing %s: %v", st.SQL, err)
	}
	args := make([]string, len(st.Args))
	for i, a := range st.Args {
		args[i] = literal(t, a)
	}
	rows, err := conn.Query(ctx, "EXPLAIN EXECUTE "+name+"("+strings.Join(args, ", ")+")", pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatalf("explaining %s: %v", st.SQL, err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// literal writes a statement's argument as an SQL literal.
func literal(t *testing.T, a any) string {
	switch v := a.(type) {
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case int, int64, int32:
		return fmt.Sprint(v)
	case bool:
		return fmt.Sprint(v)
	}
	t.Fatalf("no literal for %T", a)
	return ""
}
