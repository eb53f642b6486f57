package dashboard_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// unmasked are the ways the test shopper's CPF (529.982.247-25) and phone ((11) 98765-4321)
// may be written in full.
var unmasked = []string{"52998224725", "529.982.247-25", "98765-4321", "987654321"}

// TestPersonalDataMaskedForViewerAndOperator walks a viewer and an operator through every
// dashboard page and export they may open (the route table of TestRolesOnEveryRoute), with
// orders holding a known CPF and phone, a paid one and its notification among them: none shows
// them in full, and asking an export unmasked is refused. An owner's pages mask them too until
// the deliberate show, which the audit log records with the order. The masking is made before
// any words are chosen, the same for both languages: the viewer walks the pages in Portuguese,
// the operator in English, one representative of each language.
func TestPersonalDataMaskedForViewerAndOperator(t *testing.T) {
	f := newRoleFixture(t, nil)
	ctx := context.Background()
	o := f.e.waitStatus(f.ids["/orders/{id}"], "awaiting_payment")
	if err := (payer{f.e.client}).Pay(ctx, o.CurrentAttempt().TransactionID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.e.svc.RefreshFromGateway(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
	f.e.waitStatus(o.ID, "paid")
	f.e.placeOrder()
	leaks := func(t *testing.T, page, body string) {
		t.Helper()
		for _, s := range unmasked {
			if strings.Contains(body, s) {
				t.Errorf("%s holds %q in full", page, s)
			}
		}
	}
	for role, lang := range map[team.Role]string{team.RoleViewer: "", team.RoleOperator: "?lang=en"} {
		t.Run(string(role), func(t *testing.T) {
			b := f.e.browser()
			f.b = b
			b.loginAs(string(role)+"@loja.example", dashPassword)
			u, err := f.e.dash.accounts.UserByEmail(ctx, string(role)+"@loja.example")
			if err != nil {
				t.Fatal(err)
			}
			f.giveExport(u.ID)
			walked := 0
			for route, rc := range routeCases {
				method, pattern, _ := strings.Cut(route, " ")
				if method != http.MethodGet || !slices.Contains(rc.allowed, role) {
					continue
				}
				path := f.path(pattern) + lang
				res := b.do(http.MethodGet, path, nil)
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					t.Errorf("GET %s as %s: %d", path, role, res.StatusCode)
				}
				leaks(t, "GET "+path+" as "+string(role), string(body))
				walked++
			}
			// The order lists found by the shopper's own data (the forms and the links keep
			// what was typed: the rest of the page is searched).
			for _, q := range []string{"q=529.982.247-25", "q=maria%40example.com.br", "q=Maria"} {
				_, doc := b.get("/dashboard/orders?" + q)
				if doc.Find(`[data-testid="order-row"], tr[data-id]`).Length() == 0 {
					t.Errorf("the order list searched by %s lists nothing", q)
				}
				doc.Find("form").Remove()
				doc.Find("a[href]").RemoveAttr("href") // links and forms keep the query typed
				h, _ := doc.Html()
				leaks(t, "the order list searched by "+q, h)
			}
			for _, export := range []string{"/dashboard/deposits.csv", "/dashboard/withdrawals.csv"} {
				if res := b.do(http.MethodGet, export+"?personalData=full", nil); res.StatusCode != http.StatusForbidden {
					t.Errorf("%s unmasked as %s: %d, want 403", export, role, res.StatusCode)
				}
			}
			if walked < 10 {
				t.Errorf("only %d pages walked", walked)
			}
		})
	}
	t.Run("owner", func(t *testing.T) {
		b := f.e.browser()
		csrf := b.loginAs("owner@loja.example", dashPassword)
		page := "/dashboard/orders/" + url.PathEscape(o.ID)
		_, doc := b.get(page)
		h, _ := doc.Html()
		leaks(t, "the owner's order page before the show", h)
		action := doc.Find(`form[data-testid="personal-form"]`).AttrOr("action", "")
		if action != page+"/personal-data" {
			t.Fatalf("the show form posts to %q", action)
		}
		res, doc := b.post(action, url.Values{"csrf_token": {csrf}})
		if text := doc.Find(testid("customer")).Text(); res.StatusCode != http.StatusOK || !strings.Contains(text, "529.982.247-25") ||
			!strings.Contains(text, "(11) 98765-4321") || doc.Find(testid("personal-shown")).Length() != 1 {
			t.Errorf("the show: %d %s", res.StatusCode, text)
		}
		// Without the session's token the show is refused; and it lasts for its answer only.
		if res := b.do(http.MethodPost, action, url.Values{}); res.StatusCode != http.StatusForbidden {
			t.Errorf("a show without the token: %d", res.StatusCode)
		}
		_, doc = b.get(page)
		h, _ = doc.Html()
		leaks(t, "the owner's order page after the show", h)
		entries, err := f.e.dash.audit.Entries(ctx, audit.Filter{Action: audit.PersonalShown})
		if err != nil || len(entries) != 1 || entries[0].Actor != "owner@loja.example" || !strings.Contains(entries[0].Object, o.ID) {
			t.Errorf("the audit log of the show: %+v, %v", entries, err)
		}
	})
}

// TestMaskingGateway: the gateway's records reach every dashboard page with the holders'
// documents and PIX keys masked, whatever the gateway sends (the sandbox masks them itself).
func TestMaskingGateway(t *testing.T) {
	holder := func() *gatewayclient.AccountHolder {
		return &gatewayclient.AccountHolder{Name: "Maria", Document: "52998224725",
			Pix: gatewayclient.PixKey{Key: "+5511987654321", Type: gatewayclient.PixKeyType("PHONE")}}
	}
	g := dashboard.MaskingGateway(fakeGateway{
		deposit:    gatewayclient.Deposit{ID: "d1", Payer: holder(), Receiver: holder()},
		withdrawal: gatewayclient.Withdrawal{ID: "w1", Payer: holder(), Receiver: holder(), PixKey: &gatewayclient.PixKey{Key: "529.982.247-25", Type: "CPF"}},
	})
	ctx := context.Background()
	d, _ := g.GetDeposit(ctx, "d1")
	ds, _ := g.ListDeposits(ctx, gatewayclient.DepositFilter{})
	ws, _ := g.ListWithdrawals(ctx, gatewayclient.WithdrawalFilter{})
	for _, h := range []*gatewayclient.AccountHolder{d.Payer, d.Receiver, ds.Data[0].Payer, ws.Data[0].Payer, ws.Data[0].Receiver} {
		if h.Document != "***.982.247-**" || h.Pix.Key != "+55 (11) *****-4321" || h.Name != "Maria" {
			t.Errorf("holder %+v", h)
		}
	}
	if k := ws.Data[0].PixKey.Key; k != "***.982.247-**" {
		t.Errorf("withdrawal key %q", k)
	}
}

type fakeGateway struct {
	deposit    gatewayclient.Deposit
	withdrawal gatewayclient.Withdrawal
}

func (f fakeGateway) ListDeposits(context.Context, gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error) {
	d := f.deposit
	p, r := *d.Payer, *d.Receiver
	d.Payer, d.Receiver = &p, &r
	return &gatewayclient.Page[gatewayclient.Deposit]{Data: []gatewayclient.Deposit{d}}, nil
}

func (f fakeGateway) GetDeposit(context.Context, string) (*gatewayclient.Deposit, error) {
	d := f.deposit
	p, r := *d.Payer, *d.Receiver
	d.Payer, d.Receiver = &p, &r
	return &d, nil
}

func (f fakeGateway) ListWithdrawals(context.Context, gatewayclient.WithdrawalFilter) (*gatewayclient.Page[gatewayclient.Withdrawal], error) {
	w := f.withdrawal
	p, r := *w.Payer, *w.Receiver
	w.Payer, w.Receiver = &p, &r
	return &gatewayclient.Page[gatewayclient.Withdrawal]{Data: []gatewayclient.Withdrawal{w}}, nil
}
