// Package charges holds the rules of a charge with a due date ("cobrança"): what a named
// customer owes on a given São Paulo calendar day, with the discount for paying early and the
// fine and interest for paying late. It is pure: no store, no clock of its own (the caller
// gives the day, from the injected clock through Today).
package charges

import (
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Cents, Date and ValidationError are the gateway client's: a charge's amount is what its
// orders' transactions collect, and its errors are the one field-error type of the product.
type (
	Cents           = gatewayclient.Cents
	Date            = gatewayclient.Date
	ValidationError = gatewayclient.ValidationError
)

// The limits of a charge's terms.
const (
	// MaxFineBps is the largest fine after the due date, 2 % (200 basis points): the product's
	// policy, following the limit the consumer code (Código de Defesa do Consumidor, art. 52
	// §1) sets for consumer debts.
	MaxFineBps = 200
	// MaxInterestBpsPerMonth is the largest simple interest a month, 1 % (100 basis points).
	MaxInterestBpsPerMonth = 100
	// MaxDiscountBps is below 100 %: a discount leaves something to pay.
	MaxDiscountBps = 9999
	// CapDays is how many days of interest the gateway's cap must still allow: a charge whose
	// amount with its fine and CapDays of interest passes gatewayclient.MaxAmount is refused.
	CapDays = 180
	// daysPerMonth is the divisor of the monthly rate: interest runs at 1/30 of it a day.
	daysPerMonth = 30
	bpsWhole     = 10000
)

// Discount is a reduction for paying by Until (a day before the due date at the latest):
// either Bps of the amount or a fixed Amount, never both.
type Discount struct {
	Bps    int
	Amount Cents
	Until  Date
}

// IsZero reports whether there is no discount.
func (d Discount) IsZero() bool { return d == Discount{} }

// Terms are what a charge's amount due depends on. Amount is the principal; FineBps the fine
// once after the due date; InterestBpsPerMonth simple interest (no compounding) on the
// principal without the fine, at 1/30 of the monthly rate per calendar day late.
type Terms struct {
	Amount              Cents
	Due                 Date
	FineBps             int
	InterestBpsPerMonth int
	Discount            Discount
}

// Due is what a charge asks on one day, line by line: Total = Amount − Discount + Fine +
// Interest.
type Due struct {
	Amount   Cents // the principal
	Discount Cents // taken off when paid by the discount's last day
	Fine     Cents // added from the day after the due date
	Interest Cents // added from the day after the due date, DaysLate days of it
	DaysLate int   // calendar days after the due date (0 on or before it)
	Total    Cents
}

// On returns what t asks on day (a São Paulo calendar day). Each line is computed from the
// principal at once (never day by day) and rounded to the nearest cent, halves up:
//
//	discount = round(Amount × Bps / 10000)                 (or the fixed amount)
//	fine     = round(Amount × FineBps / 10000)
//	interest = round(Amount × InterestBpsPerMonth × DaysLate / (10000 × 30))
//
// so R$ 123,45 at 1 %/month is R$ 1,23 of interest after 30 days (123,45 cents rounds down)
// and R$ 0,04 after one (4,115 cents).
func (t Terms) On(day Date) Due {
	d := Due{Amount: t.Amount}
	if !t.Discount.IsZero() && dayNumber(day) <= dayNumber(t.Discount.Until) {
		d.Discount = t.Discount.Amount
		if t.Discount.Bps > 0 {
			d.Discount = Cents(roundDiv(int64(t.Amount)*int64(t.Discount.Bps), bpsWhole))
		}
	}
	if late := dayNumber(day) - dayNumber(t.Due); late > 0 {
		d.DaysLate = late
		d.Fine = Cents(roundDiv(int64(t.Amount)*int64(t.FineBps), bpsWhole))
		d.Interest = t.interest(late)
	}
	d.Total = d.Amount - d.Discount + d.Fine + d.Interest
	return d
}

// interest is the simple interest of days days late.
func (t Terms) interest(days int) Cents {
	return Cents(roundDiv(int64(t.Amount)*int64(t.InterestBpsPerMonth)*int64(days), bpsWhole*daysPerMonth))
}

// roundDiv is n/d rounded to the nearest integer, halves up, for n ≥ 0 and d > 0.
func roundDiv(n, d int64) int64 { return (2*n + d) / (2 * d) }

// Validate checks t as a new charge's terms on the day today, naming each field as the API
// does (amount, dueDate, fineBps, interestBpsPerMonth, discount.bps, discount.amount,
// discount.until); nil when they hold.
func (t Terms) Validate(today Date) *ValidationError {
	ve := &ValidationError{Kind: gatewayclient.KindValidation}
	amountOK := t.Amount >= gatewayclient.MinAmount && t.Amount <= gatewayclient.MaxAmount
	switch {
	case t.Amount < gatewayclient.MinAmount:
		ve.Add("amount", gatewayclient.CodeMin, "must be at least 1 cent")
	case t.Amount > gatewayclient.MaxAmount:
		ve.Add("amount", gatewayclient.CodeMax, "must be at most 10000000 cents")
	}
	dueOK := t.checkDue(ve, today)
	ratesOK := true
	if t.FineBps < 0 || t.FineBps > MaxFineBps {
		ratesOK = false
		ve.Add("fineBps", gatewayclient.CodeMax, "must be between 0 and 200 (2 %, the consumer code's limit)")
	}
	if t.InterestBpsPerMonth < 0 || t.InterestBpsPerMonth > MaxInterestBpsPerMonth {
		ratesOK = false
		ve.Add("interestBpsPerMonth", gatewayclient.CodeMax, "must be between 0 and 100 (1 % a month)")
	}
	if !t.Discount.IsZero() {
		t.checkDiscount(ve, today, amountOK, dueOK)
	}
	if amountOK && ratesOK {
		worst := t.Amount + Cents(roundDiv(int64(t.Amount)*int64(t.FineBps), bpsWhole)) + t.interest(CapDays)
		if worst > gatewayclient.MaxAmount && !ve.Has("amount") {
			ve.Add("amount", gatewayclient.CodeMax, "with its fine and 180 days of interest must be at most 10000000 cents")
		}
	}
	return ve.OrNil()
}

// checkDue checks the due date: a calendar day from today on; it reports whether the date is
// one to compare others with.
func (t Terms) checkDue(ve *ValidationError, today Date) bool {
	switch {
	case t.Due.IsZero():
		ve.Add("dueDate", gatewayclient.CodeRequired, "is required")
		return false
	case !validDate(t.Due):
		ve.Add("dueDate", gatewayclient.CodeFormat, "is not a calendar day")
		return false
	case dayNumber(t.Due) < dayNumber(today):
		ve.Add("dueDate", gatewayclient.CodeMin, "must be today or later (São Paulo time)")
	}
	return true
}

// checkDiscount checks a discount: one of bps and amount, leaving at least a cent to pay,
// until a day from today to the day before the due date.
func (t Terms) checkDiscount(ve *ValidationError, today Date, amountOK, dueOK bool) {
	d := t.Discount
	switch {
	case d.Bps != 0 && d.Amount != 0:
		ve.Add("discount", gatewayclient.CodeDuplicate, "must give either bps or amount, not both")
	case d.Bps == 0 && d.Amount == 0:
		ve.Add("discount", gatewayclient.CodeRequired, "must give bps or amount")
	case d.Bps < 0 || d.Bps > MaxDiscountBps:
		ve.Add("discount.bps", gatewayclient.CodeMax, "must be between 1 and 9999")
	case d.Amount < 0:
		ve.Add("discount.amount", gatewayclient.CodeMin, "must be at least 1 cent")
	case amountOK && t.Amount-d.Amount < gatewayclient.MinAmount:
		ve.Add("discount.amount", gatewayclient.CodeMax, "must leave at least 1 cent to pay")
	}
	switch {
	case d.Until.IsZero():
		ve.Add("discount.until", gatewayclient.CodeRequired, "is required")
	case !validDate(d.Until):
		ve.Add("discount.until", gatewayclient.CodeFormat, "is not a calendar day")
	case dueOK && dayNumber(d.Until) >= dayNumber(t.Due):
		ve.Add("discount.until", gatewayclient.CodeMax, "must be before the due date")
	case dayNumber(d.Until) < dayNumber(today):
		ve.Add("discount.until", gatewayclient.CodeMin, "must be today or later (São Paulo time)")
	}
}

// saoPaulo is the zone of a charge's days (a fixed UTC−3, Brazil's time since 2019, where the
// zone database is missing).
var saoPaulo = func() *time.Location {
	if loc, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		return loc
	}
	return time.FixedZone("BRT", -3*60*60)
}()

// Today is the São Paulo calendar day of now.
func Today(now time.Time) Date {
	y, m, d := now.In(saoPaulo).Date()
	return Date{Year: y, Month: m, Day: d}
}

// EndOfDay is the last second of day in São Paulo (23:59:59): no QR code made for a day's
// amount outlives it.
func EndOfDay(day Date) time.Time {
	return time.Date(day.Year, day.Month, day.Day, 23, 59, 59, 0, saoPaulo)
}

// AddDays returns day moved by n calendar days.
func AddDays(day Date, n int) Date {
	y, m, d := time.Date(day.Year, day.Month, day.Day+n, 12, 0, 0, 0, time.UTC).Date()
	return Date{Year: y, Month: m, Day: d}
}

// DaysBetween is the number of calendar days from a to b (negative when b is before a).
func DaysBetween(a, b Date) int { return dayNumber(b) - dayNumber(a) }

// dayNumber counts the days from the Unix epoch to day.
func dayNumber(day Date) int {
	return int(time.Date(day.Year, day.Month, day.Day, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// validDate reports whether day exists in the calendar (no 31 April).
func validDate(day Date) bool {
	y, m, d := time.Date(day.Year, day.Month, day.Day, 0, 0, 0, 0, time.UTC).Date()
	return y == day.Year && m == day.Month && d == day.Day && day.Year >= 1
}
