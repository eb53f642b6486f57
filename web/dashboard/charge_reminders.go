package dashboard

import (
	"errors"
	"net/http"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The settings' form of the charges' e-mail reminders (a part of the settings page, its own
// form, beside the shopper's e-mails): the schedule of charges.Reminders.

// chargeRemindersView is the form showing r.
func chargeRemindersView(r *http.Request, rm charges.Reminders) views.ChargeRemindersView {
	lang := views.PtBR
	if rm.Lang == string(views.En) {
		lang = views.En
	}
	return views.ChargeRemindersView{Action: respond.Link(r, Path+"/settings/charge-reminders"), OnIssue: rm.OnIssue,
		OnDue: rm.OnDue, Before: charges.FormatReminderDays(rm.Before), After: charges.FormatReminderDays(rm.After), Lang: lang}
}

// reminderErrors are the settings page's words for a schedule's error codes.
var reminderErrors = map[string]string{checkout.CodeFormat: "settings.reminders_err_format", checkout.CodeMin: "settings.reminders_err_range",
	checkout.CodeMax: "settings.reminders_err_range", checkout.CodeMaxLength: "settings.reminders_err_many",
	checkout.CodeDuplicate: "settings.reminders_err_twice"}

// saveChargeReminders is POST /dashboard/settings/charge-reminders. Every problem is shown
// beside its field, with what was typed kept; the change is audited.
func (d *Dashboard) saveChargeReminders(w http.ResponseWriter, r *http.Request) {
	form := r.PostForm
	lang := respond.Lang(r)
	rm := charges.Reminders{OnIssue: form.Get("reminder_issued") == "true", OnDue: form.Get("reminder_due") == "true",
		Lang: string(views.PtBR)}
	if form.Get("reminder_lang") == string(views.En) {
		rm.Lang = string(views.En)
	}
	typed := chargeRemindersView(r, rm)
	typed.Before, typed.After = strings.TrimSpace(form.Get(charges.FieldReminderBefore)), strings.TrimSpace(form.Get(charges.FieldReminderAfter))
	var errs checkout.ValidationError
	for _, f := range []struct {
		name string
		days *[]int
	}{{charges.FieldReminderBefore, &rm.Before}, {charges.FieldReminderAfter, &rm.After}} {
		days, err := charges.ParseReminderDays(form.Get(f.name))
		if err != nil {
			errs.Add(f.name, checkout.CodeFormat, views.T(lang, reminderErrors[checkout.CodeFormat]))
		}
		*f.days = days
	}
	if len(errs.Violations) == 0 {
		err := d.settings.UpdateChargeReminders(r.Context(), rm)
		var ve *checkout.ValidationError
		if !errors.As(err, &ve) {
			if err != nil {
				d.site.Fail(w, r, err)
				return
			}
			d.record(r, audit.Settings, "charge reminders", "issued: "+yesNo(rm.OnIssue)+"; before: "+typed.Before+
				"; due: "+yesNo(rm.OnDue)+"; after: "+typed.After+"; language: "+rm.Lang)
			respond.Redirect(w, r, Path+"/settings?done=charge_reminders")
			return
		}
		for _, v := range ve.Violations {
			errs.Add(v.Field, v.Code, views.T(lang, reminderErrors[v.Code]))
		}
	}
	v := d.settingsView(r, nil)
	typed.Errors = errs
	v.ChargeReminders = typed
	d.site.Render(w, r, http.StatusUnprocessableEntity, views.SettingsPage(v))
}

// yesNo is b for the audit log.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
