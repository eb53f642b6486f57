package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

const apikeyUsage = `Usage:
  %[1]s apikey create [-scope read|write] NAME
  %[1]s apikey list
  %[1]s apikey revoke ID

Manages the merchant API's keys in the checkout's database, found as the server finds it
(CHECKOUT_DATABASE_URL, else SQLite in CHECKOUT_DATA_DIR; or the flags -database-url and
-data-dir). create prints the new key once: only its SHA-256 is stored, so it can never be shown
again. A read key may only read (the API's GET endpoints); a write key (the default, and every
key made before scopes existed) may do everything the API offers. revoke refuses the key at
once, on every instance. The key of CHECKOUT_MERCHANT_API_KEY is not stored and not listed.

Flags:
`

// runAPIKey is `checkout apikey …`; it returns the exit status: 0 done, 1 refused (an unknown
// id, a bad name) or failed, 2 bad usage or configuration.
func runAPIKey(prog string, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) int {
	scopeFlag := ""
	cmd, rest, cfg, code, ok := subcommand{name: "checkout apikey", prog: prog, usage: apikeyUsage,
		operands: map[string]string{"create": "NAME", "revoke": "ID"},
		flags: func(fs *flag.FlagSet) {
			fs.StringVar(&scopeFlag, "scope", "", "the new key's scope (create only): read (GET endpoints) or write (everything; the default)")
		},
		valid: func(verb string, rest []string) bool { return apikeyArgsValid(verb, rest, scopeFlag) },
	}.parse(args, env, stderr)
	if !ok {
		return code
	}
	scope, err := apikeys.ParseScope(scopeFlag)
	if err != nil {
		fmt.Fprintf(stderr, "checkout apikey: -scope must be read or write (got %q)\n", scopeFlag)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	keys, auditLog, closeStore, err := app.OpenKeys(ctx, cfg)
	if err != nil {
		return openFailed(stderr, "checkout apikey", err)
	}
	defer closeStore()

	switch cmd {
	case "create":
		secret, rec, err := keys.Create(ctx, strings.Join(rest, " "), scope, nil)
		if err != nil {
			return apikeyError(stderr, prog, err)
		}
		auditCLI(ctx, stderr, auditLog, audit.KeyCreated, rec.Name, "scope: "+string(rec.Scope)+"; "+rec.Hint)
		fmt.Fprintf(stdout, "API key %s (%s, %s) created\nkey (shown only now): %s\n", rec.ID, rec.Name, rec.Scope, secret)
	case "list":
		return listKeys(ctx, keys, prog, stdout, stderr)
	case "revoke":
		return revokeKey(ctx, keys, auditLog, rest[0], prog, stdout, stderr)
	}
	return 0
}

// apikeyArgsValid reports whether the verb of `checkout apikey` has its operands and flags.
func apikeyArgsValid(verb string, rest []string, scopeFlag string) bool {
	switch verb {
	case "list":
		return len(rest) == 0 && scopeFlag == ""
	case "create":
		return len(rest) >= 1
	case "revoke":
		return len(rest) == 1 && scopeFlag == ""
	}
	return false
}

// listKeys is `checkout apikey list`: the keys as a table on stdout.
func listKeys(ctx context.Context, keys *apikeys.Keys, prog string, stdout, stderr io.Writer) int {
	list, err := keys.List(ctx)
	if err != nil {
		return apikeyError(stderr, prog, err)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSCOPE\tKEY\tCREATED\tBY\tLAST USED\tFROM\tREVOKED")
	for _, k := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Scope, k.Hint, when(k.CreatedAt), dash(k.CreatedBy),
			when(k.LastUsedAt), dash(k.LastUsedAddress), when(k.RevokedAt))
	}
	_ = tw.Flush()
	return 0
}

// revokeKey is `checkout apikey revoke ID`; the audit log names the key when it is known.
func revokeKey(ctx context.Context, keys *apikeys.Keys, auditLog *audit.Log, id, prog string, stdout, stderr io.Writer) int {
	name := id
	if list, err := keys.List(ctx); err == nil {
		for _, k := range list {
			if k.ID == id {
				name = k.Name
			}
		}
	}
	if err := keys.Revoke(ctx, id); err != nil {
		return apikeyError(stderr, prog, err)
	}
	auditCLI(ctx, stderr, auditLog, audit.KeyRevoked, name, id)
	fmt.Fprintf(stdout, "API key %s revoked\n", id)
	return 0
}

// dash is a text in a list, "-" when empty.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// when is a time in a list: RFC 3339 in UTC, "-" when unset.
func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

// apikeyError explains a refusal in one line and returns its exit status.
func apikeyError(stderr io.Writer, prog string, err error) int {
	var fe *checkout.ValidationError
	switch {
	case errors.As(err, &fe):
		for _, v := range fe.For("name") {
			fmt.Fprintf(stderr, "checkout apikey: the name %s\n", v.Message)
		}
	case errors.Is(err, checkout.ErrNotFound):
		fmt.Fprintf(stderr, "checkout apikey: no API key has that id (%s apikey list shows them)\n", prog)
	default:
		fmt.Fprintln(stderr, "checkout apikey:", err)
	}
	return 1
}
