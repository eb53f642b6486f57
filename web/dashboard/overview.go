package dashboard

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Size of the overview's chart, in its viewBox's units.
const (
	chartBarSlot = 20 // each day's width
	chartBarGap  = 4
	chartHeight  = 160
)

// chart lays out the bars of the daily net amounts (received − refunded − known fees), each
// over an outline of the day's gross received, and, as a stepped line, the net of the
// previous period of the same length (prev, day by day: prev[i] is the day OverviewDays
// before days[i]). The scale's top is the highest tick of a y-axis of round amounts
// (chartTicks) covering both periods; heights are proportional to it (integer arithmetic; a
// day with any payment is at least one unit tall); every fifth day and the last are labelled.
func chart(days, prev []checkout.DayTotal) views.Chart {
	c := views.Chart{Width: chartBarSlot * len(days), Height: chartHeight}
	var top checkout.Cents
	for _, d := range days {
		c.Max = max(c.Max, d.Received.Amount)
		c.Total += d.Net()
	}
	for _, d := range prev {
		top = max(top, d.Net())
		c.PrevTotal += d.Net()
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
		h, g := height(d.Net()), height(d.Received.Amount)
		cd := views.ChartDay{Day: d.Day, Amount: d.Net(), Gross: d.Received.Amount, Orders: d.Received.Orders,
			X: i*chartBarSlot + chartBarGap/2, Y: chartHeight - h, W: chartBarSlot - chartBarGap, H: h,
			GY: chartHeight - g, GH: g, Label: (len(days)-1-i)%5 == 0}
		if i < len(prev) {
			p := prev[i]
			cd.PrevDay, cd.PrevAmount, cd.PrevOrders = p.Day, p.Net(), p.Received.Orders
			y := strconv.Itoa(chartHeight - height(p.Net()))
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

// moneyColumns are the overview's money table: today, 7 and 30 days, each figure linked to
// the order list behind it (the list's money filter over the period's São Paulo dates).
func moneyColumns(r *http.Request, ov *checkout.Overview) []views.MoneyColumn {
	lang := respond.Lang(r)
	today := ov.Now
	cols := []struct {
		id, label string
		days      int
		m         checkout.MoneyTotals
	}{{"today", "overview.money_today", 1, ov.Today}, {"7d", "overview.money_week", 7, ov.Week}, {"30d", "overview.money_month", checkout.OverviewDays, ov.Month}}
	out := make([]views.MoneyColumn, 0, len(cols))
	for _, c := range cols {
		from := today.AddDate(0, 0, -(c.days - 1)).Format(time.DateOnly)
		links := map[checkout.MoneyKind]string{}
		for _, k := range []checkout.MoneyKind{checkout.MoneyReceived, checkout.MoneyRefunded, checkout.MoneyHeld,
			checkout.MoneyFees, checkout.MoneyFeeUnknown} {
			q := url.Values{paramMoney: {string(k)}, paramFrom: {from}, paramTo: {today.Format(time.DateOnly)}}
			withChannels(q, ov.Channels)
			links[k] = respond.Link(r, Path+"/orders?"+q.Encode())
		}
		out = append(out, views.MoneyColumn{ID: c.id, Label: views.T(lang, c.label), M: c.m, Links: links})
	}
	return out
}

// topProducts are the overview's top products as the page shows them.
func topProducts(top []checkout.ProductTotal) []views.TopProduct {
	out := make([]views.TopProduct, 0, len(top))
	for _, p := range top {
		out = append(out, views.TopProduct{Title: p.Title, Units: p.Units, Revenue: p.Revenue})
	}
	return out
}

// withChannels adds channels to the query q of a list (the channel parameter, repeated).
func withChannels(q url.Values, channels []checkout.Channel) {
	for _, ch := range channels {
		q.Add(paramChannel, string(ch))
	}
}

// channelLinks are the overview's channel filter: every channel, then each one, the current
// choice marked (several channels asked by hand mark none).
func channelLinks(r *http.Request, current []checkout.Channel) []views.ChannelLink {
	lang := respond.Lang(r)
	out := []views.ChannelLink{{Label: views.T(lang, "overview.all_channels"), URL: respond.Link(r, Path+"/"),
		Current: len(current) == 0}}
	for _, ch := range checkout.Channels() {
		q := url.Values{}
		withChannels(q, []checkout.Channel{ch})
		out = append(out, views.ChannelLink{Channel: string(ch), Label: views.ChannelText(lang, ch),
			URL: respond.Link(r, withQuery(Path+"/", q)), Current: len(current) == 1 && current[0] == ch})
	}
	return out
}

// terminalLinks are the overview's terminal filter: every order, then each terminal's sales,
// the current one marked; offered when the overview is of the point of sale or of a terminal,
// or when there are several terminals.
func (d *Dashboard) terminalLinks(r *http.Request, channels []checkout.Channel, current string) []views.ChannelLink {
	opts := d.terminalOptions(r, checkout.OrderFilter{Channels: channels, TerminalID: current})
	if len(opts) == 0 {
		return nil
	}
	lang := respond.Lang(r)
	out := []views.ChannelLink{{Label: views.T(lang, "overview.all_terminals"), URL: respond.Link(r, Path+"/"), Current: current == ""}}
	for _, o := range opts[1:] {
		q := url.Values{paramTerminal: {o.Value}}
		out = append(out, views.ChannelLink{Channel: o.Value, Label: o.Label, URL: respond.Link(r, withQuery(Path+"/", q)),
			Current: o.Checked})
	}
	return out
}

// channelRows are the money received through each channel that has any, each with the
// overview of that channel and the list of its orders paid in 30 days.
func channelRows(r *http.Request, ov *checkout.Overview) []views.ChannelRow {
	lang := respond.Lang(r)
	today := ov.Now.Format(time.DateOnly)
	from := ov.Now.AddDate(0, 0, -(checkout.OverviewDays - 1)).Format(time.DateOnly)
	out := make([]views.ChannelRow, 0, len(ov.ByChannel))
	for _, c := range ov.ByChannel {
		one := url.Values{}
		withChannels(one, []checkout.Channel{c.Channel})
		paid := url.Values{paramMoney: {string(checkout.MoneyReceived)}, paramFrom: {from}, paramTo: {today}}
		withChannels(paid, []checkout.Channel{c.Channel})
		out = append(out, views.ChannelRow{Channel: string(c.Channel), Label: views.ChannelText(lang, c.Channel),
			Today: views.PaidFigure(c.Today.Received), Week: views.PaidFigure(c.Week.Received),
			Month: views.PaidFigure(c.Month.Received), Net: c.Month.Net(),
			URL: respond.Link(r, withQuery(Path+"/", one)), OrdersURL: respond.Link(r, withQuery(Path+"/orders", paid))})
	}
	return out
}

// chargeFigures are the charges' figures of the overview: what they still ask before and after
// their due date (on the charges' São Paulo day), each linked to the charge list of that
// status, and what the orders of charges received in 30 days (the money by channel).
func (d *Dashboard) chargeFigures(r *http.Request, ov *checkout.Overview) (*views.ChargeFigures, error) {
	rec, err := d.charges.Receivables(r.Context())
	if err != nil {
		return nil, err
	}
	f := &views.ChargeFigures{Open: views.PaidFigure{Orders: rec.Open.Charges, Amount: rec.Open.Amount},
		Overdue: views.PaidFigure{Orders: rec.Overdue.Charges, Amount: rec.Overdue.Amount},
		OpenURL: respond.Link(r, Path+"/charges?status=open"), OverdueURL: respond.Link(r, Path+"/charges?status=overdue")}
	for _, c := range ov.ByChannel {
		if c.Channel == checkout.ChannelCharge {
			f.Received = views.PaidFigure(c.Month.Received)
		}
	}
	q := url.Values{paramMoney: {string(checkout.MoneyReceived)},
		paramFrom: {ov.Now.AddDate(0, 0, -(checkout.OverviewDays - 1)).Format(time.DateOnly)}, paramTo: {ov.Now.Format(time.DateOnly)}}
	withChannels(q, []checkout.Channel{checkout.ChannelCharge})
	f.ReceivedURL = respond.Link(r, withQuery(Path+"/orders", q))
	return f, nil
}
