package app_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	dto "github.com/prometheus/client_model/go"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// pgbouncer runs a PgBouncer of its own (Debian's package, installed by e2e/setup.sh) in front
// of the PostgreSQL server of dbURL, in transaction pooling with trust authentication, on a
// free port, and returns dbURL's database through it. It is stopped, by its pidfile, at the
// test's end. Without the program the test fails in CI and is skipped, loudly, elsewhere.
func pgbouncer(t *testing.T, dbURL string) string {
	t.Helper()
	bin, err := exec.LookPath("pgbouncer")
	if err != nil {
		bin, err = exec.LookPath("/usr/sbin/pgbouncer")
	}
	if err != nil {
		msg := "pgbouncer is not installed (e2e/setup.sh installs Debian's)"
		if os.Getenv("CHECKOUT_TEST_ALLOW_SKIP") != "1" || os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPING THE PGBOUNCER TEST: " + msg)
	}
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	// Its own directory, which the user it runs as (postgres, when started by root: PgBouncer
	// refuses to run as root) may write its log and pidfile in.
	dir, err := os.MkdirTemp("", "pgbouncer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	user := u.User.Username()
	if user == "" {
		user = "postgres"
	}
	pgPort := u.Port()
	if pgPort == "" {
		pgPort = "5432"
	}
	ini := filepath.Join(dir, "pgbouncer.ini")
	pidfile := filepath.Join(dir, "pgbouncer.pid")
	conf := fmt.Sprintf(`[databases]
* = host=%s port=%s

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = %d
unix_socket_dir =
auth_type = trust
auth_file = %s
pool_mode = transaction
default_pool_size = 20
max_client_conn = 200
pidfile = %s
logfile = %s
`, u.Hostname(), pgPort, port, filepath.Join(dir, "users.txt"), pidfile, filepath.Join(dir, "pgbouncer.log"))
	for name, text := range map[string]string{ini: conf, filepath.Join(dir, "users.txt"): fmt.Sprintf("%q \"\"\n", user)} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"-d", ini}
	if os.Geteuid() == 0 {
		args = []string{"-d", "-u", "postgres", ini}
	}
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("starting pgbouncer: %v: %s", err, out)
	}
	t.Cleanup(func() {
		b, err := os.ReadFile(pidfile)
		if err != nil {
			t.Errorf("pgbouncer's pidfile: %v", err)
			return
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid <= 0 {
			return
		}
		_ = syscall.Kill(pid, syscall.SIGTERM)
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if syscall.Kill(pid, 0) != nil {
				return
			}
		}
		t.Errorf("pgbouncer (PID %d) did not stop", pid)
	})
	// The daemon listens once it has forked: wait until it answers.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "pgbouncer.log"))
			t.Fatalf("pgbouncer does not listen: %v\n%s", err, log)
		}
	}
	through := *u
	through.Host = fmt.Sprintf("127.0.0.1:%d", port)
	q := through.Query()
	q.Set("sslmode", "disable")
	// Nothing prepared across transactions, as the README advises behind PgBouncer.
	q.Set("default_query_exec_mode", "exec")
	through.RawQuery = q.Encode()
	return through.String()
}

// passes are an instance's reconciler passes by result, as its metrics say.
func (r *running) passes() map[string]float64 {
	got := map[string]float64{}
	for _, m := range r.scrape()["checkout_reconciler_passes_total"].GetMetric() {
		got[label(m, "result")] = m.GetCounter().GetValue()
	}
	return got
}

// label is the value of a metric's label.
func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// TestBehindPgBouncer: two instances whose pool goes through a real PgBouncer in transaction
// pooling. Without a direct URL the start stops, naming CHECKOUT_DATABASE_DIRECT_URL (LISTEN
// and the lease would fail without a word); search_path in the pooled URL stops it naming what
// to do. With CHECKOUT_DATABASE_DIRECT_URL straight to PostgreSQL, a payment made through one
// instance reaches a stream open on the other, and exactly one of them reconciles (the other
// is on standby); /readyz and the metrics say the change feed listens.
func TestBehindPgBouncer(t *testing.T) {
	t.Parallel()
	dbURL := postgresDatabase(t)
	pooled := pgbouncer(t, dbURL)
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", t.TempDir(), "-addr", "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	cfg.DatabaseURL, cfg.SecretKey = pooled, postgresSecretKey
	var ce *app.ConfigError
	if err := newApp(t, cfg); !errors.As(err, &ce) || ce.Var != "CHECKOUT_DATABASE_DIRECT_URL" || !strings.Contains(err.Error(), "session") {
		t.Errorf("a start whose LISTEN and lease would go through PgBouncer: %v", err)
	}
	withPath := cfg
	withPath.DatabaseURL, withPath.DatabaseDirectURL = pooled+"&search_path=public", dbURL
	if err := newApp(t, withPath); !errors.As(err, &ce) || ce.Var != "CHECKOUT_DATABASE_URL" || !strings.Contains(err.Error(), "search_path") ||
		!strings.Contains(err.Error(), "ALTER ROLE") {
		t.Errorf("search_path in the pooled URL: %v", err)
	}

	behind := func(c *app.Config) {
		c.DatabaseURL, c.DatabaseDirectURL = pooled, dbURL
		c.MetricsAddr, c.ReconcileInterval = "127.0.0.1:0", 50*time.Millisecond
	}
	logs := &lockedBuffer{}
	a := start(t, func(c *app.Config) { behind(c); c.LogOutput = logs })
	b := start(t, behind)
	pay := a.placeOrder()
	lines, body := b.awaitingStream(pay)
	if lines == nil {
		t.Fatal("B's stream never showed the order awaiting payment")
	}
	defer body.Close()
	if res := a.post(pay+"/sandbox-pay", url.Values{}); res.StatusCode != 303 {
		t.Fatalf("sandbox-pay on A: %d", res.StatusCode)
	}
	if !waitData(t, lines, `"paid"`) {
		t.Fatal("B's stream ended before paid")
	}

	// Both make passes; one reconciles, the other waits on standby.
	var pa, pb map[string]float64
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		pa, pb = a.passes(), b.passes()
		if pa["ok"]+pa["standby"] >= 5 && pb["ok"]+pb["standby"] >= 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("too few reconciler passes: A %v, B %v", pa, pb)
		}
	}
	reconciling := 0
	for _, p := range []map[string]float64{pa, pb} {
		switch {
		case p["ok"] > 0 && p["standby"] == 0:
			reconciling++
		case p["ok"] == 0 && p["standby"] > 0:
		default:
			t.Errorf("an instance both reconciled and waited: %v", p)
		}
	}
	if reconciling != 1 {
		t.Errorf("%d instances reconcile (A %v, B %v), want exactly one", reconciling, pa, pb)
	}
	for _, r := range []*running{a, b} {
		if _, body := r.readyz(); body["changeFeed"] != "ok" {
			t.Errorf("/readyz %v, want changeFeed ok", body)
		}
		if v := value(r.scrape(), "checkout_change_feed_up"); v != 1 {
			t.Errorf("checkout_change_feed_up %v, want 1", v)
		}
	}

	// The feed's connection cut (its server process ended, as when the network drops it): the
	// log says so, and that it listens again.
	conn, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		l := logs.String()
		failing := strings.Index(l, "change feed failing")
		if failing >= 0 && strings.Contains(l[failing:], "change feed listening again") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cut feed is not logged, or not back:\n%s", l)
		}
	}
}
