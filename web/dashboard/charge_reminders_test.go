package dashboard_test

import (
	"net/http"
	"net/url"
	"testing"
)

// TestDashboardChargeReminders: the settings page shows the default schedule of the charges'
// reminders, refuses a bad list of days beside its field with what was typed kept, and keeps a
// good one.
func TestDashboardChargeReminders(t *testing.T) {
	e, b := signedIn(t)
	_, doc := b.get("/dashboard/settings")
	field := func(name string) string { v, _ := doc.Find(`[data-testid="` + name + `"]`).Attr("value"); return v }
	checked := func(name string) bool { _, on := doc.Find(`[data-testid="` + name + `"]`).Attr("checked"); return on }
	if field("reminder_before") != "3" || field("reminder_after") != "1, 3, 7" || !checked("reminder-issued") || !checked("reminder-due") {
		t.Errorf("the default schedule: before %q, after %q, issued %v, due %v", field("reminder_before"), field("reminder_after"),
			checked("reminder-issued"), checked("reminder-due"))
	}
	post := func(before, after string) *http.Response {
		return b.do(http.MethodPost, "/dashboard/settings/charge-reminders", url.Values{"csrf_token": {b.csrf()},
			"reminder_due": {"true"}, "reminder_before": {before}, "reminder_after": {after}, "reminder_lang": {"en"}})
	}
	for _, c := range []struct{ before, after, field, msg string }{
		{"três", "1", "reminder_before", "Use números inteiros de dias separados por vírgula, como 1, 3, 7."},
		{"3", "1, 90", "reminder_after", "Cada dia deve estar entre 1 e 60."},
		{"3", "2, 2", "reminder_after", "Um dia aparece duas vezes."},
	} {
		res := post(c.before, c.after)
		doc = e.parse(res)
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Fatalf("%q/%q: %d", c.before, c.after, res.StatusCode)
		}
		errs := doc.Find(`[data-testid="charge-reminders-form"] [data-testid="field-error"]`)
		if errs.Length() != 1 || errs.AttrOr("data-field", "") != c.field || errs.Text() != c.msg {
			t.Errorf("%q/%q: errors %d %q %q", c.before, c.after, errs.Length(), errs.AttrOr("data-field", ""), errs.Text())
		}
		if inv, _ := doc.Find(`#rm-` + c.field).Attr("aria-invalid"); inv != "true" || field("reminder_after") != c.after {
			t.Errorf("%q/%q: the field is not marked, or lost what was typed", c.before, c.after)
		}
	}
	res := post("7; 2", "")
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("saving: %d", res.StatusCode)
	}
	_, doc = b.get("/dashboard/settings?done=charge_reminders")
	if doc.Find(`[data-testid="notice"]`).Text() != "Lembretes de cobranças salvos." {
		t.Errorf("notice %q", doc.Find(`[data-testid="notice"]`).Text())
	}
	if field("reminder_before") != "7, 2" || field("reminder_after") != "" || checked("reminder-issued") || !checked("reminder-due") ||
		doc.Find(`[data-testid="reminder-lang"] option[selected]`).AttrOr("value", "") != "en" {
		t.Errorf("after saving: before %q, after %q, issued %v", field("reminder_before"), field("reminder_after"), checked("reminder-issued"))
	}
}
