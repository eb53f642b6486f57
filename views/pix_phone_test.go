package views

import (
	"strings"
	"testing"
	"time"
)

// TestPixPageForThePhone: the copy-and-paste block comes before the QR code in the page (a
// phone shows it first), the countdown says until when the code is valid, the payee is named
// with its document, and "I have paid" is offered without JavaScript.
func TestPixPageForThePhone(t *testing.T) {
	for _, lang := range Langs() {
		t.Run(string(lang), func(t *testing.T) {
			v := pixView(lang)
			v.Merchant = Merchant{LegalName: "Loja Exemplo Ltda", Document: "11222333000181", SupportEmail: "ajuda@loja.example"}
			v.CheckURL = "/pay/abc/check"
			r := render(t, PixPage(v))
			checkCommon(t, r, lang, "/pay/abc")
			if i, j := strings.Index(r.html, `data-testid="copy-code"`), strings.Index(r.html, `data-testid="pix-qr"`); i < 0 || j < 0 || i > j {
				t.Errorf("the copy button (at %d) does not come before the QR code (at %d)", i, j)
			}
			if got := text(r.one(t, "merchant-name")); got != "Loja Exemplo Ltda" {
				t.Errorf("payee %q", got)
			}
			if got := text(r.one(t, "merchant-document")); got != "CNPJ 11.222.333/0001-81" {
				t.Errorf("payee document %q", got)
			}
			until := r.one(t, "valid-until")
			if want := FormatClock(lang, v.ExpiresAt); text(until) != want || until.AttrOr("datetime", "") != "2026-03-10T15:29:59.000Z" {
				t.Errorf("valid until %q (%s), want %q", text(until), until.AttrOr("datetime", ""), want)
			}
			noscript := r.doc.Find("noscript").Last()
			if !strings.Contains(noscript.Text(), `data-testid="check-payment"`) || !strings.Contains(noscript.Text(), `action="/pay/abc/check"`) {
				t.Errorf("no 'I have paid' form for pages without JavaScript: %q", noscript.Text())
			}
			if got := text(r.one(t, "support-contact")); !strings.Contains(got, "ajuda@loja.example") {
				t.Errorf("support contact %q", got)
			}
		})
	}
}

func TestFormatClock(t *testing.T) {
	at := time.Date(2026, 11, 24, 0, 26, 0, 0, time.UTC) // 21:26 the day before in São Paulo
	if got := FormatClock(PtBR, at); got != "21:26" {
		t.Errorf("pt-BR %q", got)
	}
	if got := FormatClock(En, at); got != "9:26 PM" {
		t.Errorf("en %q", got)
	}
	if FormatClock(PtBR, time.Time{}) != "" {
		t.Error("zero time")
	}
}

// TestReceipt: "paid with Pix", the payee, the time with its zone, the end-to-end id, what
// happens next for digital and for physical goods, and a print button revealed by script.
func TestReceipt(t *testing.T) {
	for _, lang := range Langs() {
		for _, physical := range []bool{false, true} {
			v := PaidView{Page: page(lang, "/pay/abc/paid"), OrderNumber: "PX-7K3M9QZ2", Amount: 5900,
				Lines:  []SummaryLine{{Title: "Caneca", Quantity: 1, LineTotal: 5900}},
				PaidAt: time.Date(2026, 3, 10, 15, 4, 0, 0, time.UTC), EndToEnd: "E99999999202603101504abcdefghijk",
				Progress: OrderProgress{Stage: StagePaid, Physical: physical}, MailsTracking: true, Email: "maria@example.com", ShipTo: "Avenida Paulista, 1000 — Bela Vista, São Paulo/SP, 01310-100"}
			v.Merchant = Merchant{LegalName: "Loja Exemplo Ltda", Document: "11222333000181"}
			r := render(t, PaidPage(v))
			checkCommon(t, r, lang, "/pay/abc/paid")
			if got := text(r.one(t, "end-to-end")); got != v.EndToEnd {
				t.Errorf("end-to-end %q", got)
			}
			receipt := text(r.one(t, "paid"))
			for _, want := range []string{T(lang, "paid.with_pix"), "Loja Exemplo Ltda", "11.222.333/0001-81", T(lang, "time.zone")} {
				if !strings.Contains(receipt, want) {
					t.Errorf("%s physical=%v: the receipt lacks %q: %q", lang, physical, want, receipt)
				}
			}
			next := text(r.one(t, "next-steps"))
			if !strings.Contains(next, "maria@example.com") || physical != strings.Contains(next, "Avenida Paulista") {
				t.Errorf("%s physical=%v: next steps %q", lang, physical, next)
			}
			if _, hidden := r.one(t, "print-receipt").Attr("hidden"); !hidden {
				t.Error("the print button shows before its script")
			}
			// No e-mail promised when the shop sends none: the page itself shows the tracking code.
			v.MailsTracking = false
			if next := text(render(t, PaidPage(v)).one(t, "next-steps")); physical && strings.Contains(next, "maria@example.com") {
				t.Errorf("%s: an e-mail promised that no one sends: %q", lang, next)
			}
		}
	}
}
