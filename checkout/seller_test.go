package checkout_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// sellerCNPJ is the payee's CNPJ in the seller tests.
const sellerCNPJ = "11.222.333/0001-81"

// TestSellerFollowsTheSavedProfile: each transaction the checkout creates carries the seller of
// the store's saved profile (legal name and document) as the gateway receives it over HTTP; a
// save applies to the next order; a profile without a document sends no seller.
func TestSellerFollowsTheSavedProfile(t *testing.T) {
	var faces *brand.Manager
	e := newEnv(t, func(o *envOptions) {
		o.serviceOptions = func(so *checkout.ServiceOptions) {
			so.Seller = func(ctx context.Context) *gatewayclient.Seller {
				p, err := faces.Get(ctx)
				if err != nil {
					t.Errorf("reading the profile: %v", err)
				}
				return p.Seller()
			}
		}
	})
	faces = brand.NewManager(e.store, brand.Profile{Name: "Loja Teste"}, e.sb.Now)

	sent := func() map[string]any {
		t.Helper()
		c := e.cart(map[checkout.ProductID]int{ebook: 1})
		o, err := e.svc.PlaceOrder(e.ctx, checkout.PlaceOrderInput{Source: c.ID, RequestKey: checkout.NewID(), Customer: customer()})
		if err != nil || o.Status != checkout.StatusAwaitingPayment {
			t.Fatalf("PlaceOrder: %+v, %v", o, err)
		}
		all := e.received.all()
		var body map[string]any
		if err := json.Unmarshal(all[len(all)-1], &body); err != nil {
			t.Fatal(err)
		}
		seller, _ := body["seller"].(map[string]any)
		return seller
	}

	if s := sent(); s != nil {
		t.Errorf("a profile without a document sent the seller %v", s)
	}
	save := func(p brand.Profile) {
		t.Helper()
		if _, _, err := faces.Save(e.ctx, p); err != nil {
			t.Fatalf("saving %+v: %v", p, err)
		}
	}
	save(brand.Profile{Name: "Café Ñandu", LegalName: "Ñandu Comércio de Café Ltda", Document: sellerCNPJ})
	if s := sent(); s["name"] != "Ñandu Comércio de Café Ltda" || s["document"] != sellerCNPJ {
		t.Errorf("seller sent after the save: %v", s)
	}
	// Without a legal name, the payee is the store's name.
	save(brand.Profile{Name: "Empório Serrano", Document: validCPF})
	if s := sent(); s["name"] != "Empório Serrano" || s["document"] != validCPF {
		t.Errorf("seller sent after the second save: %v", s)
	}
}
