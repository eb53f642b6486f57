package cep_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout/cep"
)

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{"01310-100": "01310100", "01310100": "01310100", " 01310-100 ": "01310100"} {
		if got, err := cep.Normalize(in); err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0131-0100", "1234567", "123456789", "00000000", "abcde-fgh"} {
		if _, err := cep.Normalize(in); !errors.Is(err, cep.ErrInvalid) {
			t.Errorf("Normalize(%q): %v, want ErrInvalid", in, err)
		}
	}
}

// TestHTTPViaCEPFormat: the service's answers in ViaCEP's format, its "erro" and its failures.
func TestHTTPViaCEPFormat(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ws/01310100/json/":
			_, _ = w.Write([]byte(`{"cep":"01310-100","logradouro":"Avenida Paulista","complemento":"de 612 a 1510 - lado par","bairro":"Bela Vista","localidade":"São Paulo","uf":"sp","ibge":"3550308"}`))
		case "/ws/99999999/json/":
			_, _ = w.Write([]byte(`{"erro": "true"}`))
		case "/ws/11111111/json/":
			http.Error(w, "down", http.StatusBadGateway)
		case "/ws/22222222/json/":
			_, _ = w.Write([]byte(`<html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	p := cep.HTTP{URL: srv.URL + "/ws/{cep}/json/"}
	ctx := context.Background()
	a, err := p.Lookup(ctx, "01310100")
	if err != nil || a != (cep.Address{CEP: "01310100", Street: "Avenida Paulista", Neighborhood: "Bela Vista", City: "São Paulo", State: "SP"}) {
		t.Errorf("found: %+v, %v", a, err)
	}
	for _, c := range []string{"99999999", "12345678"} {
		if _, err := p.Lookup(ctx, c); !errors.Is(err, cep.ErrNotFound) {
			t.Errorf("%s: %v, want ErrNotFound", c, err)
		}
	}
	for _, c := range []string{"11111111", "22222222"} {
		if _, err := p.Lookup(ctx, c); err == nil || errors.Is(err, cep.ErrNotFound) {
			t.Errorf("%s: %v, want a failure that is not ErrNotFound", c, err)
		}
	}
}

type countingProvider struct {
	p     cep.Provider
	calls atomic.Int32
	fail  atomic.Bool
}

func (c *countingProvider) Lookup(ctx context.Context, s string) (cep.Address, error) {
	c.calls.Add(1)
	if c.fail.Load() {
		return cep.Address{}, errors.New("service down")
	}
	return c.p.Lookup(ctx, s)
}

// TestCached: found and unknown CEPs are asked once; a failure is not remembered.
func TestCached(t *testing.T) {
	inner := &countingProvider{p: cep.Sample()}
	c := cep.NewCached(inner, 0)
	ctx := context.Background()
	for range 3 {
		if a, err := c.Lookup(ctx, "01310100"); err != nil || a.City != "São Paulo" {
			t.Fatalf("lookup: %+v %v", a, err)
		}
		if _, err := c.Lookup(ctx, "12345678"); !errors.Is(err, cep.ErrNotFound) {
			t.Fatalf("unknown: %v", err)
		}
	}
	if n := inner.calls.Load(); n != 2 {
		t.Errorf("%d provider calls, want 2", n)
	}
	inner.fail.Store(true)
	for range 2 {
		if _, err := c.Lookup(ctx, "20040020"); err == nil || errors.Is(err, cep.ErrNotFound) {
			t.Errorf("failing service: %v", err)
		}
	}
	if n := inner.calls.Load(); n != 4 {
		t.Errorf("a failure was cached: %d calls, want 4", n)
	}
}

// TestSampleIsWellFormed: every CEP of the built-in table is valid, with a city and a state.
func TestSampleIsWellFormed(t *testing.T) {
	for k, a := range cep.Sample() {
		if n, err := cep.Normalize(k); err != nil || n != k || a.City == "" || len(a.State) != 2 {
			t.Errorf("%s: %+v (%v)", k, a, err)
		}
	}
}
