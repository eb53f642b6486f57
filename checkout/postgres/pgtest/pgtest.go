// Package pgtest gives tests an empty PostgreSQL database of their own, created on the test
// server and dropped when the test ends. Only tests import it.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultURL is the server the tests use when CHECKOUT_TEST_POSTGRES_URL is not set: a local
// PostgreSQL with trust authentication, as on developer machines and in CI.
const DefaultURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// AdminURL is the URL of the test server's maintenance database, from which test databases are
// created and dropped (CHECKOUT_TEST_POSTGRES_URL, else DefaultURL).
func AdminURL() string {
	if u := os.Getenv("CHECKOUT_TEST_POSTGRES_URL"); u != "" {
		return u
	}
	return DefaultURL
}

// Database creates an empty database with a random name, prefixed with prefix, dropped when
// the test ends, and returns its URL. Without a server the test fails, unless
// CHECKOUT_TEST_ALLOW_SKIP=1 outside CI skips it, loudly.
func Database(t testing.TB, prefix string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		msg := "PostgreSQL is not reachable (set CHECKOUT_TEST_POSTGRES_URL to a postgres:// URL of a server " +
			"where the user may CREATE DATABASE, or CHECKOUT_TEST_ALLOW_SKIP=1 to skip): " + err.Error()
		if os.Getenv("CHECKOUT_TEST_ALLOW_SKIP") != "1" || os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPING A POSTGRESQL TEST: " + msg)
	}
	defer admin.Close(context.Background())
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	name := prefix + hex.EncodeToString(b)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("CREATE DATABASE %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, AdminURL())
		if err != nil {
			t.Errorf("dropping %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("DROP DATABASE %s: %v", name, err)
		}
	})
	u, err := url.Parse(AdminURL())
	if err != nil || u.Scheme == "" {
		t.Fatal("CHECKOUT_TEST_POSTGRES_URL must be a postgres:// URL")
	}
	u.Path = "/" + name
	return u.String()
}
