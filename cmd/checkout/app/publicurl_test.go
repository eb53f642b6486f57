package app_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// createSession makes a checkout session through the API with key and returns its url.
func createSession(t *testing.T, r *running, key string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.app.URL()+"/api/v1/checkout-sessions",
		strings.NewReader(`{"items":[{"productId":"ebook-receitas-do-cerrado","quantity":1}]}`))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := r.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var sess struct{ URL string }
	if err := json.NewDecoder(res.Body).Decode(&sess); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("creating a session: %d %v", res.StatusCode, err)
	}
	return sess.URL
}

// TestPublicURLFollowsTheBoundPort: with CHECKOUT_PUBLIC_URL unset, a port other than 8080
// (every interface, as CHECKOUT_ADDR=:18080) is the one in sessions' URLs, the banner, and
// the demo merchant page, whose embed.js loads.
func TestPublicURLFollowsTheBoundPort(t *testing.T) {
	t.Parallel()
	const key = "pxk_test_public_url"
	var banner strings.Builder
	r := startOn(t, ":0", func(c *app.Config) { c.Stdout = &banner; c.MerchantAPIKey = key })
	self, _ := url.Parse(r.app.URL())
	public := "http://localhost:" + self.Port()
	if u := createSession(t, r, key); !strings.HasPrefix(u, public+"/s/") {
		t.Errorf("session URL %q; want it under %s", u, public)
	}
	if !strings.Contains(banner.String(), "shop:            "+public+"/\n") {
		t.Errorf("banner %q does not show %s", banner.String(), public)
	}
	res, err := r.http.Get(r.app.DemoURL())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	demo, _ := url.Parse(r.app.DemoURL())
	res, err = r.http.Get(demo.Scheme + "://" + demo.Host + res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := regexp.MustCompile(`<script src="([^"]*embed\.js)"`).FindSubmatch(page)
	if m == nil || string(m[1]) != public+"/embed.js" || !strings.Contains(string(page), `data-pix-checkout="`+public+`/s/`) {
		t.Fatalf("the demo page does not load embed.js and the session from %s:\n%s", public, page)
	}
	res, err = r.http.Get(string(m[1]))
	if err != nil {
		t.Fatalf("loading the demo page's embed.js: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(res.Header.Get("Content-Type"), "javascript") {
		t.Errorf("the demo page's embed.js: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

// TestPublicURLAsSet: a CHECKOUT_PUBLIC_URL is used and printed as it is.
func TestPublicURLAsSet(t *testing.T) {
	t.Parallel()
	const key = "pxk_test_public_url"
	var banner strings.Builder
	r := start(t, func(c *app.Config) {
		c.Stdout, c.MerchantAPIKey, c.PublicURL = &banner, key, "https://pagar.loja.example"
	})
	if u := createSession(t, r, key); !strings.HasPrefix(u, "https://pagar.loja.example/s/") {
		t.Errorf("session URL %q", u)
	}
	for _, want := range []string{"shop:            https://pagar.loja.example/\n", "dashboard:       https://pagar.loja.example/dashboard\n"} {
		if !strings.Contains(banner.String(), want) {
			t.Errorf("banner %q lacks %q", banner.String(), want)
		}
	}
}
