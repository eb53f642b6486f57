package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// subcommand is what the shell commands over the checkout's database (`checkout user …`,
// `checkout apikey …`) share: the verb, the flags that find the database as the server finds it
// (-data-dir, -database-url, else the environment), and the usage text on bad input.
type subcommand struct {
	name  string // "checkout user"
	prog  string // how the user runs the program ("go run ./cmd/checkout")
	usage string // printed before the flags' defaults, its %[1]s standing for prog
	// valid reports whether the verb and the arguments left after the flags make a command.
	valid func(verb string, rest []string) bool
	// flags, when set, adds the command's own flags (called before parsing).
	flags func(fs *flag.FlagSet)
	// noVerb: the command takes no verb, its flags come first (`checkout backup FILE`).
	noVerb bool
	// operands name, by verb ("" when noVerb), what follows the flags in the usage ("NAME",
	// "EMAIL"): the word the refusal of a flag after it uses.
	operands map[string]string
}

// parse reads args (the verb first unless noVerb, then flags and arguments) and loads the configuration.
// With ok false the command is over and code is its exit status: 0 after a help request, 2 for
// bad usage or configuration (the reason and the usage are on stderr).
func (s subcommand) parse(args []string, env func(string) string, stderr io.Writer) (verb string, rest []string, cfg app.Config, code int, ok bool) {
	fs := flag.NewFlagSet(s.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataDir := fs.String("data-dir", "", "directory of the SQLite database (CHECKOUT_DATA_DIR)")
	dbURL := fs.String("database-url", "", "postgres://… for PostgreSQL (CHECKOUT_DATABASE_URL)")
	if s.flags != nil {
		s.flags(fs)
	}
	usage := func() {
		fmt.Fprintf(stderr, s.usage, s.prog)
		fs.SetOutput(stderr)
		fs.PrintDefaults()
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage()
		if len(args) == 0 {
			return "", nil, app.Config{}, 2, false
		}
		return "", nil, app.Config{}, 0, false
	}
	if !s.noVerb {
		verb, args = args[0], args[1:]
		if strings.HasPrefix(verb, "-") {
			fmt.Fprintf(stderr, "%s: the command's verb comes first, then the flags (got %q first)\n", s.name, verb)
			usage()
			return "", nil, app.Config{}, 2, false
		}
	}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", s.name, err)
		usage()
		return "", nil, app.Config{}, 2, false
	}
	rest = fs.Args()
	// Go's flags stop at the first argument that is not one: a flag written after it would be
	// taken as part of it (`apikey create loja -scope read` would make a write key named
	// "loja -scope read"), so an argument that starts with "-" there is refused, and a name
	// that starts with "-" with it.
	if msg := s.flagAfterOperands(fs, verb, rest); msg != "" {
		fmt.Fprintf(stderr, "%s: %s\n", s.name, msg)
		usage()
		return "", nil, app.Config{}, 2, false
	}
	if !s.valid(verb, rest) {
		usage()
		return "", nil, app.Config{}, 2, false
	}
	cfg, err := app.Load(env, databaseFlags(*dataDir, *dbURL))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return "", nil, app.Config{}, 2, false
	}
	return verb, rest, cfg, 0, true
}

// flagAfterOperands says why an argument of rest that starts with "-" is refused ("" when none
// does).
func (s subcommand) flagAfterOperands(fs *flag.FlagSet, verb string, rest []string) string {
	for _, a := range rest {
		if strings.HasPrefix(a, "-") && a != "-" {
			return s.misplaced(fs, verb, a)
		}
	}
	return ""
}

// databaseFlags are the server's flags that find the database, those given to the command.
func databaseFlags(dataDir, dbURL string) []string {
	var flags []string
	if dataDir != "" {
		flags = append(flags, "-data-dir", dataDir)
	}
	if dbURL != "" {
		flags = append(flags, "-database-url", dbURL)
	}
	return flags
}

// misplaced says why arg, found after the verb's operands, is refused: a flag of the command
// goes before them; anything else starting with "-" cannot be one.
func (s subcommand) misplaced(fs *flag.FlagSet, verb, arg string) string {
	operand := s.operands[verb]
	if operand == "" {
		operand = "the arguments"
	}
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	if fs.Lookup(name) != nil {
		return fmt.Sprintf("flags go before %s (%s came after it)", operand, arg)
	}
	return fmt.Sprintf("%s cannot start with \"-\" (got %q); flags go before it", operand, arg)
}

// openFailed reports that the command could not open the database and returns its exit
// status: 2 for a configuration that names no database a server made (one line naming the
// variable), 1 for anything else.
func openFailed(stderr io.Writer, name string, err error) int {
	var ce *app.ConfigError
	if errors.As(err, &ce) {
		fmt.Fprintln(stderr, err)
		return 2
	}
	fmt.Fprintln(stderr, name+":", err)
	return 1
}
