package dashboard

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// TestChartTicks: the y-axis steps are 1, 2 or 5 times a power of ten reais, whole reais
// always, at most five steps, the top reaching the tallest value with the least room.
func TestChartTicks(t *testing.T) {
	for _, c := range []struct {
		most checkout.Cents
		step checkout.Cents
		n    int
	}{
		{0, 10000, 1},             // nothing paid: R$ 0 to R$ 100
		{1, 100, 1},               // a centavo: R$ 0 to R$ 1
		{500, 100, 5},             // R$ 5: five steps of R$ 1
		{501, 200, 3},             // just over: R$ 2 steps to R$ 6
		{2990, 1000, 3},           // R$ 29,90: R$ 10 steps to R$ 30
		{123456, 50000, 3},        // R$ 1.234,56: R$ 500 steps to R$ 1.500
		{100000, 20000, 5},        // R$ 1.000 exactly: R$ 200 steps
		{987654321, 200000000, 5}, // R$ 9.876.543,21: R$ 2.000.000 steps to R$ 10.000.000
	} {
		step, n := chartTicks(c.most)
		if step != c.step || n != c.n {
			t.Errorf("chartTicks(%d) = %d × %d, want %d × %d", c.most, n, step, c.n, c.step)
		}
		if step%100 != 0 || step*checkout.Cents(n) < c.most || step*checkout.Cents(n-1) >= c.most && c.most > 0 {
			t.Errorf("chartTicks(%d) = %d × %d: not whole reais, too low or too much room", c.most, n, step)
		}
	}
}

// TestChartScale: bars and the previous period's line are on the scale of the top tick, which
// covers the taller of the two periods; the totals are each period's.
func TestChartScale(t *testing.T) {
	days := make([]checkout.DayTotal, 3)
	prev := make([]checkout.DayTotal, 3)
	days[1].Received.Amount, prev[2].Received.Amount, prev[0].Received.Amount = 4000, 9000, 1000 // the previous period is taller
	c := chart(days, prev)
	if len(c.Ticks) != 6 || c.Ticks[5].Amount != 10000 || c.Ticks[5].Y != 0 || c.Ticks[0].Y != chartHeight {
		t.Fatalf("ticks %+v", c.Ticks)
	}
	if c.Days[1].H != 64 || c.Days[1].Y != 96 || c.Days[0].H != 0 { // 4000 / 10000 of 160
		t.Errorf("bars %+v", c.Days)
	}
	if c.PrevPath != "M0 144 H20 V160 H40 V16 H60" || c.Total != 4000 || c.PrevTotal != 10000 || c.Days[2].PrevAmount != 9000 {
		t.Errorf("previous %q, totals %d %d", c.PrevPath, c.Total, c.PrevTotal)
	}
}
