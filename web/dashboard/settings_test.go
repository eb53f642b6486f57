package dashboard_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestDashboardSettings: the notification URL and framing origins saved with their errors
// beside their fields; a signing secret made with the first URL and rotated on demand; an API
// key created (shown once, then working against the API) and revoked (then refused).
func TestDashboardSettings(t *testing.T) {
	e, b := signedIn(t)
	tok := b.csrf()
	res, doc := b.get("/dashboard/settings")
	if res.StatusCode != http.StatusOK || doc.Find(testid("settings-form")).Length() != 1 {
		t.Fatalf("settings page %d", res.StatusCode)
	}
	res, doc = b.post("/dashboard/settings", url.Values{"csrf_token": {tok}, "webhook_url": {"http://127.0.0.1/hook"},
		"frame_origins": {"https://loja.example\nnot an origin"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("invalid settings: %d", res.StatusCode)
	}
	for _, field := range []string{"webhook_url", "frame_origins"} {
		if doc.Find(`[data-testid="field-error"][data-field="`+field+`"]`).Length() != 1 || doc.Find("#s-"+field).AttrOr("aria-invalid", "") != "true" {
			t.Errorf("no error beside %s", field)
		}
	}
	if doc.Find("#s-webhook_url").AttrOr("value", "") != "http://127.0.0.1/hook" || !strings.Contains(doc.Find("#s-frame_origins").Text(), "not an origin") {
		t.Error("what was typed was lost")
	}
	res = b.do(http.MethodPost, "/dashboard/settings", url.Values{"csrf_token": {tok}, "webhook_url": {"https://erp.loja.example/pix"},
		"frame_origins": {"https://loja.example\r\nhttps://www.loja.example/"}})
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/settings?done=saved" {
		t.Fatalf("after saving: %q", loc)
	}
	_, doc = b.get("/dashboard/settings?done=saved")
	if doc.Find(testid("webhook-secret")).Length() != 0 {
		t.Error("the signing secret is shown without a reveal")
	}
	if res, doc := b.post("/dashboard/settings/secret/reveal", url.Values{"csrf_token": {tok}, "current_password": {"errada"}}); res.StatusCode != http.StatusUnprocessableEntity ||
		doc.Find(testid("webhook-secret")).Length() != 0 {
		t.Errorf("a reveal with a wrong password: %d", res.StatusCode)
	}
	reveal := func() string {
		t.Helper()
		_, doc := b.post("/dashboard/settings/secret/reveal", url.Values{"csrf_token": {tok}, "current_password": {dashPassword}})
		return doc.Find(testid("webhook-secret")).Text()
	}
	secret := reveal()
	if doc.Find(testid("secret-overlap")).Length() != 0 {
		t.Error("an overlap is said before any rotation")
	}
	if doc.Find("#s-webhook_url").AttrOr("value", "") != "https://erp.loja.example/pix" || !strings.HasPrefix(secret, "whsec_") ||
		doc.Find("#s-frame_origins").Text() != "https://loja.example\nhttps://www.loja.example" {
		t.Errorf("saved settings: %q %q %q", doc.Find("#s-webhook_url").AttrOr("value", ""), secret, doc.Find("#s-frame_origins").Text())
	}
	res = b.do(http.MethodPost, "/dashboard/settings/secret", url.Values{"csrf_token": {tok}})
	res.Body.Close()
	if rotated := reveal(); rotated == secret || !strings.HasPrefix(rotated, "whsec_") {
		t.Errorf("rotating kept %q", rotated)
	}
	_, doc = b.get("/dashboard/settings")
	if note := doc.Find(testid("secret-overlap")).Text(); !strings.Contains(note, "O segredo anterior também assina") {
		t.Errorf("the rotation's overlap is not said: %q", note)
	}

	// An API key: shown once, usable at once; revoked, refused.
	res, doc = b.post("/dashboard/settings/keys", url.Values{"csrf_token": {tok}, "name": {""}})
	if res.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-field="name"]`).Length() != 1 {
		t.Errorf("a key without a name: %d", res.StatusCode)
	}
	res, doc = b.post("/dashboard/settings/keys", url.Values{"csrf_token": {tok}, "name": {"ERP"}})
	key := doc.Find(testid("new-key-value")).AttrOr("value", "")
	if res.StatusCode != http.StatusCreated || !strings.HasPrefix(key, "pxk_") || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("new key: %d %q", res.StatusCode, key)
	}
	api := func() int {
		res := e.do(http.MethodGet, "/api/v1/orders", nil, "Authorization", "Bearer "+key)
		res.Body.Close()
		return res.StatusCode
	}
	if got := api(); got != http.StatusOK {
		t.Errorf("the new key on the API: %d", got)
	}
	_, doc = b.get("/dashboard/settings")
	if strings.Contains(doc.Text(), key) {
		t.Error("the key is shown again")
	}
	row := doc.Find(testid("api-key"))
	if row.Length() != 1 || !strings.Contains(row.Text(), "ERP") {
		t.Fatalf("key rows %q", row.Text())
	}
	revoke, _ := row.Find("form").Attr("action")
	res = b.do(http.MethodPost, revoke, url.Values{"csrf_token": {tok}})
	res.Body.Close()
	if loc := e.location(res); loc != "/dashboard/settings?done=revoked" {
		t.Fatalf("after revoking: %q", loc)
	}
	if got := api(); got != http.StatusUnauthorized {
		t.Errorf("the revoked key on the API: %d", got)
	}
	// A read key may read, not write (403 in the API's error shape); the list shows its scope
	// and who made it.
	_, doc = b.post("/dashboard/settings/keys", url.Values{"csrf_token": {tok}, "name": {"Relatórios"}, "scope": {"read"}})
	readKey := doc.Find(testid("new-key-value")).AttrOr("value", "")
	if res := e.do(http.MethodGet, "/api/v1/orders", nil, "Authorization", "Bearer "+readKey); res.StatusCode != http.StatusOK {
		t.Errorf("a read key's GET: %d", res.StatusCode)
	}
	res = e.do(http.MethodPost, "/api/v1/checkout-sessions", url.Values{}, "Authorization", "Bearer "+readKey, "Content-Type", "application/json")
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden || !strings.Contains(string(body), `"code":"forbidden"`) {
		t.Errorf("a read key creating a session: %d %s", res.StatusCode, body)
	}
	_, doc = b.get("/dashboard/settings")
	if text := doc.Find(testid("api-key")).First().Text(); !strings.Contains(text, "Leitura") || !strings.Contains(text, dashEmail) {
		t.Errorf("the read key's row: %q", text)
	}
	// Every settings form needs the session's token.
	for _, path := range []string{"/dashboard/settings", "/dashboard/settings/secret", "/dashboard/settings/secret/reveal", "/dashboard/settings/keys", revoke} {
		if res, _ := b.post(path, url.Values{"name": {"x"}}); res.StatusCode != http.StatusForbidden {
			t.Errorf("POST %s without the token: %d", path, res.StatusCode)
		}
	}
}
