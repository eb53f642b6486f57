package app_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// TestNULInQueryRefused: a NUL byte in a query string reaches no store: every route that
// passes a parameter on to a query answers 4xx naming the parameter, on SQLite and on
// PostgreSQL (which refuses NUL in a text and would answer 500).
func TestNULInQueryRefused(t *testing.T) {
	t.Parallel()
	for name, db := range map[string]func(t *testing.T) string{
		"SQLite":     func(*testing.T) string { return "" },
		"PostgreSQL": func(t *testing.T) string { return postgresDatabase(t) },
	} {
		t.Run(name, func(t *testing.T) {
			const key = "pxk_nul_test_key_0123456789abcdefghijklmn"
			r := start(t, func(c *app.Config) {
				c.DatabaseURL = db(t)
				c.AdminEmail, c.AdminPassword = "dona@loja.example", "senha-configurada"
				c.MerchantAPIKey = key
			})
			token := r.signIn("dona@loja.example", "senha-configurada")
			for _, tc := range []struct{ path, param string }{
				{"/api/v1/orders?externalCode=%00", "externalCode"},
				{"/api/v1/orders?paymentLinkId=%00", "paymentLinkId"},
				{"/dashboard/orders?q=%00", "q"},
				{"/dashboard/orders?link=%00", "link"},
				{"/dashboard/audit.csv?actor=%00", "actor"},
				{"/dashboard/audit.csv?action=%00", "action"},
				{"/dashboard/audit?actor=%00", "actor"},
			} {
				req, _ := http.NewRequest(http.MethodGet, r.app.URL()+tc.path, nil)
				if strings.HasPrefix(tc.path, "/api/") {
					req.Header.Set("Authorization", "Bearer "+key)
				} else {
					req.AddCookie(&http.Cookie{Name: "checkout_dashboard", Value: token})
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode < 400 || res.StatusCode >= 500 || !strings.Contains(string(body), tc.param) ||
					!strings.Contains(string(body), "U+0000") {
					t.Errorf("%s: %d %.300s; want 4xx naming %s and the character", tc.path, res.StatusCode, body, tc.param)
				}
			}
		})
	}
}
