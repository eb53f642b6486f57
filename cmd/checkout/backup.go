package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

const backupUsage = `Usage:
  %[1]s backup [-data-dir DIR] FILE

Writes a consistent copy of the checkout's SQLite database (in CHECKOUT_DATA_DIR, or -data-dir)
into FILE, which must not exist, while the server runs: every order acknowledged before the
backup began is in it. FILE holds password hashes and shoppers' personal data (mode 0600).
Keep with it what the database does not hold: the configuration (the gateway's credentials and
webhook secret, the merchant webhook secret), the secret key (CHECKOUT_SECRET_KEY or the data
dir's secret.key), without which the secrets sealed in it do not open, and, with the embedded sandbox, the data dir's
sandbox folder. With PostgreSQL use pg_dump. cmd/checkout/README.md tells more.

Flags:
`

const restoreUsage = `Usage:
  %[1]s restore [-data-dir DIR] FILE

Replaces the checkout's SQLite database (in CHECKOUT_DATA_DIR, or -data-dir) with the backup
FILE made by "%[1]s backup". The server must be stopped (the command takes the data dir's lock).
The backup is checked first; the database it replaces is kept as checkout.db.before-restore.
Start the server afterwards: it applies the migrations a backup of an older version lacks.

Flags:
`

// runBackup is `checkout backup FILE`: 0 done, 1 failed, 2 bad usage or configuration.
func runBackup(prog string, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) int {
	_, rest, cfg, code, ok := subcommand{name: "checkout backup", prog: prog, usage: backupUsage, noVerb: true, operands: map[string]string{"": "FILE"},
		valid: func(_ string, rest []string) bool { return len(rest) == 1 }}.parse(args, env, stderr)
	if !ok {
		return code
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	if err := app.Backup(ctx, cfg, rest[0]); err != nil {
		return openFailed(stderr, "checkout backup", err)
	}
	fmt.Fprintf(stdout, "backup written to %s\n", rest[0])
	return 0
}

// runRestore is `checkout restore FILE`: 0 done, 1 failed, 2 bad usage or configuration (a
// running server included).
func runRestore(prog string, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) int {
	_, rest, cfg, code, ok := subcommand{name: "checkout restore", prog: prog, usage: restoreUsage, noVerb: true, operands: map[string]string{"": "FILE"},
		valid: func(_ string, rest []string) bool { return len(rest) == 1 }}.parse(args, env, stderr)
	if !ok {
		return code
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	kept, err := app.Restore(ctx, cfg, rest[0])
	if err != nil {
		return openFailed(stderr, "checkout restore", err)
	}
	if kept == "" {
		fmt.Fprintf(stdout, "database restored from %s (the data dir held none)\n", rest[0])
	} else {
		fmt.Fprintf(stdout, "database restored from %s; the one it replaced is %s\n", rest[0], kept)
	}
	return 0
}
