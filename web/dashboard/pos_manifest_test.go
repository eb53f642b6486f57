package dashboard_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // the test's own connection to the store's file
)

// manifestIcons reads the point of sale's web app manifest and returns its icons' sources by
// size, the PNG ones only.
func manifestIcons(t *testing.T, b *browser) map[string]string {
	t.Helper()
	res := b.do(http.MethodGet, "/dashboard/pos/manifest.webmanifest", nil)
	defer res.Body.Close()
	var m struct {
		Icons []struct{ Src, Sizes, Type string }
	}
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("the manifest: %d, %v", res.StatusCode, err)
	}
	icons := map[string]string{}
	for _, i := range m.Icons {
		if i.Type == "image/png" {
			icons[i.Sizes] = i.Src
		}
	}
	return icons
}

// checkAppIcons: the manifest lists a 192 × 192 and a 512 × 512 PNG icon, each of whose URLs
// answers a PNG of exactly that size; it returns their sources.
func checkAppIcons(t *testing.T, e *env, b *browser, what string) map[string]string {
	t.Helper()
	icons := manifestIcons(t, b)
	for size, side := range map[string]int{"192x192": 192, "512x512": 512} {
		src := icons[size]
		if src == "" {
			t.Fatalf("%s: the manifest has no %s PNG icon: %v", what, size, icons)
		}
		res := e.do(http.MethodGet, src, nil)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		img, err := png.Decode(bytes.NewReader(body))
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" || err != nil ||
			img.Bounds().Dx() != side || img.Bounds().Dy() != side {
			t.Fatalf("%s: GET %s: %d %s, %v", what, src, res.StatusCode, res.Header.Get("Content-Type"), err)
		}
	}
	return icons
}

// TestPOSManifestIcons: the installable point of sale's manifest lists icons of 192 and 512
// pixels, PNGs of exactly those sizes: the product's own without a logo, then the store's logo
// once uploaded, at versioned URLs; a logo stored before those sizes existed gets them at their
// first request.
func TestPOSManifestIcons(t *testing.T) {
	e, b := signedIn(t)
	icons := checkAppIcons(t, e, b, "no logo")
	if strings.HasPrefix(icons["192x192"], "/images/store/") {
		t.Fatalf("a store without a logo lists %q", icons["192x192"])
	}
	res, _ := b.uploadAs("/dashboard/store/logo", b.csrf(), "logo", "logo.png", pngWithText(t, 300, 100, "x"))
	if loc := e.location(res); loc != "/dashboard/store?done=logo" {
		t.Fatalf("the upload: %q", loc)
	}
	icons = checkAppIcons(t, e, b, "a logo")
	for size, suffix := range map[string]string{"192x192": "-192.png", "512x512": "-512.png"} {
		if !strings.HasPrefix(icons[size], "/images/store/") || !strings.HasSuffix(icons[size], suffix) {
			t.Errorf("the logo's %s icon: %q", size, icons[size])
		}
	}
	// The logo as an older version stored it: without those sizes.
	db, err := sql.Open("sqlite", "file:"+e.dbFile+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if r, err := db.Exec(`DELETE FROM store_logo_images WHERE size IN ('192', '512')`); err != nil {
		t.Fatal(err)
	} else if n, _ := r.RowsAffected(); n != 2 {
		t.Fatalf("%d app icons stored with the upload, want 2", n)
	}
	checkAppIcons(t, e, b, "a logo stored before the app icons")
	var n int
	if err := db.QueryRow(`SELECT COUNT(*) FROM store_logo_images WHERE size IN ('192', '512')`).Scan(&n); err != nil || n != 2 {
		t.Errorf("the icons made at the first request are not stored: %d, %v", n, err)
	}
}
