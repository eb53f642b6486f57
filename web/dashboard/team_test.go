package dashboard_test

import (
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// TestInvitationFlow: an owner invites someone, the link is shown once; the invited person
// chooses a password (a weak one is refused with the reason, the link staying usable), signs
// in with the role given; the link then works no more; each step is in the audit log.
func TestInvitationFlow(t *testing.T) {
	e := newEnv(t)
	owner := e.browser()
	csrf := owner.login()
	res, doc := owner.post("/dashboard/users", url.Values{"email": {"Nova@Loja.Example"}, "role": {"operator"}, "csrf_token": {csrf}})
	link := doc.Find(testid("invite-link")).AttrOr("value", "")
	if res.StatusCode != http.StatusCreated || !strings.Contains(link, "/dashboard/invite/") {
		t.Fatalf("invitation: %d, link %q", res.StatusCode, link)
	}
	if _, again := owner.get("/dashboard/users"); again.Find(testid("invite-link")).Length() != 0 ||
		!strings.Contains(again.Find(testid("invitation")).Text(), "nova@loja.example") {
		t.Error("the users page shows the link again, or not the pending invitation")
	}
	u, _ := url.Parse(link)
	invited := e.browser()
	res, doc = invited.get(u.Path)
	if res.StatusCode != http.StatusOK || !strings.Contains(doc.Find("main").Text(), "nova@loja.example") {
		t.Fatalf("invitation page: %d", res.StatusCode)
	}
	res, doc = invited.post(u.Path, url.Values{"password": {"12345678"}, "password_confirm": {"12345678"}})
	// Said in Portuguese, the reason too.
	if msg := doc.Find(testid("field-error")).Text(); res.StatusCode != http.StatusUnprocessableEntity ||
		msg != "Senha recusada: fácil de adivinhar, porque é uma das senhas mais comuns, das listas de senhas vazadas; escolha uma mais longa, como quatro ou mais palavras sem relação entre si." {
		t.Fatalf("a weak password: %d %q", res.StatusCode, msg)
	}
	res, _ = invited.post(u.Path, url.Values{"password": {"tres-palavras-soltas"}, "password_confirm": {"outra-coisa-qualquer"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("different confirmation: %d", res.StatusCode)
	}
	res, _ = invited.post(u.Path, url.Values{"password": {"tres-palavras-soltas"}, "password_confirm": {"tres-palavras-soltas"}})
	// Accepted: signed in at once.
	if loc := e.location(res); loc != "/dashboard" {
		t.Fatalf("accepted: %q", loc)
	}
	if _, doc := invited.get("/dashboard/products"); !strings.Contains(doc.Find(testid("user-role")).Text(), "Operador") {
		t.Errorf("the new user's role: %q", doc.Find(testid("user-role")).Text())
	}
	// The link is used: it works no more, for anyone.
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		res := e.browser().do(method, u.Path, url.Values{"password": {"outra-senha-forte-9"}, "password_confirm": {"outra-senha-forte-9"}})
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("%s of a used link: %d", method, res.StatusCode)
		}
		res.Body.Close()
	}
	entries, err := e.dash.audit.Entries(context.Background(), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, en := range entries {
		got = append(got, en.Actor+" "+en.Action+" "+en.Object)
	}
	for _, want := range []string{dashEmail + " user.invited nova@loja.example", "nova@loja.example user.joined nova@loja.example",
		"nova@loja.example signin nova@loja.example"} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("audit log lacks %q: %q", want, got)
		}
	}
}

// TestRemoveAndDemote: a removed user's session ends at their next request; a role change
// holds at once; the last owner can be neither removed nor demoted.
func TestRemoveAndDemote(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	bia, err := e.dash.accounts.AddUser(ctx, "bia@loja.example", dashPassword, team.RoleOperator)
	if err != nil {
		t.Fatal(err)
	}
	owner := e.browser()
	csrf := owner.login()
	other := e.browser()
	other.loginAs("bia@loja.example", dashPassword)
	if res, _ := other.get("/dashboard/products/ebook-receitas-do-cerrado"); res.StatusCode != http.StatusOK {
		t.Fatalf("an operator's product page: %d", res.StatusCode)
	}
	res, _ := owner.post("/dashboard/users/"+bia.ID+"/role", url.Values{"role": {"viewer"}, "csrf_token": {csrf}})
	if loc := e.location(res); loc != "/dashboard/users?done=role" {
		t.Fatalf("role change: %q", loc)
	}
	if res, _ := other.get("/dashboard/products/ebook-receitas-do-cerrado"); res.StatusCode != http.StatusForbidden {
		t.Errorf("after demotion to viewer: %d, want 403 at once", res.StatusCode)
	}
	res, _ = owner.post("/dashboard/users/"+bia.ID+"/remove", url.Values{"csrf_token": {csrf}})
	e.location(res)
	if res, _ := other.get("/dashboard/orders"); res.StatusCode != http.StatusSeeOther ||
		!strings.HasPrefix(res.Header.Get("Location"), "/dashboard/login") {
		t.Errorf("a removed user's session: %d %q, want the sign-in", res.StatusCode, res.Header.Get("Location"))
	}
	me, _ := e.dash.accounts.UserByEmail(ctx, dashEmail)
	for _, path := range []string{"/dashboard/users/" + me.ID + "/remove", "/dashboard/users/" + me.ID + "/role"} {
		res, doc := owner.post(path, url.Values{"role": {"developer"}, "csrf_token": {csrf}})
		if res.StatusCode != http.StatusConflict || !strings.Contains(doc.Find(testid("users-error")).Text(), "último dono") {
			t.Errorf("%s of the last owner: %d", path, res.StatusCode)
		}
	}
	if u, _ := e.dash.accounts.UserByEmail(ctx, dashEmail); u == nil || u.Role != team.RoleOwner {
		t.Errorf("the last owner after the refusals: %+v", u)
	}
	// The audit page shows the changes, with before and after, and exports them.
	_, doc := owner.get("/dashboard/audit?action=user.role_changed")
	rows := doc.Find(testid("audit-row"))
	if rows.Length() != 1 || !strings.Contains(rows.Text(), `role: "operator" → "viewer"`) || !strings.Contains(rows.Text(), "bia@loja.example") {
		t.Errorf("audit page filtered by action: %d rows %q", rows.Length(), rows.Text())
	}
	res = owner.do(http.MethodGet, "/dashboard/audit.csv?actor="+url.QueryEscape(dashEmail), nil)
	defer res.Body.Close()
	recs, err := csv.NewReader(res.Body).ReadAll()
	if err != nil || res.StatusCode != http.StatusOK || len(recs) < 3 || recs[0][2] != "actor" {
		t.Fatalf("audit CSV: %d %v %v", res.StatusCode, recs, err)
	}
	for _, rec := range recs[1:] {
		if rec[2] != dashEmail {
			t.Errorf("the CSV filtered by actor holds %q", rec)
		}
	}
	_, _ = io.Copy(io.Discard, res.Body)
}
