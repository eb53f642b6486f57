package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

// RunBrand runs the suite of the store's profile (brand.Store) and its Manager. open must
// return a new, empty store for each call and arrange its closing with t.Cleanup.
func RunBrand(t *testing.T, open func(t *testing.T) brand.Store) {
	t.Run("Profile", func(t *testing.T) { testBrandProfile(t, open(t)) })
	t.Run("Manager", func(t *testing.T) { testBrandManager(t, open(t)) })
	t.Run("ManagerSave", func(t *testing.T) { testBrandSave(t, open(t)) })
	t.Run("Logo", func(t *testing.T) { testBrandLogo(t, open(t)) })
}

// testBrandProfile: every field comes back as saved; a save must follow the stored version by
// one, so that of two saves from one version the second is refused, changing nothing.
func testBrandProfile(t *testing.T, s brand.Store) {
	ctx := context.Background()
	if _, err := s.StoreProfile(ctx); !errors.Is(err, checkout.ErrNotFound) {
		t.Fatalf("an empty store's profile: %v, want ErrNotFound", err)
	}
	at := time.Date(2026, 5, 4, 13, 0, 0, 0, time.UTC)
	p := brand.Profile{Name: "Café Ñandu", LegalName: "Ñandu Comércio Ltda", Document: "11.222.333/0001-81",
		Address: "Rua A, 1\nSão Paulo - SP", SupportEmail: "oi@nandu.example", SupportPhone: "(11) 98765-4321",
		SupportURL: "https://nandu.example/ajuda", BrandColor: "#ff0000", AccentColor: "#00aa00", Note: "Trocas em 7 dias",
		Thanks: "Valeu!", LogoKey: "abc123", Version: 1, UpdatedAt: at}
	if err := s.SaveStoreProfile(ctx, p); err != nil {
		t.Fatal(err)
	}
	if got, err := s.StoreProfile(ctx); err != nil || got != p {
		t.Fatalf("read back %+v, %v; want %+v", got, err, p)
	}
	if err := s.SaveStoreProfile(ctx, p); !errors.Is(err, checkout.ErrConflict) {
		t.Fatalf("a second first save: %v, want ErrConflict", err)
	}
	q := p
	q.Name, q.Version = "Outra", 2
	if err := s.SaveStoreProfile(ctx, q); err != nil {
		t.Fatal(err)
	}
	stale := p
	stale.Name, stale.Version = "Perdida", 2
	if err := s.SaveStoreProfile(ctx, stale); !errors.Is(err, checkout.ErrConflict) {
		t.Fatalf("a save from a stale version: %v, want ErrConflict", err)
	}
	if got, _ := s.StoreProfile(ctx); got.Name != "Outra" || got.Version != 2 {
		t.Fatalf("after the refused save: %q v%d, want Outra v2", got.Name, got.Version)
	}
}

// testBrandManager: the configuration's profile is stored once, at the first start; a saved
// profile survives a start with other configuration; a save through one manager is seen at once
// by it, and by another (another instance) once it forgets what it kept.
func testBrandManager(t *testing.T, s brand.Store) {
	ctx := context.Background()
	env := brand.Profile{Name: "Loja do Env", SupportEmail: "env@loja.example"}
	a := brand.NewManager(s, env, nil)
	if err := a.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	if p, err := a.Get(ctx); err != nil || p.Name != "Loja do Env" || p.Version != 1 {
		t.Fatalf("seeded: %+v, %v", p, err)
	}
	b := brand.NewManager(s, brand.Profile{Name: "Outro Env"}, nil)
	if err := b.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	if p, _ := b.Get(ctx); p.Name != "Loja do Env" {
		t.Fatalf("a second start with other configuration: %q, want the stored Loja do Env", p.Name)
	}
	in := env
	in.Name = "Loja Nova"
	before, after, err := a.Save(ctx, in)
	if err != nil || before.Name != "Loja do Env" || after.Name != "Loja Nova" || after.Version != 2 {
		t.Fatalf("save: %+v → %+v, %v", before, after, err)
	}
	if p, _ := a.Get(ctx); p.Name != "Loja Nova" {
		t.Fatalf("the saving manager reads %q", p.Name)
	}
	if p, _ := b.Get(ctx); p.Name != "Loja do Env" {
		t.Fatalf("the other manager before its feed told it: %q (it keeps what it read)", p.Name)
	}
	b.Forget()
	if p, _ := b.Get(ctx); p.Name != "Loja Nova" {
		t.Fatalf("the other manager after Forget: %q", p.Name)
	}
}

// testBrandSave: a save of the form keeps the logo; an invalid profile is refused naming each
// field.
func testBrandSave(t *testing.T, s brand.Store) {
	ctx := context.Background()
	a := brand.NewManager(s, brand.Profile{Name: "Loja"}, nil)
	in := brand.Profile{Name: "Loja Nova"}
	if _, _, err := a.SetLogo(ctx, "k1"); err != nil {
		t.Fatal(err)
	}
	in.Name = "Loja Nova 2"
	if _, after, err := a.Save(ctx, in); err != nil || after.LogoKey != "k1" {
		t.Fatalf("a save of the form keeps the logo: %+v, %v", after, err)
	}
	bad := in
	bad.Document, bad.BrandColor, bad.Name = "111.111.111-11", "red", ""
	_, _, err := a.Save(ctx, bad)
	var fe *checkout.ValidationError
	if !errors.As(err, &fe) || !fe.Has(brand.FieldDocument) || !fe.Has(brand.FieldBrandColor) || !fe.Has(brand.FieldName) {
		t.Fatalf("an invalid profile: %v", err)
	}
}

// fakeLogo is a logo's pictures as imaging would make them, each size's data naming its key and
// size (no decoding: the store keeps bytes).
func fakeLogo(key string, w, h int) *imaging.Logo {
	l := &imaging.Logo{Key: key}
	for i, size := range imaging.LogoSizes {
		l.Variants[i] = imaging.Variant{Width: w, Height: h, ContentType: "image/png", Data: []byte(key + "/" + size)}
	}
	return l
}

// testBrandLogo: a logo's pictures are stored and served by key and size, the profile reads the
// header picture's size with the key; removing the logo keeps its pictures served (e-mails sent
// show them), and the profile reads no size.
func testBrandLogo(t *testing.T, s brand.Store) {
	ctx := context.Background()
	a := brand.NewManager(s, brand.Profile{Name: "Loja"}, nil)
	if err := a.Seed(ctx); err != nil {
		t.Fatal(err)
	}
	before, after, err := a.UseLogo(ctx, fakeLogo("0123456789abcdef01234567", 384, 96))
	if err != nil || before.LogoKey != "" || after.LogoKey != "0123456789abcdef01234567" {
		t.Fatalf("UseLogo: %+v → %+v, %v", before, after, err)
	}
	if p, _ := a.Get(ctx); p.LogoKey != "0123456789abcdef01234567" || p.LogoWidth != 384 || p.LogoHeight != 96 {
		t.Fatalf("the profile with a logo: key %q %dx%d", p.LogoKey, p.LogoWidth, p.LogoHeight)
	}
	// The same pictures again (the same upload): stored once, no error.
	if err := s.SaveStoreLogo(ctx, fakeLogo("0123456789abcdef01234567", 384, 96)); err != nil {
		t.Fatal(err)
	}
	checkLogoPictures(t, a, "0123456789abcdef01234567")
	checkLogoPictureAdded(t, s, "0123456789abcdef01234567")
	if _, _, err := a.SetLogo(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.Get(ctx); p.LogoKey != "" || p.LogoWidth != 0 || p.LogoHeight != 0 {
		t.Fatalf("the profile without its logo: key %q %dx%d", p.LogoKey, p.LogoWidth, p.LogoHeight)
	}
	if _, err := a.LogoImage(ctx, "0123456789abcdef01234567", imaging.LogoMail); err != nil {
		t.Fatalf("a former logo's picture: %v", err)
	}
}

// checkLogoPictureAdded: one picture more of a stored logo (a size added since) is stored
// once: a second save keeps the first.
func checkLogoPictureAdded(t *testing.T, s brand.Store, key string) {
	t.Helper()
	ctx := context.Background()
	for _, data := range []string{"first", "second"} {
		if err := s.SaveStoreLogoImage(ctx, key, "new-size",
			imaging.Variant{Width: 9, Height: 9, ContentType: "image/png", Data: []byte(data)}); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := s.StoreLogoImage(ctx, key, "new-size"); err != nil || string(v.Data) != "first" {
		t.Fatalf("a picture added to a logo: %+v, %v", v, err)
	}
}

// checkLogoPictures: every size of the logo key is served as stored, and an unknown size, key
// or an empty key is not found.
func checkLogoPictures(t *testing.T, a *brand.Manager, key string) {
	t.Helper()
	ctx := context.Background()
	for _, size := range imaging.LogoSizes {
		v, err := a.LogoImage(ctx, key, size)
		if err != nil || v.ContentType != "image/png" || string(v.Data) != key+"/"+size {
			t.Fatalf("picture %s: %+v, %v", size, v, err)
		}
	}
	for _, c := range [][2]string{{key, "l"}, {"ffffffffffffffffffffffff", "h"}, {"", "h"}} {
		if _, err := a.LogoImage(ctx, c[0], c[1]); !errors.Is(err, checkout.ErrNotFound) {
			t.Fatalf("picture %q %q: %v, want ErrNotFound", c[0], c[1], err)
		}
	}
}
