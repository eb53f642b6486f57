package charges_test

import (
	"slices"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// TestReminderSteps: the schedule's steps of a charge due on day 10 are at 09:00 São Paulo time
// of their days; a step already past when the charge is made is left out, and so is one on the
// day of issue when the e-mail goes.
func TestReminderSteps(t *testing.T) {
	day := func(n int) charges.Date { return charges.Date{Year: 2026, Month: time.March, Day: n} }
	at := func(n, h int) time.Time { return time.Date(2026, time.March, n, h+3, 0, 0, 0, time.UTC) }
	names := func(steps []charges.ReminderStep) []string {
		var out []string
		for _, s := range steps {
			out = append(out, s.Name)
		}
		return out
	}
	def := charges.DefaultReminders()
	steps := def.Steps(day(10), at(1, 10))
	if got, want := names(steps), []string{"issued", "before-3", "due", "after-1", "after-3", "after-7"}; !slices.Equal(got, want) {
		t.Fatalf("steps %v, want %v", got, want)
	}
	if !steps[0].At.IsZero() || steps[0].Day != day(1) || !steps[2].At.Equal(at(10, 9)) || steps[5].Day != day(17) {
		t.Errorf("steps %+v", steps)
	}
	for _, c := range []struct {
		sched  charges.Reminders
		issued time.Time
		want   []string
	}{
		{def, at(8, 10), []string{"issued", "due", "after-1", "after-3", "after-7"}},
		{def, at(7, 8), []string{"issued", "due", "after-1", "after-3", "after-7"}},                  // day 7 is the day
		{charges.Reminders{Before: []int{7, 3}, OnDue: true}, at(7, 8), []string{"before-3", "due"}}, // 09:00 of day 7 still ahead
		{charges.Reminders{Before: []int{3}, OnDue: true}, at(10, 10), nil},
		{charges.Reminders{Before: []int{1, 5}, After: []int{2}}, at(1, 0), []string{"before-5", "before-1", "after-2"}},
	} {
		if got := names(c.sched.Steps(day(10), c.issued)); !slices.Equal(got, c.want) {
			t.Errorf("%+v made at %s: steps %v, want %v", c.sched, c.issued, got, c.want)
		}
	}
}

// TestRemindersValidate names the field of each bad schedule.
func TestRemindersValidate(t *testing.T) {
	if ve := charges.DefaultReminders().Validate(); ve != nil {
		t.Fatalf("the default schedule: %v", ve)
	}
	for _, c := range []struct {
		r     charges.Reminders
		field string
	}{
		{charges.Reminders{Before: []int{0}}, charges.FieldReminderBefore},
		{charges.Reminders{After: []int{61}}, charges.FieldReminderAfter},
		{charges.Reminders{After: []int{1, 1}}, charges.FieldReminderAfter},
		{charges.Reminders{Before: []int{1, 2, 3, 4, 5, 6}}, charges.FieldReminderBefore},
	} {
		ve := c.r.Validate()
		if ve == nil || !ve.Has(c.field) || len(ve.Violations) != 1 {
			t.Errorf("%+v: %v, want an error of %s alone", c.r, ve, c.field)
		}
	}
	if _, err := charges.ParseReminderDays("1, 3; 7"); err != nil {
		t.Error(err)
	}
	if _, err := charges.ParseReminderDays("1, três"); err == nil {
		t.Error("a word read as days")
	}
}
