package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // the checkout's SQLite driver

	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// seedOrders writes o.seedOrders synthetic orders, shaped like a shop's (storetest.SeedOrders:
// a year of them up to now), into o.seedDB: a PostgreSQL URL, or the path of the checkout's
// SQLite file, made by a first start of the checkout (its schema and first user) and written
// while it is stopped.
func seedOrders(ctx context.Context, o options, stdout, stderr io.Writer) int {
	start := time.Now()
	var err error
	if strings.HasPrefix(o.seedDB, "postgres://") || strings.HasPrefix(o.seedDB, "postgresql://") {
		err = seedPostgres(ctx, o.seedDB, storetest.SeedOrders("postgres", o.seedOrders, start))
	} else {
		err = seedSQLite(ctx, o.seedDB, storetest.SeedOrders("sqlite", o.seedOrders, start))
	}
	if err != nil {
		fmt.Fprintln(stderr, "loadtest: seeding:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%d orders written in %s\n", o.seedOrders, time.Since(start).Round(time.Second))
	return 0
}

func seedSQLite(ctx context.Context, path string, stmts []string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return err
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	_, err = db.ExecContext(ctx, "ANALYZE")
	return err
}

func seedPostgres(ctx context.Context, u string, stmts []string) error {
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	for _, q := range stmts {
		if _, err := conn.Exec(ctx, q); err != nil {
			return err
		}
	}
	// What autovacuum does after a bulk load, at once: the orders, and the daily totals their
	// triggers rewrote at each row (a dead row version each).
	_, err = conn.Exec(ctx, "VACUUM ANALYZE orders, money_days")
	return err
}

// timeDashboard signs in to the dashboard as o.email and GETs o.dashboard o.n times, one after
// another (after 5 unmeasured ones), and reports the latency's percentiles: the time to the
// whole answer, from outside the process, as a browser waits for it.
func timeDashboard(ctx context.Context, o options, stdout, stderr io.Writer) int {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: o.timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.PostForm(o.url+"/dashboard/login", url.Values{"email": {o.email}, "password": {o.password}})
	if err == nil {
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			err = fmt.Errorf("sign-in answered %d", res.StatusCode)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	get := func() (time.Duration, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, o.url+o.dashboard, nil)
		req.Header.Set("Accept", "text/html")
		start := time.Now()
		res, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		_, err = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if err == nil && res.StatusCode != http.StatusOK {
			err = fmt.Errorf("%s answered %d", o.dashboard, res.StatusCode)
		}
		return time.Since(start), err
	}
	var took []time.Duration
	for i := range o.n + 5 {
		d, err := get()
		if err != nil {
			fmt.Fprintln(stderr, "loadtest:", err)
			return 1
		}
		if i >= 5 {
			took = append(took, d)
		}
	}
	slices.Sort(took)
	pct := func(p int) string {
		return fmt.Sprintf("%.1f", float64(took[min(len(took)-1, len(took)*p/100)].Microseconds())/1000)
	}
	fmt.Fprintf(stdout, "GET %s × %d: p50 %s ms, p95 %s ms, p99 %s ms, max %s ms\n", o.dashboard, len(took),
		pct(50), pct(95), pct(99), fmt.Sprintf("%.1f", float64(took[len(took)-1].Microseconds())/1000))
	return 0
}
