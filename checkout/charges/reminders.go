package charges

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Reminders is the merchant's schedule of a charge's e-mail reminders: when it is issued,
// Before days before its due date, on the due date, and After days after it (overdue). Each
// later step goes at ReminderHour, São Paulo time, of its day.
type Reminders struct {
	OnIssue bool  `json:"onIssue"`
	Before  []int `json:"before"` // days before the due date, each 1…MaxReminderDays
	OnDue   bool  `json:"onDue"`
	After   []int `json:"after"` // days after the due date, each 1…MaxReminderDays
	// Lang is the language of the reminders: "pt-BR" (default) or "en". A charge carries no
	// language of its own; the merchant writes to their customers in one.
	Lang string `json:"lang"`
}

// The bounds of a reminders' schedule.
const (
	// ReminderHour is the São Paulo hour (09:00) at which a reminder of a day is sent: the
	// start of a working day, never in the night.
	ReminderHour = 9
	// MaxReminderDays bounds how far from the due date a reminder may be.
	MaxReminderDays = 60
	// MaxReminderSteps bounds the days before, and the days after, each.
	MaxReminderSteps = 5
)

// The names of a schedule's inputs (the settings form's, and its field errors' keys).
const (
	FieldReminderBefore = "reminder_before"
	FieldReminderAfter  = "reminder_after"
)

// DefaultReminders is the schedule of a merchant who never set one: when issued, 3 days
// before, on the due date, and 1, 3 and 7 days overdue, in Portuguese.
func DefaultReminders() Reminders {
	return Reminders{OnIssue: true, Before: []int{3}, OnDue: true, After: []int{1, 3, 7}, Lang: "pt-BR"}
}

// Validate checks r, naming FieldReminderBefore or FieldReminderAfter; nil when it holds.
func (r Reminders) Validate() *ValidationError {
	ve := &ValidationError{Kind: gatewayclient.KindValidation}
	for field, days := range map[string][]int{FieldReminderBefore: r.Before, FieldReminderAfter: r.After} {
		switch {
		case len(days) > MaxReminderSteps:
			ve.Add(field, checkout.CodeMaxLength, fmt.Sprintf("must hold at most %d days", MaxReminderSteps))
		case slices.ContainsFunc(days, func(d int) bool { return d < 1 }):
			ve.Add(field, checkout.CodeMin, "each day must be at least 1")
		case slices.ContainsFunc(days, func(d int) bool { return d > MaxReminderDays }):
			ve.Add(field, checkout.CodeMax, fmt.Sprintf("each day must be at most %d", MaxReminderDays))
		case len(slices.Compact(slices.Sorted(slices.Values(days)))) != len(days):
			ve.Add(field, checkout.CodeDuplicate, "a day is given twice")
		}
	}
	return ve.OrNil()
}

// ParseReminderDays reads a list of days as a form gives it ("1, 3, 7", or separated by spaces
// or semicolons); "" is none. A word that is not a whole number is an error naming it.
func ParseReminderDays(s string) ([]int, error) {
	var out []int
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' }) {
		n, err := strconv.Atoi(w)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number of days", w)
		}
		out = append(out, n)
	}
	return out, nil
}

// FormatReminderDays is days as ParseReminderDays reads them ("1, 3, 7").
func FormatReminderDays(days []int) string {
	s := make([]string, len(days))
	for i, d := range days {
		s[i] = strconv.Itoa(d)
	}
	return strings.Join(s, ", ")
}

// The names of a reminder's steps: StepIssued, StepDue, and "before-N", "after-N".
const (
	StepIssued = "issued"
	StepDue    = "due"
)

// ReminderStep is one reminder of a charge: its name (unique among the charge's steps, with
// the charge's id the reminder's key), the São Paulo day whose amount it tells, and when it is
// first due (zero: at once).
type ReminderStep struct {
	Name string
	Day  Date
	At   time.Time
}

// DaysToDue is how many days the step is before the due date (negative: after it).
func (s ReminderStep) DaysToDue(due Date) int { return DaysBetween(s.Day, due) }

// Steps returns the reminders of a charge due on due, issued at issued: each step of r whose
// moment is still to come; when the issue's e-mail is sent, none other on the day of issue
// (one e-mail a day is enough). Ordered by their moments.
func (r Reminders) Steps(due Date, issued time.Time) []ReminderStep {
	today := Today(issued)
	var out []ReminderStep
	if r.OnIssue {
		out = append(out, ReminderStep{Name: StepIssued, Day: today})
	}
	add := func(name string, day Date) {
		at := ReminderAt(day)
		if !at.After(issued) || (r.OnIssue && day == today) {
			return
		}
		out = append(out, ReminderStep{Name: name, Day: day, At: at})
	}
	for _, n := range r.Before {
		add("before-"+strconv.Itoa(n), AddDays(due, -n))
	}
	if r.OnDue {
		add(StepDue, due)
	}
	for _, n := range r.After {
		add("after-"+strconv.Itoa(n), AddDays(due, n))
	}
	// The issue's step has no moment of its own (zero): it stays first.
	slices.SortStableFunc(out, func(a, b ReminderStep) int { return a.At.Compare(b.At) })
	return out
}

// ReminderAt is when the reminders of day go: ReminderHour in São Paulo.
func ReminderAt(day Date) time.Time {
	return time.Date(day.Year, day.Month, day.Day, ReminderHour, 0, 0, 0, saoPaulo)
}

// Announcers is an Announcer made of several: each one's messages are written with the change,
// in their order (the merchant's notifications, then the customer's reminders).
type Announcers []Announcer

// Announce returns every announcer's messages; the first error aborts the change.
func (as Announcers) Announce(ctx context.Context, c *Charge, e Event) ([]checkout.OutboxMessage, error) {
	var out []checkout.OutboxMessage
	for _, a := range as {
		msgs, err := a.Announce(ctx, c, e)
		if err != nil {
			return nil, err
		}
		out = append(out, msgs...)
	}
	return out, nil
}

// Announced tells every announcer.
func (as Announcers) Announced() {
	for _, a := range as {
		a.Announced()
	}
}
