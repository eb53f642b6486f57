package cep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// ViaCEP is the URL template of ViaCEP's public service; "{cep}" is replaced by the 8 digits.
const ViaCEP = "https://viacep.com.br/ws/{cep}/json/"

// HTTP looks CEPs up in a web service answering ViaCEP's JSON: {"logradouro", "bairro",
// "localidade", "uf"}, or {"erro": true} (or a 404) for an unknown CEP.
type HTTP struct {
	URL    string       // template with "{cep}", e.g. ViaCEP
	Client *http.Client // nil: a client with a 3-second timeout
}

// maxAnswer bounds the body read from the service.
const maxAnswer = 64 << 10

// Lookup asks the service.
func (h HTTP) Lookup(ctx context.Context, cep string) (Address, error) {
	c := h.Client
	if c == nil {
		c = &http.Client{Timeout: 3 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.ReplaceAll(h.URL, "{cep}", cep), nil)
	if err != nil {
		return Address{}, fmt.Errorf("cep: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return Address{}, fmt.Errorf("cep: %w", err)
	}
	defer res.Body.Close()
	switch {
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusBadRequest:
		return Address{}, ErrNotFound
	case res.StatusCode != http.StatusOK:
		return Address{}, fmt.Errorf("cep: the service answered %d", res.StatusCode)
	}
	var v struct {
		Street       string `json:"logradouro"`
		Neighborhood string `json:"bairro"`
		City         string `json:"localidade"`
		State        string `json:"uf"`
		Erro         any    `json:"erro"` // true, or "true" in some versions
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, maxAnswer)).Decode(&v); err != nil {
		return Address{}, fmt.Errorf("cep: unreadable answer: %w", err)
	}
	if v.Erro == true || v.Erro == "true" || v.City == "" {
		return Address{}, ErrNotFound
	}
	return Address{CEP: cep, Street: v.Street, Neighborhood: v.Neighborhood, City: v.City, State: strings.ToUpper(v.State)}, nil
}

// Table answers from a fixed table of CEPs (8 digits to address).
type Table map[string]Address

// Lookup finds cep in the table.
func (t Table) Lookup(_ context.Context, cep string) (Address, error) {
	a, ok := t[cep]
	if !ok {
		return Address{}, ErrNotFound
	}
	a.CEP = cep
	return a, nil
}

// Sample is the built-in table of sandbox mode: well-known addresses in each region, so that a
// demo and the tests fill an address without reaching any service.
func Sample() Table {
	return Table{
		"01310100": {Street: "Avenida Paulista", Neighborhood: "Bela Vista", City: "São Paulo", State: "SP"},
		"01001000": {Street: "Praça da Sé", Neighborhood: "Sé", City: "São Paulo", State: "SP"},
		"20040020": {Street: "Avenida Rio Branco", Neighborhood: "Centro", City: "Rio de Janeiro", State: "RJ"},
		"22021001": {Street: "Avenida Atlântica", Neighborhood: "Copacabana", City: "Rio de Janeiro", State: "RJ"},
		"30130010": {Street: "Praça Sete de Setembro", Neighborhood: "Centro", City: "Belo Horizonte", State: "MG"},
		"40020000": {Street: "Avenida Sete de Setembro", Neighborhood: "Centro", City: "Salvador", State: "BA"},
		"50030230": {Street: "Rua do Bom Jesus", Neighborhood: "Recife", City: "Recife", State: "PE"},
		"60060170": {Street: "Avenida Beira Mar", Neighborhood: "Meireles", City: "Fortaleza", State: "CE"},
		"69005070": {Street: "Avenida Eduardo Ribeiro", Neighborhood: "Centro", City: "Manaus", State: "AM"},
		"70040010": {Street: "Esplanada dos Ministérios", Neighborhood: "Zona Cívico-Administrativa", City: "Brasília", State: "DF"},
		"80020310": {Street: "Rua XV de Novembro", Neighborhood: "Centro", City: "Curitiba", State: "PR"},
		"88010400": {Street: "Rua Felipe Schmidt", Neighborhood: "Centro", City: "Florianópolis", State: "SC"},
		"90010150": {Street: "Rua dos Andradas", Neighborhood: "Centro Histórico", City: "Porto Alegre", State: "RS"},
		"74003010": {Street: "Avenida Goiás", Neighborhood: "Setor Central", City: "Goiânia", State: "GO"},
		"66010000": {Street: "Avenida Presidente Vargas", Neighborhood: "Campina", City: "Belém", State: "PA"},
		"78005000": {City: "Cuiabá", State: "MT"}, // a city-wide CEP: the street is the shopper's to type
	}
}

// Cached remembers the answers of a provider (found and not found alike) in a bounded map, so
// that a shopper retyping a CEP, or many shoppers of one city, cost one lookup.
type Cached struct {
	p   Provider
	max int

	mu      sync.Mutex
	entries map[string]cached
}

type cached struct {
	a     Address
	found bool
}

// NewCached wraps p with a cache of at most max CEPs (0: 10,000).
func NewCached(p Provider, max int) *Cached {
	if max <= 0 {
		max = 10_000
	}
	return &Cached{p: p, max: max, entries: map[string]cached{}}
}

// Lookup answers from the cache, else from the provider; errors other than ErrNotFound (the
// service is down) are not remembered.
func (c *Cached) Lookup(ctx context.Context, cep string) (Address, error) {
	c.mu.Lock()
	e, ok := c.entries[cep]
	c.mu.Unlock()
	if ok {
		if !e.found {
			return Address{}, ErrNotFound
		}
		return e.a, nil
	}
	a, err := c.p.Lookup(ctx, cep)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Address{}, err
	}
	c.mu.Lock()
	if len(c.entries) >= c.max {
		clear(c.entries) // rare: start again rather than track ages
	}
	c.entries[cep] = cached{a: a, found: err == nil}
	c.mu.Unlock()
	return a, err
}
