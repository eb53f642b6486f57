package dashboard

import (
	"strconv"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
)

// Size of the overview's chart, in its viewBox's units.
const (
	chartBarSlot = 20 // each day's width
	chartBarGap  = 4
	chartHeight  = 160
)

// chart lays out the bars of the daily paid amounts and, as a stepped line, those of the
// previous period of the same length (prev, day by day: prev[i] is the day OverviewDays
// before days[i]). The scale's top is the highest tick of a y-axis of round amounts
// (chartTicks) covering both periods; heights are proportional to it (integer arithmetic; a
// day with any payment is at least one unit tall); every fifth day and the last are labelled.
func chart(days, prev []checkout.DayTotal) views.Chart {
	c := views.Chart{Width: chartBarSlot * len(days), Height: chartHeight}
	var top checkout.Cents
	for _, d := range days {
		c.Max = max(c.Max, d.Amount)
		c.Total += d.Amount
	}
	for _, d := range prev {
		top = max(top, d.Amount)
		c.PrevTotal += d.Amount
	}
	step, n := chartTicks(max(c.Max, top))
	top = step * checkout.Cents(n)
	height := func(a checkout.Cents) int {
		if a <= 0 {
			return 0
		}
		return max(int(int64(a)*chartHeight/int64(top)), 1)
	}
	for i := 0; i <= n; i++ {
		a := step * checkout.Cents(i)
		c.Ticks = append(c.Ticks, views.ChartTick{Amount: a, Y: chartHeight - height(a)})
	}
	var line strings.Builder
	for i, d := range days {
		h := height(d.Amount)
		cd := views.ChartDay{Day: d.Day, Amount: d.Amount, Orders: d.Orders,
			X: i*chartBarSlot + chartBarGap/2, Y: chartHeight - h, W: chartBarSlot - chartBarGap, H: h,
			Label: (len(days)-1-i)%5 == 0}
		if i < len(prev) {
			p := prev[i]
			cd.PrevDay, cd.PrevAmount, cd.PrevOrders = p.Day, p.Amount, p.Orders
			y := strconv.Itoa(chartHeight - height(p.Amount))
			if i == 0 {
				line.WriteString("M0 " + y)
			} else {
				line.WriteString(" V" + y)
			}
			line.WriteString(" H" + strconv.Itoa((i+1)*chartBarSlot))
		}
		c.Days = append(c.Days, cd)
	}
	c.PrevPath = line.String()
	return c
}

// chartTicks chooses the y-axis of a chart whose tallest value is most: a step of 1, 2 or 5
// times a power of ten reais (never less than R$ 1, so that every label is whole reais) and
// the number of steps, at most 5, whose top reaches most. An empty chart gets one step of
// R$ 100.
func chartTicks(most checkout.Cents) (step checkout.Cents, n int) {
	if most <= 0 {
		return 10000, 1
	}
	for mag := checkout.Cents(100); ; mag *= 10 {
		for _, m := range []checkout.Cents{1, 2, 5} {
			step = m * mag
			if n = int((most + step - 1) / step); n <= 5 {
				return step, n
			}
		}
	}
}

// topProducts are the overview's top products as the page shows them.
func topProducts(top []checkout.ProductTotal) []views.TopProduct {
	out := make([]views.TopProduct, 0, len(top))
	for _, p := range top {
		out = append(out, views.TopProduct{Title: p.Title, Units: p.Units, Revenue: p.Revenue})
	}
	return out
}
