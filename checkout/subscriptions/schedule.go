// Package subscriptions holds recurring charges ("assinaturas"): a subscription bills a named
// customer the same amount on a schedule (a day of the month, or every few weeks), issuing
// each period's charge (package charges) some days before its due date, through the charges'
// one way of making a charge. Issuing is idempotent per subscription and period: a store holds
// one charge per period (charges.Period), so several instances issuing at once, or one catching
// up after a stop, issue each period once.
package subscriptions

import (
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Date is a São Paulo calendar day, as the charges keep them.
type Date = charges.Date

// Limits of a schedule.
const (
	MaxEveryWeeks = 52  // at least a charge a year
	MaxCount      = 600 // fifty years of months
)

// Schedule says when a subscription's charges fall due: monthly on DayOfMonth (days 29 to 31
// fall on a shorter month's last day), or every EveryWeeks weeks from Start; exactly one of the
// two is set. The first due date is the first on or after Start; End (zero: none) is the last
// day a charge may fall due, Count (0: no limit) how many charges it issues at most.
type Schedule struct {
	DayOfMonth int
	EveryWeeks int
	Start      Date
	End        Date
	Count      int
}

// Due returns the due date of period n (0 the first) whatever End and Count say.
func (s Schedule) Due(n int) Date {
	if s.EveryWeeks > 0 {
		return charges.AddDays(s.Start, 7*s.EveryWeeks*n)
	}
	first := 0
	if monthDay(s.Start.Year, s.Start.Month, 0, s.DayOfMonth).Day < s.Start.Day {
		first = 1 // this month's day has passed on the start day: the first falls next month
	}
	return monthDay(s.Start.Year, s.Start.Month, first+n, s.DayOfMonth)
}

// monthDay is day of the month months after year-month, or that month's last day when it is
// shorter.
func monthDay(year int, month time.Month, months, day int) Date {
	first := time.Date(year, month+time.Month(months), 1, 12, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return Date{Year: first.Year(), Month: first.Month(), Day: min(day, last)}
}

// Within reports whether period n, the issued-th charge (0 the first) and due on due, is still
// in the schedule: before its Count and by its End.
func (s Schedule) Within(issued int, due Date) bool {
	if s.Count > 0 && issued >= s.Count {
		return false
	}
	return s.End.IsZero() || charges.DaysBetween(due, s.End) >= 0
}

// Validate checks the schedule of a subscription made on the day today, naming each field as
// the API does (dayOfMonth, everyWeeks, startDate, endDate, count); nil when it holds.
func (s Schedule) Validate(today Date) *charges.ValidationError {
	ve := &charges.ValidationError{Kind: gatewayclient.KindValidation}
	s.checkRepeat(ve)
	s.checkDays(ve, today)
	if s.Count < 0 || s.Count > MaxCount {
		ve.Add("count", gatewayclient.CodeMax, "must be between 1 and 600")
	}
	return ve.OrNil()
}

// checkRepeat checks that exactly one of DayOfMonth and EveryWeeks is set, within its range.
func (s Schedule) checkRepeat(ve *charges.ValidationError) {
	switch {
	case s.DayOfMonth != 0 && s.EveryWeeks != 0:
		ve.Add("dayOfMonth", gatewayclient.CodeDuplicate, "give either dayOfMonth or everyWeeks, not both")
		ve.Add("everyWeeks", gatewayclient.CodeDuplicate, "give either dayOfMonth or everyWeeks, not both")
	case s.DayOfMonth == 0 && s.EveryWeeks == 0:
		ve.Add("dayOfMonth", gatewayclient.CodeRequired, "give dayOfMonth (1 to 31) or everyWeeks")
	case s.DayOfMonth < 0 || s.DayOfMonth > 31:
		ve.Add("dayOfMonth", gatewayclient.CodeMax, "must be between 1 and 31")
	case s.EveryWeeks < 0 || s.EveryWeeks > MaxEveryWeeks:
		ve.Add("everyWeeks", gatewayclient.CodeMax, "must be between 1 and 52")
	}
}

// checkDays checks the start (today or later) and the end (none, or on or after the first due
// date).
func (s Schedule) checkDays(ve *charges.ValidationError, today Date) {
	startOK := false
	switch {
	case s.Start.IsZero():
		ve.Add("startDate", gatewayclient.CodeRequired, "is required")
	case !calendarDay(s.Start):
		ve.Add("startDate", gatewayclient.CodeFormat, "is not a calendar day")
	case charges.DaysBetween(today, s.Start) < 0:
		ve.Add("startDate", gatewayclient.CodeMin, "must be today or later (São Paulo time)")
	default:
		startOK = true
	}
	switch {
	case s.End.IsZero():
	case !calendarDay(s.End):
		ve.Add("endDate", gatewayclient.CodeFormat, "is not a calendar day")
	case startOK && !ve.Has("dayOfMonth") && !ve.Has("everyWeeks") && charges.DaysBetween(s.Due(0), s.End) < 0:
		ve.Add("endDate", gatewayclient.CodeMin, "must be on or after the first due date, "+s.Due(0).String())
	}
}

// calendarDay reports whether day exists in the calendar (no 31 April).
func calendarDay(day Date) bool {
	return day.Year >= 1 && charges.AddDays(day, 0) == day
}
