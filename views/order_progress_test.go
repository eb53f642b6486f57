package views

import (
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestOrderPageStates: the order page says each stage of the order's life after payment, in
// both languages, with its live status and what the stage brings (the tracking code and the
// carrier's page, a refund and its amount, a late or double payment the shop returns), and
// stays embedded in embed.js's frame.
func TestOrderPageStates(t *testing.T) {
	at := time.Date(2026, 3, 10, 15, 4, 0, 0, time.UTC)
	shipped := OrderProgress{Stage: StageShipped, Physical: true, Amount: 5900, Carrier: "Correios", TrackingCode: "AA123456789BR",
		TrackingURL: checkout.TrackingURL("Correios", "AA123456789BR"), ShippedAt: at}
	delivered := shipped
	delivered.Stage, delivered.DeliveredAt = StageDelivered, at
	jadlog := shipped
	jadlog.Carrier, jadlog.TrackingURL = "Jadlog", ""
	refund := checkout.RecordedRefund{On: "2026-03-11", Amount: 2000}
	for _, c := range []struct {
		name     string
		g        OrderProgress
		canceled bool
		want     map[string]func(Lang) string // testid: text it contains
		none     []string
	}{
		{name: "awaiting shipment", g: OrderProgress{Stage: StagePaid, Physical: true, Amount: 5900},
			want: map[string]func(Lang) string{"order-steps": tr("progress.step_paid")}, none: []string{"tracking-code"}},
		{name: "shipped", g: shipped, want: map[string]func(Lang) string{"tracking-code": fixed("AA123456789BR"), "carrier": fixed("Correios")}},
		{name: "shipped by a carrier without a page", g: jadlog, want: map[string]func(Lang) string{"tracking-code": fixed("AA123456789BR")},
			none: []string{"tracking-link"}},
		{name: "delivered", g: delivered, want: map[string]func(Lang) string{"tracking-code": fixed("AA123456789BR")}},
		{name: "refunding", g: OrderProgress{Stage: StageRefunding, Amount: 5900},
			want: map[string]func(Lang) string{"refunding": money(5900), "paid": tr("paid.heading_refunding")}},
		{name: "refunded", g: OrderProgress{Stage: StageRefunded, Amount: 5900},
			want: map[string]func(Lang) string{"refunded": money(5900), "paid": tr("paid.heading_refunded")}},
		{name: "paid twice, partly returned", g: OrderProgress{Stage: StagePaid, Amount: 5900, RefundDue: 3900,
			DueReason: checkout.ReasonPaidTwice, Refunds: []checkout.RecordedRefund{refund}},
			want: map[string]func(Lang) string{"refund-due": money(3900), "refund-recorded": money(2000)}, none: []string{"late-payment"}},
		{name: "canceled", canceled: true, g: OrderProgress{Stage: StageCanceled, Amount: 5900},
			want: map[string]func(Lang) string{"canceled-text": fixed("PX-1")}, none: []string{"refund-due"}},
		{name: "paid after cancellation", canceled: true, g: OrderProgress{Stage: StageCanceled, Amount: 5900, LatePayment: true,
			RefundDue: 5900, DueReason: checkout.ReasonPaidAfterCancel},
			want: map[string]func(Lang) string{"refund-due": money(5900)}, none: []string{"canceled-text", "late-payment"}},
		{name: "paid after cancellation, returned", canceled: true, g: OrderProgress{Stage: StageCanceled, Amount: 5900, LatePayment: true,
			DueReason: checkout.ReasonPaidAfterCancel, Refunds: []checkout.RecordedRefund{{On: "2026-03-11", Amount: 5900}}},
			want: map[string]func(Lang) string{"refund-recorded": money(5900)}, none: []string{"canceled-text", "refund-due"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, lang := range Langs() {
				for _, frame := range []bool{false, true} {
					r := renderOrderPage(t, lang, c.g, c.canceled, frame)
					st := r.one(t, "order-status")
					if st.AttrOr("data-status", "") != c.g.Stage || text(st) != StageText(lang, c.g.Stage) ||
						st.AttrOr("aria-live", "") != "polite" || st.AttrOr("role", "") != "status" {
						t.Errorf("%s: status %q %q", lang, st.AttrOr("data-status", ""), text(st))
					}
					for id, want := range c.want {
						if got := text(r.one(t, id)); !strings.Contains(got, want(lang)) {
							t.Errorf("%s %s: %q lacks %q", lang, id, got, want(lang))
						}
					}
					for _, id := range c.none {
						r.none(t, id)
					}
					if c.g.TrackingURL != "" {
						if href := r.one(t, "tracking-link").AttrOr("href", ""); href != c.g.TrackingURL {
							t.Errorf("tracking link %q", href)
						}
					}
					if live := r.doc.Find("[data-order-live]"); live.AttrOr("data-events-url", "") != "/pay/abc/events?view=x" {
						t.Errorf("live root %q", live.AttrOr("data-events-url", ""))
					}
					if chrome := r.doc.Find("header, footer").Length(); frame != (chrome == 0) {
						t.Errorf("%s frame=%v: %d header/footer", lang, frame, chrome)
					}
				}
			}
		})
	}
}

func renderOrderPage(t *testing.T, lang Lang, g OrderProgress, canceled, frame bool) rendered {
	t.Helper()
	p := page(lang, "/pay/abc")
	if frame {
		p.Embed = Embed{SessionID: "s1", Origin: "https://shop.example", View: "paid", Status: "paid", Chromeless: true}
	}
	live := OrderLive{EventsURL: "/pay/abc/events?view=x", StatusURL: "/pay/abc/status?view=x", StageKey: "k"}
	if canceled {
		r := render(t, CanceledPage(CanceledView{Page: p, OrderNumber: "PX-1", Amount: g.Amount, Progress: g, OrderLive: live}))
		if !frame {
			checkCommon(t, r, lang, "/pay/abc")
		}
		return r
	}
	r := render(t, PaidPage(PaidView{Page: p, OrderNumber: "PX-1", Amount: g.Amount, Progress: g, OrderLive: live,
		ShipTo: "Avenida Paulista, 1000", Email: "maria@example.com"}))
	if !frame {
		checkCommon(t, r, lang, "/pay/abc")
	}
	return r
}

func tr(key string) func(Lang) string  { return func(l Lang) string { return T(l, key) } }
func fixed(s string) func(Lang) string { return func(Lang) string { return s } }
func money(c checkout.Cents) func(Lang) string {
	return func(l Lang) string { return FormatMoney(l, c) }
}

// Every stage has a name in both languages.
func TestStageTexts(t *testing.T) {
	for _, s := range []string{StagePaid, StageShipped, StageDelivered, StageRefunding, StageRefunded, StageCanceled} {
		if StageText(PtBR, s) == T(PtBR, "status.unknown") || StageText(En, s) == StageText(PtBR, s) {
			t.Errorf("stage %s: %q / %q", s, StageText(PtBR, s), StageText(En, s))
		}
	}
	if got := FormatDay(En, "2026-03-11"); got != "Mar 11, 2026" {
		t.Errorf("day %q", got)
	}
}
