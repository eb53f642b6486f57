package charges_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// march is day n counted from 1 March 2026 (day 40 is 9 April).
func march(n int) charges.Date {
	return charges.AddDays(charges.Date{Year: 2026, Month: time.March, Day: 1}, n-1)
}

// The charge: 10 % off until day 5, due day 10, a 2 % fine and 1 % a month. R$ 123,45
// makes every line round: 1234,5 cents of discount (half up: 1235), 246,9 of fine (247),
// 4,115 of interest a day late (4) and 123,45 after thirty days (123).
func TestAmountDueByDay(t *testing.T) {
	terms := charges.Terms{
		Amount: 12345, Due: march(10), FineBps: 200, InterestBpsPerMonth: 100,
		Discount: charges.Discount{Bps: 1000, Until: march(5)},
	}
	for _, c := range []struct {
		day  int
		want charges.Due
	}{
		{4, charges.Due{Amount: 12345, Discount: 1235, Total: 11110}},
		{5, charges.Due{Amount: 12345, Discount: 1235, Total: 11110}},
		{6, charges.Due{Amount: 12345, Total: 12345}},
		{10, charges.Due{Amount: 12345, Total: 12345}},
		{11, charges.Due{Amount: 12345, Fine: 247, Interest: 4, DaysLate: 1, Total: 12596}},
		{40, charges.Due{Amount: 12345, Fine: 247, Interest: 123, DaysLate: 30, Total: 12715}},
	} {
		if got := terms.On(march(c.day)); got != c.want {
			t.Errorf("day %d (%s): got %+v, want %+v", c.day, march(c.day), got, c.want)
		}
	}
}

// Rounding at the cent: halves go up, anything below a half down, on each line by itself.
func TestAmountRoundsEachLineHalfUp(t *testing.T) {
	due := charges.Date{Year: 2026, Month: time.January, Day: 31}
	for _, c := range []struct {
		name         string
		terms        charges.Terms
		day          charges.Date
		fine, intr   charges.Cents
		discount, to charges.Cents
	}{
		// 150 × 1 % = 1,5 → 2 of fine; 150 × 1 % × 1/30 = 0,05 → 0 of interest.
		{"half fine up", charges.Terms{Amount: 150, Due: due, FineBps: 100, InterestBpsPerMonth: 100}, charges.AddDays(due, 1), 2, 0, 0, 152},
		// 149 × 1 % = 1,49 → 1.
		{"below half down", charges.Terms{Amount: 149, Due: due, FineBps: 100}, charges.AddDays(due, 1), 1, 0, 0, 150},
		// 3000 × 1 % × 15/30 = 15 exactly, across February (31 Jan + 15 = 15 Feb).
		{"exact interest", charges.Terms{Amount: 3000, Due: due, InterestBpsPerMonth: 100}, charges.AddDays(due, 15), 0, 15, 0, 3015},
		// 1000 × 1 % × 1/30 = 0,333 → 0; × 2/30 = 0,667 → 1: computed at once, not summed a day at a time.
		{"interest at once", charges.Terms{Amount: 1000, Due: due, InterestBpsPerMonth: 100}, charges.AddDays(due, 2), 0, 1, 0, 1001},
		// 5 × 10 % = 0,5 → a discount of 1.
		{"half discount up", charges.Terms{Amount: 5, Due: due, Discount: charges.Discount{Bps: 1000, Until: charges.AddDays(due, -1)}}, charges.AddDays(due, -1), 0, 0, 1, 4},
		// A fixed discount is taken as it is.
		{"fixed discount", charges.Terms{Amount: 5000, Due: due, Discount: charges.Discount{Amount: 700, Until: charges.AddDays(due, -3)}}, charges.AddDays(due, -3), 0, 0, 700, 4300},
	} {
		got := c.terms.On(c.day)
		if got.Fine != c.fine || got.Interest != c.intr || got.Discount != c.discount || got.Total != c.to {
			t.Errorf("%s: got %+v, want fine %d interest %d discount %d total %d", c.name, got, c.fine, c.intr, c.discount, c.to)
		}
	}
}

func TestTodayAndEndOfDayInSaoPaulo(t *testing.T) {
	// 02:30 UTC on 6 March is still 5 March in São Paulo (UTC−3).
	now := time.Date(2026, time.March, 6, 2, 30, 0, 0, time.UTC)
	if got := charges.Today(now); got != march(5) {
		t.Fatalf("Today(%s) = %s, want %s", now, got, march(5))
	}
	end := charges.EndOfDay(march(5))
	if want := time.Date(2026, time.March, 6, 2, 59, 59, 0, time.UTC); !end.Equal(want) {
		t.Fatalf("EndOfDay = %s, want %s", end.UTC(), want)
	}
	if charges.Today(end) != march(5) || charges.Today(end.Add(time.Second)) != march(6) {
		t.Fatalf("the day ends at %s", end)
	}
}

func TestValidateNamesEachField(t *testing.T) {
	today := march(1)
	ok := charges.Terms{Amount: 10000, Due: march(10), FineBps: 200, InterestBpsPerMonth: 100,
		Discount: charges.Discount{Bps: 500, Until: march(9)}}
	if ve := ok.Validate(today); ve != nil {
		t.Fatalf("valid terms refused: %v", ve)
	}
	for _, c := range []struct {
		name   string
		edit   func(*charges.Terms)
		fields []string
	}{
		{"no amount", func(t *charges.Terms) { t.Amount = 0 }, []string{"amount"}},
		{"amount over the cap", func(t *charges.Terms) { t.Amount = gatewayclient.MaxAmount + 1 }, []string{"amount"}},
		{"no due date", func(t *charges.Terms) { t.Due = charges.Date{}; t.Discount = charges.Discount{} }, []string{"dueDate"}},
		{"due date past", func(t *charges.Terms) { t.Due = charges.AddDays(today, -1); t.Discount = charges.Discount{} }, []string{"dueDate"}},
		{"no such day", func(t *charges.Terms) { t.Due = charges.Date{Year: 2026, Month: time.April, Day: 31} }, []string{"dueDate"}},
		{"fine over 2 %", func(t *charges.Terms) { t.FineBps = 201 }, []string{"fineBps"}},
		{"negative fine", func(t *charges.Terms) { t.FineBps = -1 }, []string{"fineBps"}},
		{"interest over 1 %", func(t *charges.Terms) { t.InterestBpsPerMonth = 101 }, []string{"interestBpsPerMonth"}},
		{"both discounts", func(t *charges.Terms) { t.Discount.Amount = 100 }, []string{"discount"}},
		{"discount of everything", func(t *charges.Terms) { t.Discount = charges.Discount{Amount: 10000, Until: march(9)} }, []string{"discount.amount"}},
		{"discount of 100 %", func(t *charges.Terms) { t.Discount.Bps = 10000 }, []string{"discount.bps"}},
		{"discount on the due date", func(t *charges.Terms) { t.Discount.Until = march(10) }, []string{"discount.until"}},
		{"discount without a day", func(t *charges.Terms) { t.Discount.Until = charges.Date{} }, []string{"discount.until"}},
		{"discount past", func(t *charges.Terms) { t.Discount.Until = charges.AddDays(today, -1) }, []string{"discount.until"}},
		{"several at once", func(t *charges.Terms) { t.Amount = -5; t.FineBps = 300; t.InterestBpsPerMonth = 200 },
			[]string{"amount", "fineBps", "interestBpsPerMonth"}},
	} {
		terms := ok
		c.edit(&terms)
		ve := terms.Validate(today)
		if ve == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		var got []string
		for _, v := range ve.Violations {
			got = append(got, v.Field)
		}
		if strings.Join(got, ",") != strings.Join(c.fields, ",") {
			t.Errorf("%s: violations %v, want fields %v", c.name, ve.Violations, c.fields)
		}
	}
}

// The cap: the amount with a 2 % fine and 180 days at 1 % (6 %) must stay within 10,000,000
// cents: 9,259,259 cents reach exactly 10,000,000 on the 180th day late and pass; a cent more does not.
func TestValidateRefusesWhatTheCapCouldNotCollect(t *testing.T) {
	today := march(1)
	terms := charges.Terms{Due: march(10), FineBps: 200, InterestBpsPerMonth: 100}
	for _, c := range []struct {
		amount charges.Cents
		ok     bool
	}{{9259259, true}, {9259260, false}, {gatewayclient.MaxAmount, false}} {
		terms.Amount = c.amount
		worst := terms.On(charges.AddDays(terms.Due, charges.CapDays)).Total
		ve := terms.Validate(today)
		if (ve == nil) != c.ok || (worst <= gatewayclient.MaxAmount) != c.ok {
			t.Errorf("amount %d: worst %d, violations %v, want accepted %v", c.amount, worst, ve, c.ok)
		}
		if ve != nil && ve.Message("amount") == "" {
			t.Errorf("amount %d: refused without naming amount: %v", c.amount, ve)
		}
	}
	// Without fine or interest the whole range is open.
	if ve := (charges.Terms{Amount: gatewayclient.MaxAmount, Due: march(10)}).Validate(today); ve != nil {
		t.Errorf("the cap itself refused without fine or interest: %v", ve)
	}
}
