package web

import (
	"context"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// TestPixPagesFollowTheSnapshot: a kept page is the page of one snapshot of its order, of one
// shop name and of one answer to "may a new QR code be made"; anything else is rendered again.
func TestPixPagesFollowTheSnapshot(t *testing.T) {
	now := time.Date(2026, 3, 10, 15, 0, 0, 0, time.UTC)
	parts, err := views.NewPixParts(context.Background(), views.PixView{Now: now, Status: checkout.StatusPending})
	if err != nil {
		t.Fatal(err)
	}
	o := &checkout.Order{ID: "o1", Status: checkout.StatusPending}
	c := newPixPages()
	k := pixPageKey{uri: "/pay/o1", lang: views.PtBR}
	c.put(k, &pixPage{order: o, merchant: "Loja", renewable: true, parts: parts})
	if c.get(k, o, "Loja", now.Add(time.Second)) == nil {
		t.Fatal("the page of the same snapshot was not found")
	}
	changed := *o // a new snapshot of the order, even with the same content
	if c.get(k, &changed, "Loja", now) != nil {
		t.Error("the page of an earlier snapshot was given for a new one")
	}
	if c.get(k, o, "Outra Loja", now) != nil {
		t.Error("the page of the old shop name was given after the name changed")
	}
	if c.get(pixPageKey{uri: "/pay/o1", lang: views.En}, o, "Loja", now) != nil {
		t.Error("the Portuguese page was given for English")
	}
	deadline := &checkout.Order{ID: "o1", Status: checkout.StatusPending, PayBy: now.Add(time.Minute)}
	c.put(k, &pixPage{order: deadline, merchant: "Loja", renewable: true, parts: parts})
	if c.get(k, deadline, "Loja", now) != nil {
		t.Error("a page offering a new QR code was given past the time one may be made")
	}
	for i := range pixPagesMax + 10 {
		c.put(pixPageKey{uri: "/pay/" + string(rune('a'+i%26)) + time.Duration(i).String()}, &pixPage{order: o, parts: parts})
	}
	if len(c.m) > pixPagesMax {
		t.Errorf("%d pages kept, at most %d", len(c.m), pixPagesMax)
	}
}
