package views

import (
	"math"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
)

func TestFormatMoney(t *testing.T) {
	for _, tc := range []struct {
		c      checkout.Cents
		pt, en string
	}{
		{0, "R$ 0,00", "R$0.00"},
		{1, "R$ 0,01", "R$0.01"},
		{99, "R$ 0,99", "R$0.99"},
		{100, "R$ 1,00", "R$1.00"},
		{5900, "R$ 59,00", "R$59.00"},
		{99999, "R$ 999,99", "R$999.99"},
		{100000, "R$ 1.000,00", "R$1,000.00"},
		{123456, "R$ 1.234,56", "R$1,234.56"},
		{10000000, "R$ 100.000,00", "R$100,000.00"},
		{123456789012, "R$ 1.234.567.890,12", "R$1,234,567,890.12"},
		{-1, "-R$ 0,01", "-R$0.01"},
		{-123456, "-R$ 1.234,56", "-R$1,234.56"},
		{math.MaxInt64, "R$ 92.233.720.368.547.758,07", "R$92,233,720,368,547,758.07"},
		{math.MinInt64, "-R$ 92.233.720.368.547.758,08", "-R$92,233,720,368,547,758.08"},
	} {
		if got := FormatMoney(PtBR, tc.c); got != tc.pt {
			t.Errorf("FormatMoney(pt-BR, %d) = %q, want %q", tc.c, got, tc.pt)
		}
		if got := FormatMoney(En, tc.c); got != tc.en {
			t.Errorf("FormatMoney(en, %d) = %q, want %q", tc.c, got, tc.en)
		}
	}
	// An unknown language falls back to pt-BR.
	if got := FormatMoney("fr", 123456); got != "R$ 1.234,56" {
		t.Errorf("FormatMoney(fr) = %q", got)
	}
}

func TestFormatDateTime(t *testing.T) {
	// 01:30 UTC on 2 Jan is 22:30 of 1 Jan in São Paulo (UTC-3).
	ts := time.Date(2026, 1, 2, 1, 30, 0, 0, time.UTC)
	if got := FormatDateTime(PtBR, ts); got != "01/01/2026 22:30" {
		t.Errorf("pt-BR: %q", got)
	}
	if got := FormatDateTime(En, ts); got != "Jan 1, 2026, 10:30 PM" {
		t.Errorf("en: %q", got)
	}
	if got := FormatDateTime(PtBR, time.Time{}); got != "" {
		t.Errorf("zero time: %q", got)
	}
	_, off := ts.In(saoPaulo).Zone()
	if off != -3*3600 {
		t.Errorf("São Paulo offset %d s, want -10800", off)
	}
}

func TestLoadSaoPauloFallback(t *testing.T) {
	// Without a zone database, the fixed -03:00 zone still gives the right wall time.
	t.Setenv("ZONEINFO", t.TempDir())
	loc := loadSaoPaulo()
	_, off := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC).In(loc).Zone()
	if off != -3*3600 {
		t.Errorf("offset %d s, want -10800", off)
	}
}
