package storetest

import (
	"bytes"
	"context"
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

// testImages: a product's picture is stored with its two variants, read back by key and size,
// kept when the product is updated, and refused (nothing stored) for an unknown product.
func testImages(t *testing.T, s checkout.Store) {
	ctx := context.Background()
	p := checkout.Product{ID: "caneca", Slug: "caneca", Title: "Caneca", UnitPrice: 5900, Physical: true, Active: true,
		CreatedAt: base, UpdatedAt: base}
	must(t, s.UpsertProduct(ctx, p))
	pic := &imaging.Picture{Key: "0123456789abcdef01234567", Variants: [2]imaging.Variant{
		{Width: 320, Height: 240, ContentType: "image/jpeg", Data: []byte("small\x00bytes")},
		{Width: 640, Height: 480, ContentType: "image/jpeg", Data: []byte("large\x00bytes")},
	}}
	must(t, s.SaveProductImage(ctx, p.ID, pic))
	if err := s.SaveProductImage(ctx, p.ID, pic); err != nil { // the same picture again
		t.Fatalf("saving the same picture again: %v", err)
	}
	got, err := s.Product(ctx, p.ID)
	want := checkout.ProductImage{Key: pic.Key, Ext: "jpg", Width: 640, Height: 480}
	if err != nil || got.Image != want {
		t.Fatalf("the product's picture: %+v, %v; want %+v", got.Image, err, want)
	}
	for size, data := range map[string][]byte{checkout.ImageSmall: pic.Variants[0].Data, checkout.ImageLarge: pic.Variants[1].Data} {
		v, err := s.ProductImageVariant(ctx, pic.Key, size)
		if err != nil || v.ContentType != "image/jpeg" || !bytes.Equal(v.Data, data) {
			t.Errorf("variant %s: %+v, %v", size, v, err)
		}
	}
	sameErr(t, "an unknown picture", errOf(s.ProductImageVariant(ctx, "nope", checkout.ImageSmall)), checkout.ErrNotFound)
	got.Title = "Caneca azul"
	must(t, s.UpsertProduct(ctx, *got))
	if again, _ := s.Product(ctx, p.ID); again.Image != want {
		t.Errorf("updating the product lost its picture: %+v", again.Image)
	}
	other := &imaging.Picture{Key: "ffffffffffffffffffffffff", Variants: pic.Variants}
	sameErr(t, "the picture of a missing product", s.SaveProductImage(ctx, "missing", other), checkout.ErrNotFound)
	sameErr(t, "reading the picture of a missing product", errOf(s.ProductImageVariant(ctx, other.Key, checkout.ImageSmall)), checkout.ErrNotFound)
}
