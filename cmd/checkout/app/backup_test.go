package app_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/ratelimit"
)

// tryPlaceOrder is placeOrder for other goroutines than the test's: it buys the e-book through
// the shop's forms with client and returns the order's id once the shop acknowledged it (the
// redirect to its PIX page).
func (r *running) tryPlaceOrder(client *http.Client) (string, error) {
	post := func(path string, form url.Values) (*http.Response, error) {
		res, err := client.PostForm(r.app.URL()+path, form)
		if err != nil {
			return nil, err
		}
		res.Body.Close()
		return res, nil
	}
	res, err := post("/cart", url.Values{"product_id": {"ebook-receitas-do-cerrado"}})
	if err != nil {
		return "", err
	}
	cart := res.Header.Get("Location")
	page, err := client.Get(r.app.URL() + cart + "/checkout")
	if err != nil {
		return "", err
	}
	doc, err := goquery.NewDocumentFromReader(page.Body)
	page.Body.Close()
	if err != nil {
		return "", err
	}
	key, _ := doc.Find(`input[name="request_key"]`).Attr("value")
	res, err = post(cart+"/checkout", url.Values{"request_key": {key}, "name": {"João Souza"},
		"document": {"52998224725"}, "email": {"joao@example.com"}, "phone": {"11987654321"}})
	if err != nil {
		return "", err
	}
	pay := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(pay, "/pay/") {
		return "", fmt.Errorf("placing an order: %d %s", res.StatusCode, pay)
	}
	return strings.TrimPrefix(pay, "/pay/"), nil
}

// TestBackupUnderLoadRestoresEveryAcknowledgedOrder: shoppers place orders without pause while
// a backup is taken; restored into a new data dir, the backup holds every order the shop had
// acknowledged when the backup began, each whole (its lines and history), and no order cut.
func TestBackupUnderLoadRestoresEveryAcknowledgedOrder(t *testing.T) {
	t.Parallel()
	r := start(t, func(c *app.Config) { c.NewCartLimit = ratelimit.Rate{Off: true} })
	var (
		mu    sync.Mutex
		acked []string
		errs  []error
		more  = make(chan struct{}, 1000) // a tick per acknowledged order
	)
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			for ctx.Err() == nil {
				id, err := r.tryPlaceOrder(client)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					acked = append(acked, id)
				}
				mu.Unlock()
				if err != nil {
					return
				}
				select {
				case more <- struct{}{}:
				default:
				}
			}
		}()
	}
	// Orders are being placed: wait for some, then back up while they keep coming.
	for range 20 {
		<-more
	}
	mu.Lock()
	before := append([]string(nil), acked...)
	mu.Unlock()
	cfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", r.dataDir})
	if err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(t.TempDir(), "checkout-backup.db")
	err = app.Backup(context.Background(), cfg, backup)
	// A few more after the backup, so that the load overlapped it.
	for range 4 {
		<-more
	}
	stop()
	wg.Wait()
	if err != nil {
		t.Fatalf("backup under load: %v", err)
	}
	if len(errs) > 0 {
		t.Fatalf("placing orders: %v", errors.Join(errs...))
	}
	if err := app.Backup(context.Background(), cfg, backup); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("a second backup to the same file: %v; want a refusal", err)
	}

	restored := filepath.Join(t.TempDir(), "restored")
	rcfg, err := app.Load(func(string) string { return "" }, []string{"-data-dir", restored})
	if err != nil {
		t.Fatal(err)
	}
	if kept, err := app.Restore(context.Background(), rcfg, backup); err != nil || kept != "" {
		t.Fatalf("restore into an empty data dir: kept %q, %v", kept, err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(restored, "checkout.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, id := range before {
		o, err := st.Order(context.Background(), id)
		if err != nil {
			t.Errorf("order %s, acknowledged before the backup: %v", id, err)
			continue
		}
		if len(o.Lines) != 1 || len(o.History) == 0 || o.Amount <= 0 {
			t.Errorf("order %s restored partly: %d lines, %d history entries", id, len(o.Lines), len(o.History))
		}
	}
	all, err := st.Orders(context.Background(), checkout.OrderFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < len(before) {
		t.Errorf("%d orders restored, %d acknowledged before the backup", len(all), len(before))
	}
	for _, o := range all {
		if len(o.Lines) != 1 {
			t.Errorf("restored order %s has %d lines: a transaction was cut", o.ID, len(o.Lines))
		}
	}
	t.Logf("%d orders acknowledged before the backup, %d in it, %d placed in all", len(before), len(all), len(acked))
}
