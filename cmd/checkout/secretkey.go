package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/pixcheckout/pixcheckout/checkout/sealed"
)

const secretKeyUsage = `Usage:
  %[1]s secret-key new
  %[1]s secret-key rotate [-data-dir DIR]

The secrets the checkout keeps in its database (the merchant's notification signing secrets,
the dashboard users' two-factor secrets) are sealed with AES-256-GCM by a key kept outside it:
CHECKOUT_SECRET_KEY (base64 of 32 bytes; several separated by commas, the newest first), else
the file secret.key of the data dir, made with mode 0600 at the first start.

  new     prints a new random key, for CHECKOUT_SECRET_KEY.
  rotate  puts a new key first in the data dir's secret.key, keeping the older ones after it.

Every start of the server seals with the first key whatever another key sealed: after a rotation
(a new key first in the file or in CHECKOUT_SECRET_KEY, the old ones after it) restart the
server. Keep the old keys listed: a backup made before the rotation needs them.

Flags:
`

// runSecretKey is `checkout secret-key new|rotate`: 0 done, 1 failed, 2 bad usage.
func runSecretKey(prog string, args []string, env func(string) string, _ io.Reader, stdout, stderr io.Writer) int {
	verb, _, cfg, code, ok := subcommand{name: "checkout secret-key", prog: prog, usage: secretKeyUsage,
		valid: func(verb string, rest []string) bool { return (verb == "new" || verb == "rotate") && len(rest) == 0 }}.parse(args, env, stderr)
	if !ok {
		return code
	}
	if verb == "new" {
		fmt.Fprintln(stdout, sealed.NewKey())
		return 0
	}
	if cfg.SecretKey != "" {
		fmt.Fprintln(stderr, "checkout secret-key: the key comes from CHECKOUT_SECRET_KEY: put a new key (checkout secret-key new) first in it, the old ones after it, and restart the server")
		return 2
	}
	path := filepath.Join(cfg.DataDir, sealed.FileName)
	id, err := sealed.Rotate(path)
	if err != nil {
		fmt.Fprintln(stderr, "checkout secret-key:", err)
		return 1
	}
	fmt.Fprintf(stdout, "new secret key %s first in %s; restart the server to reseal the secrets with it\n", id, path)
	return 0
}
