package web

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite"
	"github.com/pixcheckout/pixcheckout/checkout/sqlite/sqlitetest"
	"github.com/pixcheckout/pixcheckout/static"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

func TestPanicGivesA500PageWithoutInternals(t *testing.T) {
	dbFile := t.TempDir() + "/c.db"
	sqlitetest.Create(t, dbFile) // migrated once per test binary, as newEnv's stores
	store, err := sqlite.Open(context.Background(), dbFile)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s, err := New(Options{Site: &respond.Site{Log: slog.New(slog.DiscardHandler)}, Service: checkout.NewService(store, nil, checkout.ServiceOptions{}),
		Store: store, Assets: static.New()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	h := respond.Identify(s.logRequests(s.recoverPanics(s.securityHeaders(false)(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("secret internal detail")
	})))))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/boom", nil))
	if rec.Code != http.StatusInternalServerError {
		t.Errorf("status %d", rec.Code)
	}
	body := rec.Body.String()
	if strings.Contains(body, "secret internal detail") || strings.Contains(body, "goroutine") {
		t.Error("the error page shows internals")
	}
	if id := rec.Header().Get("X-Request-Id"); id == "" || !strings.Contains(body, id) {
		t.Error("the error page does not show the request id")
	}
	if rec.Header().Get("Content-Security-Policy") == "" {
		t.Error("no security headers on the 500 page")
	}
}
