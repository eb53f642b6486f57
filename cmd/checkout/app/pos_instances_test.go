package app_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/web"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// TestSaleOnAShowsOnDisplayOnB: two instances on one PostgreSQL database, straight and behind
// PgBouncer in transaction pooling. The owner sets the QR code's life to 3 minutes and uploads
// the store's logo on A, which a display paired on B shows while idle; a
// cashier signed in on A charges R$ 12,34, whose page counts down from 3 minutes; a display
// paired on B (with A's code) shows that sale, its QR code the order's own, then paid once the
// payment is made through A: only the change feed's kind for terminals tells B.
func TestSaleOnAShowsOnDisplayOnB(t *testing.T) {
	t.Parallel()
	for _, pooled := range []bool{false, true} {
		name := map[bool]string{false: "postgres", true: "pgbouncer"}[pooled]
		t.Run(name, func(t *testing.T) {
			dbURL := postgresDatabase(t)
			cfg := func(c *app.Config) {
				c.ReconcileInterval, c.AdminEmail, c.AdminPassword, c.DatabaseURL = 0, posOwner, posPassword, dbURL
			}
			if pooled {
				through := pgbouncer(t, dbURL)
				base := cfg
				cfg = func(c *app.Config) { base(c); c.DatabaseURL, c.DatabaseDirectURL = through, dbURL }
			}
			saleOnAShowsOnB(t, start(t, cfg), start(t, cfg))
		})
	}
}

// saleOnAShowsOnB is TestSaleOnAShowsOnDisplayOnB on instances a and b.
func saleOnAShowsOnB(t *testing.T, a, b *running) {
	owner := a.signIn(posOwner, posPassword)
	if res, _ := a.dashboardPost("/dashboard/pos/settings", "/dashboard/pos/terminals", owner,
		url.Values{pos.FieldQRMinutes: {"3"}, pos.FieldIdleHours: {"12"}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving the point of sale's settings: %d", res.StatusCode)
	}
	if _, err := a.app.Accounts().AddUser(context.Background(), "caixa@padaria.example", posPassword, team.RoleCashier); err != nil {
		t.Fatal(err)
	}
	cashier := a.signIn("caixa@padaria.example", posPassword)
	a.uploadLogo(owner, 256, 128)
	paired := pairDisplay(t, a, b, owner, pos.FirstTerminal)
	req, _ := http.NewRequest(http.MethodGet, b.app.URL()+web.DisplayPath, nil)
	req.AddCookie(paired)
	if idle := b.getDoc(req).Find(`[data-show="idle"]`); idle.Find(`img[data-testid="store-logo"]`).Length() != 1 {
		t.Errorf("B's idle display does not show the logo uploaded on A: %q", idle.Text())
	}
	display := displayStream(t, b, paired)
	if first := <-display; !strings.Contains(first, `"state":"`+pos.ShowIdle+`"`) {
		t.Fatalf("the display's first message: %q", first)
	}

	res, _ := a.dashboardPost("/dashboard/pos/sales", "/dashboard/pos", cashier, url.Values{"amount": {"12,34"}, "sale_key": {"venda-1"}})
	sale := res.Header.Get("Location")
	id, ok := strings.CutPrefix(sale, "/dashboard/pos/sales/")
	if res.StatusCode != http.StatusSeeOther || !ok {
		t.Fatalf("the sale: %d to %q", res.StatusCode, sale)
	}
	req, _ = http.NewRequest(http.MethodGet, a.app.URL()+sale, nil)
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: cashier})
	doc := a.getDoc(req)
	if doc.Find(`img[data-testid="pix-qr"]`).Length() != 1 {
		t.Fatalf("the sale's page has no QR code: %.300s", doc.Find("main").Text())
	}
	if c := doc.Find(`[data-testid="countdown"]`).Text(); !regexp.MustCompile(`^0[23]:[0-5]\d$`).MatchString(c) {
		t.Errorf("the countdown of a 3-minute QR code reads %q", c)
	}
	wait := func(what, want string) {
		t.Helper()
		deadline := time.After(10 * time.Second)
		for {
			select {
			case l, ok := <-display:
				if !ok {
					t.Fatalf("B's display stream ended before %s", what)
				}
				if strings.Contains(l, want) {
					return
				}
			case <-deadline:
				t.Fatalf("B's display never showed %s", what)
			}
		}
	}
	wait("the sale charged on A", `"qr":"/pay/`+id+`/qr.png"`)
	if res := a.post("/pay/"+id+"/sandbox-pay", url.Values{}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sandbox-pay on A: %d", res.StatusCode)
	}
	wait("the sale paid on A", `"state":"`+pos.ShowPaid+`"`)
}
