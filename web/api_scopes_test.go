package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/web/apitest"
)

// TestAPIKeyScopesOnEveryOperation walks every operation openapi.json describes with a read
// key and a write key: a read key may make every GET and nothing else (403 forbidden, in the
// error shape the document gives), a write key everything. A new operation is walked without
// a change here.
func TestAPIKeyScopesOnEveryOperation(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	read, _, err := e.keys.Create(ctx, "relatórios", apikeys.ScopeRead, nil)
	if err != nil {
		t.Fatal(err)
	}
	write, _, err := e.keys.Create(ctx, "loja", apikeys.ScopeWrite, nil)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := apitest.Load()
	if err != nil {
		t.Fatal(err)
	}
	walked := 0
	for tmpl, item := range spec.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.Security != nil && len(*op.Security) == 0 {
				continue // needs no key (the document itself)
			}
			path := "/api/v1" + strings.NewReplacer("{id}", "nope").Replace(tmpl)
			var body any
			if method != http.MethodGet {
				body = sessionBody()
			}
			for _, k := range []struct {
				scope  apikeys.Scope
				secret string
			}{{apikeys.ScopeRead, read}, {apikeys.ScopeWrite, write}} {
				res := e.api(method, path, body, "Authorization", "Bearer "+k.secret)
				refused := res.status == http.StatusForbidden
				if want := k.scope == apikeys.ScopeRead && method != http.MethodGet; refused != want || res.status == http.StatusUnauthorized {
					t.Errorf("%s %s with a %s key: %d %s", method, path, k.scope, res.status, res.body)
				}
				if refused && res.errorCode() != "forbidden" {
					t.Errorf("%s %s with a %s key: code %q", method, path, k.scope, res.errorCode())
				}
				walked++
			}
		}
	}
	if walked < 12 {
		t.Errorf("only %d requests: the document's operations were not walked", walked)
	}
}
