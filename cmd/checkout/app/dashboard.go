package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// accessPruneInterval is how often expired sessions and old failed sign-ins are deleted.
const accessPruneInterval = 10 * time.Minute

// firstUser is the dashboard user made at this start with a random password.
type firstUser struct{ email, password string }

// setupAccounts builds the dashboard's accounts on the store and makes the first user:
// CHECKOUT_ADMIN_EMAIL (with CHECKOUT_ADMIN_PASSWORD, or a random password) when it does not
// exist yet, else admin@localhost with a random password when there is no user at all. A
// random password is kept to be printed once by the banner; it is never logged.
func (a *App) setupAccounts(ctx context.Context) error {
	a.accounts = team.NewAccounts(a.store, a.store, team.AccountsOptions{Clock: a.cfg.Clock, Hasher: a.cfg.Passwords, Invitations: a.store, Sessions: a.store, TOTP: a.store,
		PasswordResets: a.store})
	u, generated, err := a.accounts.EnsureAdmin(ctx, a.cfg.AdminEmail, a.cfg.AdminPassword)
	if err != nil {
		return fmt.Errorf("app: the first dashboard user: %w", err)
	}
	if u != nil {
		a.log.Info("dashboard user created", "user", u.ID)
		if generated != "" {
			a.firstUser = &firstUser{email: u.Email, password: generated}
		}
	}
	return nil
}

// Accounts returns the dashboard's accounts (for tests and the user command).
func (a *App) Accounts() *team.Accounts { return a.accounts }

// Audit returns the dashboard's audit log (for tests).
func (a *App) Audit() *audit.Log { return a.audit }

// pruneAccess deletes expired sessions and forgotten failed sign-ins every interval until ctx
// ends, in small statements that never hold up a shopper.
func (a *App) pruneAccess(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if n, err := a.store.SignInTokens().PruneSignInTokens(ctx, time.Now()); err != nil {
			a.log.Warn("pruning sessions", "err", err)
		} else if n > 0 {
			a.log.Info("pruned sessions", "count", n)
		}
		if _, err := a.accounts.Prune(ctx); err != nil {
			a.log.Warn("pruning failed sign-ins", "err", err)
		}
		if _, err := a.accounts.PruneSignIns(ctx); err != nil {
			a.log.Warn("pruning users' sessions", "err", err)
		}
		if _, err := a.audit.Prune(ctx); err != nil {
			a.log.Warn("pruning the audit log", "err", err)
		}
		if _, err := a.exports.Prune(ctx); err != nil {
			a.log.Warn("pruning the dashboard's exports", "err", err)
		}
	}
}

// dashboardBanner prints where the dashboard is and, once, the password of a first user made
// at this start: the only time it is ever shown.
func (a *App) dashboardBanner(w io.Writer, public string) {
	fmt.Fprintf(w, "  dashboard:       %s%s\n", public, dashboard.Path)
	if f := a.firstUser; f != nil {
		a.firstUser = nil
		cmd := a.cfg.Command
		if cmd == "" {
			cmd = DefaultCommand
		}
		printFirstUser(w, f, cmd)
	}
}

// printFirstUser shows the first user's credentials with what to do with them, cmd being
// how the user runs the program.
func printFirstUser(w io.Writer, f *firstUser, cmd string) {
	fmt.Fprintf(w, "    first dashboard user: %s\n    password (shown only now): %s\n"+
		"    change it with: %s user reset-password %s\n", f.email, f.password, cmd, f.email)
}

// OpenAccounts opens the configured store, which a server must have made (a *ConfigError
// says so otherwise), and returns the dashboard's accounts on it and its audit log, for the
// `checkout user` command. Call close when done.
func OpenAccounts(ctx context.Context, cfg Config) (acc *team.Accounts, log *audit.Log, closeStore func() error, err error) {
	st, err := openExisting(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	return team.NewAccounts(st, st, team.AccountsOptions{Clock: cfg.Clock, Hasher: cfg.Passwords, Invitations: st, Sessions: st, TOTP: st, PasswordResets: st}),
		audit.New(st, cfg.AuditRetention, cfg.Clock), st.Close, nil
}
