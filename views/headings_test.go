package views

import "testing"

// TestOneH1PerDashboardProductPage: the product's edit page is headed by its form's title, an
// h1 (it had none); the products page keeps its own h1, the new-product form an h2 under it.
func TestOneH1PerDashboardProductPage(t *testing.T) {
	for _, lang := range Langs() {
		dp := DashPage{Page: page(lang, "/dashboard/products"), User: "dona@example.com", CSRF: "csrf", Section: "products",
			Perms: map[string]bool{"products.write": true}}
		form := ProductFormView{Action: "/dashboard/products/caneca", Title: "Editar Caneca", Submit: "Salvar", ID: "caneca",
			Values: map[string]string{}}
		edit := render(t, ProductEditPage(ProductEditView{DashPage: dp, BackURL: "/dashboard/products", Form: form}))
		if h := edit.doc.Find("h1"); h.Length() != 1 || text(h) != "Editar Caneca" {
			t.Errorf("%s: the edit page has %d h1 (%q), want one: its form's title", lang, h.Length(), text(h))
		}
		form.Title = "Novo produto"
		list := render(t, ProductsPage(ProductsView{DashPage: dp, Form: form}))
		if h := list.doc.Find("h1"); h.Length() != 1 || text(h) != T(lang, "products.heading") {
			t.Errorf("%s: the products page has %d h1 (%q), want its heading alone", lang, h.Length(), text(h))
		}
		if h := list.doc.Find(`[data-testid="product-form"] h2`); text(h) != "Novo produto" {
			t.Errorf("%s: the new-product form's heading is %q, want an h2", lang, text(h))
		}
	}
}
