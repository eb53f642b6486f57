package checkout

import (
	"context"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// demoCatalogue is the catalogue of a fresh demo shop: digital and physical products, in pt-BR.
// A function, not a package variable: each caller gets its own copy.
func demoCatalogue() []Product {
	return []Product{
		{ID: "ebook-receitas-do-cerrado", Slug: "ebook-receitas-do-cerrado", Title: "E-book: Receitas do Cerrado",
			Description: "Quarenta receitas com pequi, baru e cagaita, em PDF.", UnitPrice: 2990},
		{ID: "caneca-de-ceramica", Slug: "caneca-de-ceramica", Title: "Caneca de cerâmica",
			Description: "Caneca artesanal de 300 ml, esmaltada à mão em Cunha (SP).", UnitPrice: 5900, Physical: true},
		{ID: "curso-fotografia-celular", Slug: "curso-fotografia-celular", Title: "Curso online: Fotografia com o celular",
			Description: "Doze aulas em vídeo, com acesso por um ano.", UnitPrice: 14900},
		{ID: "camiseta-ipe-amarelo", Slug: "camiseta-ipe-amarelo", Title: "Camiseta Ipê Amarelo",
			Description: "Algodão orgânico, estampa em serigrafia.", UnitPrice: 7990, Physical: true},
		{ID: "cafe-especial-250g", Slug: "cafe-especial-250g", Title: "Café especial do Cerrado Mineiro (250 g)",
			Description: "Torra média, notas de chocolate e caramelo.", UnitPrice: 4250, Physical: true},
	}
}

// SeedDemoCatalogue adds the demo products that are missing; products already stored (possibly
// edited by the merchant) are left alone, so calling it at every start is harmless. The store
// decides what is missing (Store.AddProduct), so instances starting together on one database
// seed it once and none fails.
func SeedDemoCatalogue(ctx context.Context, store Store) error {
	now := time.Now().UTC()
	for _, p := range demoCatalogue() {
		if p.UnitPrice < gatewayclient.MinAmount {
			return fmt.Errorf("checkout: seeding %s: price %d below the minimum", p.ID, p.UnitPrice)
		}
		p.Active = true
		p.CreatedAt, p.UpdatedAt = now, now
		if _, err := store.AddProduct(ctx, p); err != nil {
			return fmt.Errorf("checkout: seeding %s: %w", p.ID, err)
		}
	}
	return nil
}
