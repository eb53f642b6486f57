package views

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestPixPartsWriteThePageOfEachInstant: the page PixParts writes at an instant it covers is,
// byte for byte, the page rendered at that instant; it covers no instant where anything else of
// the page changed (the QR code's last minutes, its expiry).
func TestPixPartsWriteThePageOfEachInstant(t *testing.T) {
	ctx := context.Background()
	pending := pixView(En)
	pending.Code, pending.QRImageURL, pending.ExpiresAt, pending.Status = "", "", time.Time{}, checkout.StatusPending
	views := map[string]PixView{"pt-BR": pixView(PtBR), "en": pixView(En), "pending": pending}
	offsets := []time.Duration{0, 1, 999 * time.Millisecond, time.Second, 90*time.Second + 123*time.Millisecond,
		24*time.Minute + 58*time.Second + 1, 24*time.Minute + 59*time.Second, 25 * time.Minute, 29*time.Minute + 58*time.Second + 500*time.Millisecond,
		29*time.Minute + 59*time.Second, 31 * time.Minute, 26 * time.Hour}
	for name, v := range views {
		for _, from := range offsets {
			at := v
			at.Now = v.Now.Add(from)
			parts, err := NewPixParts(ctx, at)
			if err != nil {
				t.Fatalf("%s at +%v: %v", name, from, err)
			}
			covered := 0
			for _, to := range offsets {
				later := v
				later.Now = v.Now.Add(to)
				want := renderBytes(t, later)
				if !parts.Covers(later.Now) {
					if timeState(later) == timeState(at) {
						t.Errorf("%s: rendered at +%v, does not cover +%v, where only the clock changed", name, from, to)
					}
					if _, err := parts.AppendTo(nil, later.Now); err == nil {
						t.Errorf("%s: wrote an instant it does not cover", name)
					}
					continue
				}
				covered++
				got, err := parts.AppendTo(nil, later.Now)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s: rendered at +%v, written for +%v: differs from the page rendered then", name, from, to)
				}
			}
			if covered < 2 {
				t.Errorf("%s at +%v: covers %d instants of %d", name, from, covered, len(offsets))
			}
		}
	}
	// Urgency and expiry are not the clock's: a page of the first minutes covers neither.
	v := pixView(PtBR)
	parts, err := NewPixParts(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	if parts.Covers(v.ExpiresAt.Add(-UrgentSeconds*time.Second)) || parts.Covers(v.ExpiresAt) {
		t.Error("the page of the first minutes covers the last ones or the expiry")
	}
}

func renderBytes(t *testing.T, v PixView) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := PixPage(v).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
