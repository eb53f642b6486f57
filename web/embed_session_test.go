package web_test

import (
	"net/http"
	"strings"
	"testing"
)

// A session's pages asked for with ?embed= (embed.js does) are the payment UI only, from the
// form to the PIX page: the form posts back with the parameter, the redirect to the PIX page
// keeps it, and so do the PIX page's own links; ?embed=summary keeps the summary. The same
// session without it is a whole page.
func TestEmbeddedSessionStaysChromeless(t *testing.T) {
	e := newEnv(t)
	res := e.api("POST", "/api/v1/checkout-sessions", sessionBody())
	if res.status != http.StatusCreated {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	id, _ := res.json["id"].(string)

	whole, doc := e.get("/s/" + id)
	if whole.StatusCode != 200 || doc.Find("header, footer, nav").Length() == 0 || doc.Find(testid("order-summary")).Length() != 1 {
		t.Fatalf("the session on its own lost its page: %d", whole.StatusCode)
	}

	_, doc = e.get("/s/" + id + "?embed=1&lang=en")
	if n := doc.Find("header, footer, nav, a[hreflang]").Length(); n != 0 {
		t.Errorf("the framed form has %d header/footer/nav/language elements", n)
	}
	if doc.Find("main").Length() != 1 || doc.Find(testid("order-summary")).Length() != 0 {
		t.Errorf("the framed form: %d main, %d summaries", doc.Find("main").Length(), doc.Find(testid("order-summary")).Length())
	}
	action, _ := doc.Find(testid("checkout-form")).Attr("action")
	if !strings.Contains(action, "embed=1") || !strings.Contains(action, "lang=en") {
		t.Errorf("the form posts to %q, without the frame's parameters", action)
	}
	form := customer("")
	form.Del("request_key")
	post := e.do("POST", action, strings.NewReader(form.Encode()))
	post.Body.Close()
	pay := e.location(post)
	if !strings.HasPrefix(pay, "/pay/") || !strings.Contains(pay, "embed=1") {
		t.Fatalf("the order placed in the frame goes to %q", pay)
	}
	_, doc = e.get(pay)
	if doc.Find("header, footer, nav").Length() != 0 || doc.Find("main").Length() != 1 || doc.Find(testid("order-summary")).Length() != 0 {
		t.Errorf("the framed PIX page is not the payment UI only")
	}
	if u, _ := doc.Find("[data-paid-url]").Attr("data-paid-url"); !strings.Contains(u, "embed=1") {
		t.Errorf("the PIX page's paid URL %q leaves the frame's mode", u)
	}
	_, doc = e.get(orderPath(pay) + "?embed=summary")
	if doc.Find("header").Length() != 0 || doc.Find(testid("order-summary")).Length() != 1 {
		t.Errorf("?embed=summary: %d headers, %d summaries", doc.Find("header").Length(), doc.Find(testid("order-summary")).Length())
	}
	_, doc = e.get(orderPath(pay) + "?embed=other")
	if doc.Find("header").Length() != 1 {
		t.Errorf("an unknown ?embed= value made the page chromeless")
	}
}

// orderPath is a /pay/{id} path without its query.
func orderPath(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		return p[:i]
	}
	return p
}
