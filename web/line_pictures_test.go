package web_test

import (
	"strings"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestLinePictures: the cart, the customer form and the PIX page show each line's picture;
// the order keeps the one it was bought with when the product's picture changes later, and
// a payment link's form shows its product's.
func TestLinePictures(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const id = "ebook-receitas-do-cerrado"
	setPicture := func(key string) {
		t.Helper()
		p, err := e.store.Product(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		p.Image = checkout.ProductImage{Key: key, Ext: "jpg", Width: 640, Height: 480}
		if err := e.store.UpsertProduct(t.Context(), *p); err != nil {
			t.Fatal(err)
		}
	}
	picture := func(path string) string {
		t.Helper()
		_, doc := e.get(path)
		return doc.Find(testid("product-image")).AttrOr("src", "")
	}
	setPicture("foto-a")
	cart := e.newCart(id, "1")
	for _, path := range []string{cart, cart + "/checkout"} {
		if src := picture(path); !strings.Contains(src, "foto-a-s.jpg") {
			t.Errorf("%s shows the picture %q, want foto-a's", path, src)
		}
	}
	pay := e.placeOrder()
	setPicture("foto-b")
	if src := picture(pay); !strings.Contains(src, "foto-a-s.jpg") {
		t.Errorf("the PIX page shows the picture %q, want the one bought (foto-a)", src)
	}

	if _, _, err := e.svc.CreateLink(t.Context(), checkout.LinkInput{Title: "Receitas", Slug: "receitas",
		Items: []checkout.CheckoutSessionItem{{ProductID: id, Quantity: 1}}}); err != nil {
		t.Fatal(err)
	}
	if src := picture("/l/receitas"); !strings.Contains(src, "foto-b-s.jpg") {
		t.Errorf("the payment link's form shows the picture %q, want its product's (foto-b)", src)
	}
}
