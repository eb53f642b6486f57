package views

import "testing"

// In embed.js's frame a session's pages are the payment UI only: one main landmark and nothing
// around it, no language links, no order summary unless asked for; outside the frame (or
// outside a session) the page keeps its header, footer and summary.
func TestEmbeddedPagesAreThePaymentUIOnly(t *testing.T) {
	session := Embed{SessionID: "s1", Origin: "https://shop.example", View: "pix", Status: "awaiting_payment"}
	for _, c := range []struct {
		name              string
		embed             Embed
		chrome, summaries bool
	}{
		{"a cart's order", Embed{Chromeless: true}, true, true},
		{"a session opened on its own", session, true, true},
		{"a session in embed.js's frame", withChromeless(session, false), false, false},
		{"a session in embed.js's frame, summary asked for", withChromeless(session, true), false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			pv := pixView(En)
			pv.Embed = c.embed
			cv := customerView(En, true)
			cv.Embed = c.embed
			for what, r := range map[string]rendered{"pix": render(t, PixPage(pv)), "form": render(t, CustomerPage(cv))} {
				if n := r.doc.Find("main").Length(); n != 1 {
					t.Errorf("%s: %d main elements", what, n)
				}
				chrome := r.doc.Find("header, footer, nav, .skip-link, a[hreflang]").Length()
				if (chrome > 0) != c.chrome {
					t.Errorf("%s: %d header/footer/nav/language elements, want any=%v", what, chrome, c.chrome)
				}
				if n := r.byTestID("order-summary").Length(); (n > 0) != c.summaries {
					t.Errorf("%s: %d order summaries, want any=%v", what, n, c.summaries)
				}
			}
		})
	}
}

func withChromeless(e Embed, summary bool) Embed {
	e.Chromeless, e.Summary = true, summary
	return e
}
