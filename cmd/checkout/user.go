package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

const userUsage = `Usage:
  %[1]s user add [-password-stdin] -role ROLE EMAIL
  %[1]s user reset-password [-password-stdin] EMAIL
  %[1]s user list

Manages the dashboard's users in the checkout's database, found as the server finds it
(CHECKOUT_DATABASE_URL, else SQLite in CHECKOUT_DATA_DIR; or the flags -database-url and
-data-dir). Without -password-stdin a random password is made and printed once; with it, the
first line of the standard input is the password, so that it never appears in the process
list or the shell's history: at least 8 characters, and none that is easy to guess (common
and breached passwords, words and names, keyboard patterns, sequences, repeats, dates, the
e-mail itself are refused, with the reason). A new password ends the user's sessions.
ROLE is owner (everything), developer (API keys, notifications, the audit log; reads the
rest), operator (orders, products, payment links; reads deposits and withdrawals), viewer
(reads, exports; changes nothing) or cashier (the point of sale and its own account only;
given every terminal until an owner narrows them).

Flags:
`

// runUser is `checkout user …`; it returns the exit status: 0 done, 1 refused (a taken or
// unknown e-mail, an invalid password), 2 bad usage or configuration.
func runUser(prog string, args []string, env func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	var fromStdin bool
	var roleFlag string
	cmd, rest, cfg, code, ok := subcommand{name: "checkout user", prog: prog, usage: userUsage,
		operands: map[string]string{"add": "EMAIL", "reset-password": "EMAIL"},
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&fromStdin, "password-stdin", false, "read the password from the first line of the standard input")
			fs.StringVar(&roleFlag, "role", "", "the new user's role (add only, required): owner, developer, operator, viewer or cashier")
		},
		valid: func(verb string, rest []string) bool { return userArgsValid(verb, rest, fromStdin, roleFlag) },
	}.parse(args, env, stderr)
	if !ok {
		return code
	}
	var role team.Role
	if cmd == "add" {
		var err error
		if role, err = team.ParseRole(roleFlag); err != nil {
			fmt.Fprintf(stderr, "checkout user: -role is required: owner, developer, operator, viewer or cashier (got %q)\n", roleFlag)
			return 2
		}
	}
	password, generated, ok := userPassword(cmd, fromStdin, stdin, stderr)
	if !ok {
		return 1
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	acc, auditLog, closeStore, err := app.OpenAccounts(ctx, cfg)
	if err != nil {
		return openFailed(stderr, "checkout user", err)
	}
	defer closeStore()

	email := ""
	if len(rest) == 1 {
		email = team.NormalizeEmail(rest[0])
	}
	switch cmd {
	case "list":
		return listUsers(ctx, acc, stdout, stderr)
	case "add":
		if _, err := acc.AddUser(ctx, email, password, role); err != nil {
			return userError(stderr, prog, err)
		}
		auditCLI(ctx, stderr, auditLog, audit.UserAdded, email, "role: "+string(role))
		fmt.Fprintf(stdout, "user %s added as %s\n", email, role)
	case "reset-password":
		if err := acc.ResetPassword(ctx, email, password); err != nil {
			return userError(stderr, prog, err)
		}
		auditCLI(ctx, stderr, auditLog, audit.PasswordReset, email, "")
		fmt.Fprintf(stdout, "password of %s changed; their sessions are over\n", email)
	}
	if generated {
		fmt.Fprintf(stdout, "password (shown only now): %s\n", password)
	}
	return 0
}

// userArgsValid reports whether the verb of `checkout user` has its operands and flags.
func userArgsValid(verb string, rest []string, fromStdin bool, roleFlag string) bool {
	switch verb {
	case "list":
		return len(rest) == 0 && !fromStdin && roleFlag == ""
	case "add":
		return len(rest) == 1
	case "reset-password":
		return len(rest) == 1 && roleFlag == ""
	}
	return false
}

// userPassword is the password of `checkout user add` or `reset-password`: the first line of
// stdin with -password-stdin, otherwise one generated (then generated is true); "" for list.
// When ok is false the reason is on stderr.
func userPassword(cmd string, fromStdin bool, stdin io.Reader, stderr io.Writer) (password string, generated, ok bool) {
	if fromStdin {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintln(stderr, "checkout user: reading the password:", err)
			return "", false, false
		}
		password = strings.TrimRight(line, "\r\n")
	}
	if cmd != "list" && password == "" {
		if fromStdin {
			fmt.Fprintln(stderr, "checkout user: the standard input holds no password")
			return "", false, false
		}
		return team.RandomPassword(), true, true
	}
	return password, false, true
}

// listUsers is `checkout user list`: the users as a table on stdout.
func listUsers(ctx context.Context, acc *team.Accounts, stdout, stderr io.Writer) int {
	users, err := acc.Users(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "checkout user:", err)
		return 1
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EMAIL\tROLE\tCREATED\tPASSWORD CHANGED\tLAST SIGN-IN")
	for _, u := range users {
		last := "never"
		if !u.LastSignInAt.IsZero() {
			last = u.LastSignInAt.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", u.Email, u.Role, u.CreatedAt.UTC().Format(time.RFC3339),
			u.UpdatedAt.UTC().Format(time.RFC3339), last)
	}
	_ = tw.Flush()
	return 0
}

// userError explains a refusal in one line and returns its exit status; prog is how the user
// runs the program.
func userError(stderr io.Writer, prog string, err error) int {
	var fe *checkout.ValidationError
	switch {
	case errors.As(err, &fe):
		for _, field := range []string{team.FieldEmail, team.FieldPassword} {
			for _, v := range fe.For(field) {
				fmt.Fprintf(stderr, "checkout user: %s %s\n", field, v.Message)
			}
		}
	case errors.Is(err, team.ErrEmailTaken):
		fmt.Fprintln(stderr, "checkout user: a user with that e-mail already exists (use reset-password)")
	case errors.Is(err, checkout.ErrNotFound):
		fmt.Fprintf(stderr, "checkout user: no user has that e-mail (%s user list shows them)\n", prog)
	default:
		fmt.Fprintln(stderr, "checkout user:", err)
	}
	return 1
}

// auditCLI records in the audit log what a command changed, with the actor audit.ActorCLI.
// A failure is told but does not undo the change.
func auditCLI(ctx context.Context, stderr io.Writer, auditLog *audit.Log, action, object, detail string) {
	if err := auditLog.Record(ctx, audit.Entry{Actor: audit.ActorCLI, Action: action, Object: object, Detail: detail}); err != nil {
		fmt.Fprintln(stderr, "checkout: the audit log:", err)
	}
}
