package postgres_test

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/storetest"
)

// listOrders is the number of orders BenchmarkLists seeds. The default keeps `go test -bench .`
// quick; the figures of cmd/loadtest/README.md are at a million:
//
//	go test -run '^$' -bench BenchmarkLists -benchtime 200x -timeout 30m ./checkout/postgres -args -lists.orders=1000000
var listOrders = flag.Int("lists.orders", 10_000, "orders BenchmarkLists seeds in each store")

// BenchmarkLists measures the merchant's lists and overview on a store holding -lists.orders
// orders (default 10,000, and 3,000 with -short, as in the test command, where it only has to
// keep working; the targets are for 1,000,000), on SQLite and PostgreSQL: the
// dashboard's first page, a page 10,000 pages deep (by key; at most halfway down a smaller
// store), a status filter with a date range, a status filter alone (a common and a rare
// status), searches by a customer's e-mail, a customer's name and an order number (free text,
// through the text index), the first and a deep page of each sort (oldest first, by amount
// either way), the API's first page and the overview. Each
// reports its p99 in ms ("p99-ms"), the figure the targets are about (< 50 ms for lists,
// < 100 ms for the overview and the free-text search). The orders are seeded with one INSERT …
// SELECT per 100,000 rows (no lines, history or attempts: a list reads none).
func BenchmarkLists(b *testing.B) {
	n := *listOrders
	if testing.Short() {
		n = min(n, 3000)
	}
	now := time.Now()
	stores := map[string]func(b *testing.B) checkout.Store{
		"sqlite": func(b *testing.B) checkout.Store {
			path := filepath.Join(b.TempDir(), "checkout.db")
			s, err := sqlite.Open(context.Background(), path)
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { s.Close() })
			db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			for _, q := range storetest.SeedOrders("sqlite", n, now) {
				if _, err := db.Exec(q); err != nil {
					b.Fatalf("seeding: %v", err)
				}
			}
			return s
		},
		"postgres": func(b *testing.B) checkout.Store {
			u := newDatabase(b)
			s := open(b, u)
			withConn(b, u, func(ctx context.Context, conn *pgx.Conn) error {
				for _, q := range storetest.SeedOrders("postgres", n, now) {
					if _, err := conn.Exec(ctx, q); err != nil {
						return fmt.Errorf("seeding: %w", err)
					}
				}
				// What autovacuum does after a bulk load, at once: the orders, and the daily
				// totals their triggers rewrote at each row (a dead row version each).
				_, err := conn.Exec(ctx, "VACUUM ANALYZE orders, money_days")
				return err
			})
			return s
		},
	}
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			s := stores[name](b)
			ctx := context.Background()
			const perPage = 25 // the dashboard's
			// The key 10,000 pages down (by offset, once, to find it), or halfway down.
			depth := min(10_000*perPage, n/2)
			deep, _, err := s.OrderSummaries(ctx, checkout.OrderFilter{Limit: 1, Offset: depth})
			if err != nil || len(deep) != 1 {
				b.Fatalf("the deep key: %v", err)
			}
			deepKey := checkout.KeyOf(deep[0].CreatedAt, deep[0].ID)
			month := now.AddDate(0, 0, -30)
			email := fmt.Sprintf("cliente%d@example.com", n/3)
			type listCase struct {
				name string
				f    checkout.OrderFilter
				want func(rows []checkout.OrderSummary, total int) bool
			}
			lists := []listCase{
				{"first-page", checkout.OrderFilter{}, func(rows []checkout.OrderSummary, total int) bool {
					return len(rows) == perPage+1 && total == min(n, checkout.MaxCounted+1)
				}},
				{"deep-page", checkout.OrderFilter{Page: checkout.Cursor{Key: deepKey}}, func(rows []checkout.OrderSummary, _ int) bool {
					return len(rows) == perPage+1 && rows[0].CreatedAt.Before(deepKey.CreatedAt.Add(time.Millisecond))
				}},
				{"status-and-dates", checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusPaid},
					CreatedFrom: month, CreatedBefore: now.AddDate(0, 0, -1)}, func(rows []checkout.OrderSummary, _ int) bool {
					return len(rows) == perPage+1 && rows[0].Status == checkout.StatusPaid && rows[0].CreatedAt.Before(now.AddDate(0, 0, -1))
				}},
				{"status-paid", checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusPaid}}, func(rows []checkout.OrderSummary, _ int) bool {
					return len(rows) == perPage+1 && rows[0].Status == checkout.StatusPaid
				}},
				{"status-refunded", checkout.OrderFilter{Statuses: []checkout.OrderStatus{checkout.StatusRefunded}}, func(rows []checkout.OrderSummary, _ int) bool {
					return len(rows) == perPage+1 && rows[0].Status == checkout.StatusRefunded
				}},
				{"search-email", checkout.OrderFilter{Search: email}, func(rows []checkout.OrderSummary, total int) bool {
					return len(rows) == 1 && rows[0].CustomerEmail == email && total == 1
				}},
				{"search-name", checkout.OrderFilter{Search: "beatriz nogueira"}, func(rows []checkout.OrderSummary, _ int) bool {
					return len(rows) >= 1 && rows[0].CustomerName == "Beatriz Nogueira"
				}},
				{"search-number", checkout.OrderFilter{Search: fmt.Sprintf("px-%08d", n/5)}, func(rows []checkout.OrderSummary, total int) bool {
					return len(rows) == 1 && rows[0].Number == fmt.Sprintf("PX-%08d", n/5) && total == 1
				}},
				// The seeded orders are the shop's: a list of the shop's channel is the whole store,
				// one of charges reads the (empty) index of the charges' orders.
				{"channel-shop", checkout.OrderFilter{Channels: []checkout.Channel{checkout.ChannelShop}}, func(rows []checkout.OrderSummary, total int) bool {
					return len(rows) == perPage+1 && total == min(n, checkout.MaxCounted+1)
				}},
				{"channel-charge", checkout.OrderFilter{Channels: []checkout.Channel{checkout.ChannelCharge}}, func(rows []checkout.OrderSummary, total int) bool {
					return len(rows) == 0 && total == 0
				}},
				{"search-number-piece", checkout.OrderFilter{Search: fmt.Sprintf("%06d", n/5%1_000_000)}, func(rows []checkout.OrderSummary, _ int) bool {
					return len(rows) >= 1 && strings.HasSuffix(rows[0].Number, fmt.Sprintf("%06d", n/5%1_000_000))
				}},
			}
			// The sorts: the first page of each, and a page 10,000 pages deep by its key (found
			// by offset, once).
			for _, sort := range []checkout.OrderSort{checkout.SortCreatedAsc, checkout.SortAmountDesc, checkout.SortAmountAsc} {
				deep, _, err := s.OrderSummaries(ctx, checkout.OrderFilter{Sort: sort, Limit: 1, Offset: depth})
				if err != nil || len(deep) != 1 {
					b.Fatalf("the deep key of %s: %v", sort, err)
				}
				deepKey := checkout.OrderKey{CreatedAt: deep[0].CreatedAt, Amount: deep[0].Amount, ID: deep[0].ID}
				inOrder := func(rows []checkout.OrderSummary) bool {
					for i := 1; i < len(rows); i++ {
						a, b := rows[i-1], rows[i]
						c := a.CreatedAt.Compare(b.CreatedAt)
						if sort.ByAmount() {
							c = int(a.Amount - b.Amount)
						}
						if sort.Descending() && c < 0 || !sort.Descending() && c > 0 {
							return false
						}
					}
					return true
				}
				lists = append(lists, listCase{"sort-" + string(sort), checkout.OrderFilter{Sort: sort}, func(rows []checkout.OrderSummary, _ int) bool {
					return len(rows) == perPage+1 && inOrder(rows)
				}}, listCase{"sort-" + string(sort) + "-deep", checkout.OrderFilter{Sort: sort, Page: checkout.Cursor{Key: deepKey, Sort: sort}},
					func(rows []checkout.OrderSummary, _ int) bool { return len(rows) == perPage+1 && inOrder(rows) }})
			}
			for _, l := range lists {
				b.Run(l.name, func(b *testing.B) {
					f := l.f
					f.Limit = perPage + 1
					var took []time.Duration
					for b.Loop() {
						start := time.Now()
						rows, total, err := s.OrderSummaries(ctx, f)
						took = append(took, time.Since(start))
						if err != nil || !l.want(rows, total) {
							b.Fatalf("%s: %d rows, total %d, %v", l.name, len(rows), total, err)
						}
					}
					reportP99(b, took)
				})
			}
			b.Run("api-first-page", func(b *testing.B) {
				var took []time.Duration
				for b.Loop() {
					start := time.Now()
					os, err := s.Orders(ctx, checkout.OrderFilter{Limit: 21})
					took = append(took, time.Since(start))
					if err != nil || len(os) != 21 {
						b.Fatalf("Orders: %d, %v", len(os), err)
					}
				}
				reportP99(b, took)
			})
			b.Run("overview", func(b *testing.B) {
				// Today as the overview reads it: the São Paulo day (UTC-3).
				today := now.Add(-3 * time.Hour).Truncate(24 * time.Hour).Add(3 * time.Hour)
				first := today.AddDate(0, 0, -(checkout.OverviewDays - 1))
				var took []time.Duration
				for b.Loop() {
					start := time.Now()
					// As the dashboard's overview asks (checkout.Service.Overview): the previous
					// period's days and the top products too.
					st, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{today, today.AddDate(0, 0, -6), first},
						PlacedSince: first, DaysFrom: first.AddDate(0, 0, -checkout.OverviewDays), ZoneOffset: -3 * time.Hour,
						TopSince: first, TopLimit: checkout.OverviewTopProducts})
					took = append(took, time.Since(start))
					if err != nil || st.Placed == 0 || st.Money[2].Received.Orders == 0 || st.Awaiting != 50 {
						b.Fatalf("OrderStats: %+v, %v", st, err)
					}
				}
				reportP99(b, took)
			})
			b.Run("overview-channel", func(b *testing.B) {
				today := now.Add(-3 * time.Hour).Truncate(24 * time.Hour).Add(3 * time.Hour)
				first := today.AddDate(0, 0, -(checkout.OverviewDays - 1))
				var took []time.Duration
				for b.Loop() {
					start := time.Now()
					// The overview of the charges' channel, which none of the seeded orders is.
					st, err := s.OrderStats(ctx, checkout.StatsQuery{PaidSince: []time.Time{today, today.AddDate(0, 0, -6), first},
						PlacedSince: first, DaysFrom: first.AddDate(0, 0, -checkout.OverviewDays), ZoneOffset: -3 * time.Hour,
						TopSince: first, TopLimit: checkout.OverviewTopProducts, Channels: []checkout.Channel{checkout.ChannelCharge}})
					took = append(took, time.Since(start))
					if err != nil || st.Placed != 0 || st.Awaiting != 0 || st.ByChannel[checkout.ChannelShop][2].Received.Orders == 0 {
						b.Fatalf("OrderStats: %+v, %v", st, err)
					}
				}
				reportP99(b, took)
			})
		})
	}
}

// reportP99 reports the 99th percentile of took in milliseconds.
func reportP99(b *testing.B, took []time.Duration) {
	slices.Sort(took)
	p99 := took[min(len(took)-1, len(took)*99/100)]
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
}
