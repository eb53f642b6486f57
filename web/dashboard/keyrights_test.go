package dashboard_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// TestKeyRightsFollowTheMaker: for every role that may make API keys, a key made in the
// dashboard carries the personal-data right only when its maker has it: with it, the API shows
// an order's document in full and answers the data-subject routes; without it, the document is
// masked and those routes are 403. The key list says which keys carry it. Demoting the maker
// takes the right from their keys, promoting gives it back, removing them revokes their keys;
// each change is in the audit log. The maker's open invitations are withdrawn (audited) when
// they may no longer invite, and their link stops working at once.
func TestKeyRightsFollowTheMaker(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	id := orderID(e.placeOrder())
	const pw = "uma senha longa o bastante"
	owner := e.browser()
	ownerCSRF := owner.login()

	// keyOf signs in as email, makes a write key in Settings and returns it.
	keyOf := func(email string) string {
		t.Helper()
		b := e.browser()
		tok := b.loginAs(email, pw)
		res, doc := b.post("/dashboard/settings/keys", url.Values{"csrf_token": {tok}, "name": {"chave de " + email}, "scope": {"write"}})
		key, _ := doc.Find(testid("new-key-value")).Attr("value")
		if res.StatusCode != http.StatusCreated || key == "" {
			t.Fatalf("%s making a key: %d", email, res.StatusCode)
		}
		return key
	}
	// rights says what a key may do with personal data through the API: the order's document
	// in full, and the data-subject search answered.
	rights := func(key string) (full, subjects bool, status int) {
		t.Helper()
		res := e.do(http.MethodGet, "/api/v1/orders/"+id, nil, "Authorization", "Bearer "+key)
		var o struct {
			Customer struct{ Document string } `json:"customer"`
		}
		_ = json.NewDecoder(res.Body).Decode(&o)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return false, false, res.StatusCode
		}
		req, err := http.NewRequest(http.MethodPost, e.srv.URL+"/api/v1/data-subjects/search", strings.NewReader(`{"document":"529.982.247-25"}`))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		res, err = e.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusForbidden {
			t.Fatalf("data-subject search: %d", res.StatusCode)
		}
		return !strings.Contains(o.Customer.Document, "*"), res.StatusCode == http.StatusOK, http.StatusOK
	}
	listed := func(name string) string {
		t.Helper()
		_, doc := owner.get("/dashboard/settings")
		row := doc.Find(testid("api-key")).FilterFunction(func(_ int, s *goquery.Selection) bool {
			return strings.Contains(s.Text(), name)
		})
		v, _ := row.Find(testid("key-personal-data")).Attr("data-personal-data")
		return v
	}

	made := 0
	for _, role := range team.Roles {
		if !role.Can(team.PermKeys) {
			continue
		}
		made++
		email := "maker-" + string(role) + "@loja.example"
		u, err := e.dash.accounts.AddUser(ctx, email, pw, role)
		if err != nil {
			t.Fatal(err)
		}
		key := keyOf(email)
		full, subjects, status := rights(key)
		want := role.Can(team.PermPersonalData)
		if status != http.StatusOK || full != want || subjects != want {
			t.Errorf("a key made by a %s: document in full %v, data subjects %v (%d); want %v", role, full, subjects, status, want)
		}
		if got := listed("chave de " + email); got != map[bool]string{true: "true", false: "false"}[want] {
			t.Errorf("the key list says a %s's key carries personal data: %q, want %v", role, got, want)
		}

		// The other way round: a developer is promoted to owner, an owner demoted to developer.
		other := team.RoleDeveloper
		if !want {
			other = team.RoleOwner
		}
		var inv string
		if role.Can(team.PermUsers) {
			b := e.browser()
			tok := b.loginAs(email, pw)
			res, doc := b.post("/dashboard/users", url.Values{"csrf_token": {tok}, "email": {"convite-" + string(role) + "@loja.example"}, "role": {"owner"}})
			link, _ := doc.Find(testid("invite-link")).Attr("value")
			if res.StatusCode != http.StatusCreated || !strings.Contains(link, "/dashboard/invite/") {
				t.Fatalf("an invitation by a %s: %d %q", role, res.StatusCode, link)
			}
			inv = link[strings.Index(link, "/dashboard/invite/"):]
		}
		res, _ := owner.post("/dashboard/users/"+u.ID+"/role", url.Values{"role": {string(other)}, "csrf_token": {ownerCSRF}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("changing the role of a %s: %d", role, res.StatusCode)
		}
		if full, subjects, _ := rights(key); full == want || subjects == want {
			t.Errorf("a %s's key after the maker became %s: document in full %v, data subjects %v; want %v", role, other, full, subjects, !want)
		}
		if !e.auditHas(audit.KeyRights, "chave de "+email, dashEmail) {
			t.Errorf("the change of a %s's key's rights is not in the audit log", role)
		}
		if inv != "" {
			if res, _ := e.get(inv); res.StatusCode != http.StatusNotFound {
				t.Errorf("the owner invitation of a demoted %s still opens: %d", role, res.StatusCode)
			}
			if !e.auditHas(audit.InviteWithdrawn, "convite-"+string(role)+"@loja.example", dashEmail) {
				t.Errorf("the withdrawal of a demoted %s's invitation is not in the audit log", role)
			}
		}
		res, _ = owner.post("/dashboard/users/"+u.ID+"/remove", url.Values{"csrf_token": {ownerCSRF}})
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("removing a %s: %d", role, res.StatusCode)
		}
		if _, _, status := rights(key); status != http.StatusUnauthorized {
			t.Errorf("the key of a removed %s answers %d, want 401", role, status)
		}
		if !e.auditHas(audit.KeyRevoked, "chave de "+email, dashEmail) {
			t.Errorf("the revocation of a removed %s's key is not in the audit log", role)
		}
	}
	if made < 2 {
		t.Fatalf("only %d roles may make keys: the test covers nothing", made)
	}
}
