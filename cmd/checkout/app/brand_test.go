package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox/sandboxtest"
	"github.com/pixcheckout/pixcheckout/web/dashboard"
)

// TestStoreFaceOnPostgreSQL: two instances on one PostgreSQL database. The first start stores
// the configuration's name (a new install's initial value); an instance started with another
// name shows the stored one. A save of the "Loja" page on one shows on the other's next page:
// the change feed tells it, no restart, no polling of the store.
func TestStoreFaceOnPostgreSQL(t *testing.T) {
	t.Parallel()
	dbURL := postgresDatabase(t)
	cfg := func(name string) func(c *app.Config) {
		return func(c *app.Config) {
			c.DatabaseURL, c.ReconcileInterval, c.MerchantName = dbURL, 0, name
			c.AdminEmail, c.AdminPassword = "dona@loja.example", "senha-configurada"
		}
	}
	a := start(t, cfg("Loja do Ambiente"))
	b := start(t, cfg("Outro Nome"))
	if _, doc := b.get("/"); !strings.Contains(doc.Find("title").Text(), "Loja do Ambiente") {
		t.Fatalf("the second instance's title: %q, want the stored initial name", doc.Find("title").Text())
	}
	a.saveStore(a.signIn("dona@loja.example", "senha-configurada"), url.Values{"name": {"Empório Serrano"}, "support_email": {"ajuda@emporio.example"}})
	if _, doc := a.get("/"); !strings.Contains(doc.Find("title").Text(), "Empório Serrano") {
		t.Fatalf("A's own next page: %q", doc.Find("title").Text())
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		_, doc := b.get("/")
		if strings.Contains(doc.Find("title").Text(), "Empório Serrano") && strings.Contains(doc.Text(), "ajuda@emporio.example") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B still shows %q 15 s after the save on A", doc.Find("title").Text())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dashboardForm reads a dashboard page with the session and returns its form's CSRF token.
func (r *running) dashboardForm(path, token string) string {
	r.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, r.app.URL()+path, nil)
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		r.t.Fatalf("%s: %d, %v", path, res.StatusCode, err)
	}
	csrf, _ := doc.Find(`input[name="csrf_token"]`).Attr("value")
	return csrf
}

// saveStore saves the dashboard's "Loja" page with form, signed in with token.
func (r *running) saveStore(token string, form url.Values) {
	r.t.Helper()
	form.Set("csrf_token", r.dashboardForm("/dashboard/store", token))
	req, _ := http.NewRequest(http.MethodPost, r.app.URL()+"/dashboard/store", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(&http.Cookie{Name: dashboard.Cookie, Value: token})
	res, err := r.http.Do(req)
	if err != nil {
		r.t.Fatalf("saving the store: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("saving the store: %d", res.StatusCode)
	}
}

// TestSellerIsTheSavedStore: each transaction sent to the gateway carries the seller of the
// store's saved profile — at first the configuration's payee (a new install's initial values),
// then what the "Loja" page saved, from the next order on, without a restart.
func TestSellerIsTheSavedStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sandboxtest.Create(t, dir)
	sb, err := sandbox.New(context.Background(), sandbox.Options{DataDir: dir,
		Clients: []sandbox.ClientConfig{{ID: "merchant", Secret: "merchant-secret"}}})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		seller []map[string]string // the seller of each POST /transaction, in order
	)
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/transaction" {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var body struct{ Seller map[string]string }
			_ = json.Unmarshal(b, &body)
			mu.Lock()
			seller = append(seller, body.Seller)
			mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		sb.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { gw.Close(); sb.Close() })
	r := start(t, func(c *app.Config) {
		c.GatewayURL, c.GatewayClientID, c.GatewayClientSecret = gw.URL, "merchant", "merchant-secret"
		c.MerchantName, c.MerchantLegalName, c.MerchantDocument = "Loja do Ambiente", "Ambiente Comércio Ltda", "11.222.333/0001-81"
		c.AdminEmail, c.AdminPassword = "dona@loja.example", "senha-configurada"
	})
	last := func() map[string]string {
		t.Helper()
		r.placeOrder()
		mu.Lock()
		defer mu.Unlock()
		if len(seller) == 0 {
			t.Fatal("no transaction reached the gateway")
		}
		return seller[len(seller)-1]
	}
	if s := last(); s["name"] != "Ambiente Comércio Ltda" || s["document"] != "11.222.333/0001-81" {
		t.Errorf("the first seller: %v, want the configuration's payee", s)
	}
	token := r.signIn("dona@loja.example", "senha-configurada")
	r.saveStore(token, url.Values{"name": {"Empório Serrano"}, "legal_name": {"Serrano Alimentos Ltda"}, "document": {"529.982.247-25"}})
	if s := last(); s["name"] != "Serrano Alimentos Ltda" || s["document"] != "529.982.247-25" {
		t.Errorf("the seller after the save: %v, want the saved payee", s)
	}
	r.saveStore(token, url.Values{"name": {"Empório Serrano"}})
	if s := last(); s != nil {
		t.Errorf("the seller after the document was emptied: %v, want none", s)
	}
}
