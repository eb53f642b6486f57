// Command gateway-sandbox runs the PIX gateway sandbox as a standalone server: the gateway's
// API at the root of SANDBOX_ADDR, simulation controls under /sandbox/, state in
// SANDBOX_DATA_DIR.
//
// Configuration comes from the environment, each variable also a flag named as in
// cmd/checkout: the variable without its prefix, in lower case, with dashes (a flag wins):
//
//	SANDBOX_ADDR                 -addr                listen address (127.0.0.1:8090)
//	SANDBOX_DATA_DIR             -data-dir            state directory (./sandbox-data)
//	SANDBOX_CLIENT_ID            -client-id           the accepted client id (sandbox-client)
//	SANDBOX_CLIENT_SECRET        -client-secret       its secret (sandbox-secret)
//	SANDBOX_WEBHOOK_FORWARD_TO   -webhook-forward-to  also deliver every webhook to this URL (none)
//	SANDBOX_RATE_LIMIT           -rate-limit          POST /transaction limit per client: 50/s, 1000/s, 3000/m, off (50/s)
//
// The flags' former spelling, the variable in lower case (-sandbox_addr), still works. -h lists
// the flags with their defaults. Bad configuration stops it with one line naming the variable,
// or the flag when the value came from one, and exit status 2.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

func main() {
	os.Exit(mainExit(os.Args[1:], os.Getenv, os.Stdout, os.Stderr, nil))
}

// mainExit is the whole program: it reads the configuration from args and getenv, serves
// until SIGINT or SIGTERM, then shuts down gracefully. It returns the exit status: 2 for bad
// configuration, 1 when serving fails, 0 after a clean shutdown. ready is as for run.
func mainExit(args []string, getenv func(string) string, stdout, stderr io.Writer, ready func(addr string)) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg, err := parseConfig(args, getenv)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(stdout)
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "gateway-sandbox:", err)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	if err := run(ctx, cfg, stdout, logger, ready); err != nil {
		fmt.Fprintln(stderr, "gateway-sandbox:", err)
		return 1
	}
	return 0
}

// config is the server's configuration.
type config struct {
	Addr         string
	DataDir      string
	ClientID     string
	ClientSecret string
	ForwardTo    string
	RateLimit    sandbox.RateLimit
	rateLimit    string // as given, read into RateLimit
}

// setting is one configuration variable: its name, default, meaning and destination.
type setting struct {
	env, def, usage string
	dst             *string
}

// settings lists the configuration variables, writing into c.
func settings(c *config) []setting {
	return []setting{
		{"SANDBOX_ADDR", "127.0.0.1:8090", "listen address (host:port)", &c.Addr},
		{"SANDBOX_DATA_DIR", "./sandbox-data", "state directory (SQLite database, signing key)", &c.DataDir},
		{"SANDBOX_CLIENT_ID", "sandbox-client", "the client id the sandbox accepts", &c.ClientID},
		{"SANDBOX_CLIENT_SECRET", "sandbox-secret", "its secret (at least 8 characters)", &c.ClientSecret},
		{"SANDBOX_WEBHOOK_FORWARD_TO", "", "also deliver every webhook to this URL (https, or http on loopback)", &c.ForwardTo},
		{"SANDBOX_RATE_LIMIT", "50/s", "POST /transaction limit per client: requests per period (50/s, 1000/s, 3000/m; bursts of twice that, or \"50/s burst 200\") or off", &c.rateLimit},
	}
}

// flagName is the flag of a variable: SANDBOX_DATA_DIR is -data-dir.
func flagName(env string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(env, "SANDBOX_")), "_", "-")
}

// flagSet registers every setting as a flag (flagName), whose default is the variable's value
// when set, else the built-in default; with aliases, also under the former spelling, the
// variable in lower case.
func flagSet(c *config, getenv func(string) string, aliases bool) *flag.FlagSet {
	fs := flag.NewFlagSet("gateway-sandbox", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported in one line by the caller; -h by printUsage
	for _, s := range settings(c) {
		v := s.def
		if e := getenv(s.env); e != "" {
			v = e
		}
		fs.StringVar(s.dst, flagName(s.env), v, s.usage+" (env "+s.env+")")
		if aliases {
			fs.StringVar(s.dst, strings.ToLower(s.env), v, "")
		}
	}
	return fs
}

// printUsage lists the flags with their built-in defaults (-h), never values from the
// environment, which may hold a secret.
func printUsage(w io.Writer) {
	var c config
	fs := flagSet(&c, func(string) string { return "" }, false)
	fs.SetOutput(w)
	fmt.Fprintln(w, "Usage: gateway-sandbox [flags]")
	fmt.Fprintln(w, "Runs the PIX gateway sandbox: the gateway API at the root, controls and the console under /sandbox/.")
	fmt.Fprintln(w, "Each flag can also be set with the environment variable named beside it; a flag wins.")
	fmt.Fprintln(w)
	fs.PrintDefaults()
}

// parseConfig reads the environment (through getenv) and then the flags in args. -h gives
// flag.ErrHelp. A problem names the variable, or the flag when the value came from one.
func parseConfig(args []string, getenv func(string) string) (config, error) {
	var c config
	fs := flagSet(&c, getenv, true)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return config{}, err
		}
		return config{}, fmt.Errorf("flags: %w", err)
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fromFlag := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { fromFlag[strings.ReplaceAll(f.Name, "_", "-")] = true })
	name := func(env string) string {
		if n := flagName(env); fromFlag[n] || fromFlag["sandbox-"+n] {
			return "-" + n
		}
		return env
	}
	if err := c.check(name); err != nil {
		return config{}, err
	}
	return c, nil
}

// check checks the settings and reads the rate limit; a problem names the variable as name
// does.
func (c *config) check(name func(env string) string) error {
	if _, port, err := net.SplitHostPort(c.Addr); err != nil || port == "" {
		return fmt.Errorf("%s: %q is not host:port", name("SANDBOX_ADDR"), c.Addr)
	}
	if strings.TrimSpace(c.DataDir) == "" {
		return fmt.Errorf("%s: must not be empty", name("SANDBOX_DATA_DIR"))
	}
	if strings.TrimSpace(c.ClientID) == "" || strings.ContainsAny(c.ClientID, " \t\r\n") {
		return fmt.Errorf("%s: must be a non-empty word", name("SANDBOX_CLIENT_ID"))
	}
	if len(c.ClientSecret) < 8 {
		return fmt.Errorf("%s: must have at least 8 characters", name("SANDBOX_CLIENT_SECRET"))
	}
	rl, err := ratelimit.Parse(c.rateLimit)
	if err != nil {
		return fmt.Errorf("%s: %w", name("SANDBOX_RATE_LIMIT"), err)
	}
	c.RateLimit = rl
	if msg := forwardProblem(c.ForwardTo); msg != "" {
		return fmt.Errorf("%s: %s", name("SANDBOX_WEBHOOK_FORWARD_TO"), msg)
	}
	return nil
}

// forwardProblem is what is wrong with a webhook forwarding URL ("" when nothing is, or none
// is set).
func forwardProblem(v string) string {
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Sprintf("%q is not an http or https URL", v)
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return "plain http is allowed on a loopback host only"
	}
	return ""
}

// isLoopback reports whether host is localhost or a loopback address.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// run serves the sandbox until ctx is done, then shuts down gracefully. ready, when not nil,
// receives the address actually listened on (for tests listening on port 0).
func run(ctx context.Context, cfg config, out io.Writer, logger *slog.Logger, ready func(addr string)) error {
	sb, err := sandbox.New(ctx, sandbox.Options{
		DataDir:          cfg.DataDir,
		Clients:          []sandbox.ClientConfig{{ID: cfg.ClientID, Secret: cfg.ClientSecret}},
		Logger:           logger,
		WebhookForwardTo: cfg.ForwardTo,
		RateLimit:        cfg.RateLimit,
	})
	if err != nil {
		return err
	}
	defer sb.Close()
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("SANDBOX_ADDR: %w", err)
	}
	srv := &http.Server{
		Handler:           http.MaxBytesHandler(sb, 2<<20),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      5 * time.Minute, // POST sandbox/seed of a million records takes about a minute
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	c, _ := sb.Client(cfg.ClientID)
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(out, "PIX gateway sandbox listening on %s\n", base)
	fmt.Fprintf(out, "  client id:      %s\n  client secret:  %s\n  webhook secret: %s\n  console:        %s/sandbox/\n",
		c.ID, c.Secret, c.WebhookSecret, base)
	fmt.Fprintf(out, "  POST /transaction limit: %s per client\n", cfg.RateLimit)
	if cfg.ForwardTo != "" {
		fmt.Fprintf(out, "  webhooks also forwarded to %s\n", cfg.ForwardTo)
	}

	bg, stopBG := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); sb.Run(bg) }()
	defer func() { stopBG(); wg.Wait() }()

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if ready != nil {
		ready(ln.Addr().String())
	}
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("stopping: finishing the requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		logger.Error("stopped", "err", err)
		return fmt.Errorf("shutdown: %w", err)
	}
	logger.Info("stopped")
	fmt.Fprintln(out, "PIX gateway sandbox stopped")
	return nil
}
