// Command checkout serves the PIX checkout. With no configuration it runs a complete demo shop:
// SQLite in ./data, the sandbox gateway embedded under /sandbox/gateway, a seeded catalogue.
// Every setting is an environment variable and a flag (-h lists them); bad configuration stops
// it with one line naming the variable (or the flag) and exit status 2.
//
// The same program manages what the server keeps: `go run ./cmd/checkout apikey
// create|list|revoke` the merchant API's keys, `go run ./cmd/checkout user
// add|reset-password|list` the dashboard's users, `backup FILE` and `restore FILE` the SQLite
// database, `secret-key new|rotate` the key sealing the secrets kept in the database, and `version`
// prints the release (`go run ./cmd/checkout COMMAND -h` tells more; README.md beside this file,
// backups, releases and upgrades). A binary built with `go build -o checkout ./cmd/checkout` takes the same arguments;
// the texts that tell the user what to run name the program as it was started.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

func main() {
	os.Exit(run(invocation(os.Args[0]), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// invocation is how the user ran the program, as the texts that tell them what to run next
// say it: app.DefaultCommand when `go run` built it (into a temporary go-buildNNN directory, or
// Go's build cache, .../go-build/...), else the name it was started by ("./checkout", or
// "checkout" found on the PATH).
func invocation(arg0 string) string {
	if arg0 == "" || strings.Contains(filepath.ToSlash(arg0), "/go-build") {
		return app.DefaultCommand
	}
	return arg0
}

// command is a subcommand of the binary: `checkout NAME args…`.
type command struct {
	// run runs it and returns the exit status; prog is how the user runs the program.
	run  func(prog string, args []string, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) int
	help string // one line for -h
}

// commands are the subcommands, by name; without one the binary serves.
var commands = map[string]command{
	"apikey":  {runAPIKey, "create, list and revoke the merchant API's keys"},
	"backup":  {runBackup, "write a consistent copy of the SQLite database while the server runs"},
	"restore": {runRestore, "replace the SQLite database with a backup (server stopped)"},
	"user":    {runUser, "add dashboard users, reset their passwords, list them"},
	"version": {runVersion, "print the release and the source revision the binary was built from"},
	"secret-key": {runSecretKey,
		"make or rotate the key sealing the secrets kept in the database"},
}

// commandsUsage lists the subcommands for -h.
func commandsUsage(prog string) string {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "\nCommands (%s COMMAND -h tells more):\n\n", prog)
	for _, n := range names {
		fmt.Fprintf(&b, "  %s %s\t%s\n", prog, n, commands[n].help)
	}
	return b.String()
}

// run is the program with its inputs and outputs passed in, prog being how the user runs it
// (see invocation); it returns the exit status: 0 after a clean shutdown, 2 for bad
// configuration, 1 for any other failure.
func run(prog string, args []string, env func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "help" { // `checkout help [COMMAND]` is -h, of the command when named
		args = append(args[1:], "-h")
	}
	if len(args) > 0 {
		if cmd, ok := commands[args[0]]; ok {
			return cmd.run(prog, args[1:], env, os.Stdin, stdout, stderr)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, prog, args, env, stdout, stderr)
}

// serve is the server: it reads the configuration from args and env and serves until ctx
// ends. It returns the exit status as run does.
func serve(ctx context.Context, prog string, args []string, env func(string) string, stdout, stderr io.Writer) int {
	cfg, err := app.Load(env, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(stdout, app.Usage(prog)+commandsUsage(prog))
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	cfg.Stdout = stdout
	cfg.Command = prog
	// Each line is written as it is logged, with nothing held back: a line the program logged
	// is in the log even if the process is killed the next moment.
	cfg.LogOutput = stderr

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		fmt.Fprintf(stderr, "config: %s: cannot listen on %s: %v\n", cfg.Name("CHECKOUT_ADDR"), cfg.Addr, err)
		return 2
	}
	a, err := app.New(ctx, cfg, ln)
	if err != nil {
		ln.Close()
		var ce *app.ConfigError
		if errors.As(err, &ce) {
			fmt.Fprintln(stderr, err)
			return 2
		}
		fmt.Fprintln(stderr, "checkout:", err)
		return 1
	}
	defer a.Close()
	if err := a.Serve(ctx); err != nil {
		fmt.Fprintln(stderr, "checkout:", err)
		return 1
	}
	return 0
}
