package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/notify"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The settings page works over the merchant settings and API keys of packages settings and apikeys: the
// same store the merchant API and `checkout apikey` use.

// settingsNotices are the notices of the settings page after an action (?done=…).
var settingsNotices = map[string]string{"saved": "settings.saved", "rotated": "settings.rotated", "revoked": "settings.revoked",
	"shipping": "settings.saved", "shopper_mail": "settings.shopper_mail_saved", "charge_reminders": "settings.reminders_saved",
	"subscriptions": "settings.subscription_lead_days_saved"}

// settingsPage is GET /dashboard/settings.
func (d *Dashboard) settingsPage(w http.ResponseWriter, r *http.Request) {
	v := d.settingsView(r, nil)
	if key := settingsNotices[r.URL.Query().Get("done")]; key != "" {
		v.Notice = views.T(v.Lang, key)
	}
	d.site.Render(w, r, http.StatusOK, views.SettingsPage(v))
}

// settingsView reads the settings in force, the keys and the latest notifications. typed,
// when given, replaces the stored URL and origins by what the merchant typed (a refused form).
func (d *Dashboard) settingsView(r *http.Request, typed *settings.Input) views.SettingsView {
	ctx := r.Context()
	v := views.SettingsView{DashPage: d.page(r, "settings"),
		Action:       respond.Link(r, Path+"/settings"),
		SecretAction: respond.Link(r, Path+"/settings/secret"),
		KeysAction:   respond.Link(r, Path+"/settings/keys")}
	var errs []error
	eff, err := d.settings.Get(ctx)
	errs = append(errs, err)
	v.Shipping = shippingView(r, eff.Shipping)
	v.ShopperMail = shopperMailView(r, eff.Settings)
	v.ChargeReminders = chargeRemindersView(r, eff.Reminders())
	if d.subscriptions != nil {
		lead := eff.SubscriptionLeadDays
		if lead <= 0 {
			lead = subscriptions.DefaultLeadDays
		}
		v.SubscriptionLead = views.SubscriptionLeadView{Action: respond.Link(r, Path+"/settings/subscriptions"), Value: strconv.Itoa(lead)}
	}
	v.WebhookURL, v.URLFromConfig, v.SecretFromConfig, v.HasSecret = eff.WebhookURL, eff.URLFromConfig, eff.SecretFromConfig, eff.WebhookSecret != ""
	v.RevealAction = respond.Link(r, Path+"/settings/secret/reveal")
	v.PingAction = respond.Link(r, Path+"/settings/ping")
	if eff.Overlap {
		v.OverlapUntil = eff.PreviousUntil
	}
	v.FrameOrigins = strings.Join(eff.FrameOrigins, "\n")
	v.NotifyPersonalData = eff.NotifyPersonalData
	if typed != nil {
		if !v.URLFromConfig {
			v.WebhookURL = typed.WebhookURL
		}
		v.FrameOrigins = strings.Join(typed.FrameOrigins, "\n")
		v.NotifyPersonalData = typed.NotifyPersonalData
	}
	keys, err := d.keys.List(ctx)
	errs = append(errs, err)
	for _, k := range keys {
		v.Keys = append(v.Keys, views.APIKeyRow{ID: k.ID, Name: k.Name, Hint: k.Hint, CreatedAt: k.CreatedAt,
			LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt, Scope: string(k.Scope), CreatedBy: k.CreatedBy,
			LastUsedAddress: k.LastUsedAddress, PersonalData: k.PersonalData,
			RevokeURL: respond.Link(r, Path+"/settings/keys/"+url.PathEscape(k.ID)+"/revoke")})
	}
	if d.notifications != nil {
		ns, err := d.notifications.List(ctx, notify.NotificationFilter{Limit: 20})
		errs = append(errs, err)
		for _, n := range ns {
			row := views.DeliveryRow{ID: n.ID, Type: n.Type, Status: n.Status, CreatedAt: n.CreatedAt, Attempts: n.Attempts,
				LastStatusCode: n.LastStatusCode, LastError: n.LastError, LastDuration: n.LastDuration, LastExcerpt: n.LastExcerpt}
			switch {
			case n.OrderID != "":
				row.URL = respond.Link(r, Path+"/orders/"+url.PathEscape(n.OrderID))
			case n.ChargeID != "":
				row.URL = respond.Link(r, chargePath(n.ChargeID))
			}
			v.Deliveries = append(v.Deliveries, row)
		}
	}
	if err := errors.Join(errs...); err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(ctx))
	}
	return v
}

// saveSettings is POST /dashboard/settings: the notification URL and the framing origins (one
// per line). Every problem is shown beside its field, with what was typed kept.
func (d *Dashboard) saveSettings(w http.ResponseWriter, r *http.Request) {
	in := settings.Input{WebhookURL: strings.TrimSpace(r.PostForm.Get(settings.FieldWebhookURL)),
		NotifyPersonalData: r.PostForm.Get(settings.FieldNotifyPersonalData) == "true"}
	for line := range strings.SplitSeq(r.PostForm.Get(settings.FieldFrameOrigins), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			in.FrameOrigins = append(in.FrameOrigins, line)
		}
	}
	before, err := d.settings.Get(r.Context())
	if err == nil && before.URLFromConfig {
		in.WebhookURL = "" // the configuration's URL wins; the page shows it read-only
	}
	after, err := d.settings.Update(r.Context(), in)
	var fe *checkout.ValidationError
	if errors.As(err, &fe) {
		v := d.settingsView(r, &in)
		for _, field := range []string{settings.FieldWebhookURL, settings.FieldFrameOrigins} {
			if fe.Has(field) {
				v.Errors.Add(field, fe.Code(field), views.FieldMessage(v.Lang, field, fe.Code(field)))
			}
		}
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.SettingsPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	var changes []string
	if before.WebhookURL != after.WebhookURL {
		changes = append(changes, audit.Change(settings.FieldWebhookURL, before.WebhookURL, after.WebhookURL))
	}
	if b, a := strings.Join(before.FrameOrigins, " "), strings.Join(after.FrameOrigins, " "); b != a {
		changes = append(changes, audit.Change(settings.FieldFrameOrigins, b, a))
	}
	if before.NotifyPersonalData != after.NotifyPersonalData {
		changes = append(changes, audit.Change(settings.FieldNotifyPersonalData,
			strconv.FormatBool(before.NotifyPersonalData), strconv.FormatBool(after.NotifyPersonalData)))
	}
	d.record(r, audit.Settings, "notifications and framing", strings.Join(changes, "; "))
	respond.Redirect(w, r, Path+"/settings?done=saved")
}

// rotateSecret is POST /dashboard/settings/secret: a new signing secret for notifications.
func (d *Dashboard) rotateSecret(w http.ResponseWriter, r *http.Request) {
	if _, err := d.settings.RotateSecret(r.Context()); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.SecretRotated, "notification signing secret", "")
	respond.Redirect(w, r, Path+"/settings?done=rotated")
}

// ping is POST /dashboard/settings/ping: a signed "ping" notification sent now to the URL in
// force; the answer shows its status, time and the start of the receiver's answer.
func (d *Dashboard) ping(w http.ResponseWriter, r *http.Request) {
	res, err := notify.Ping(r.Context(), d.settings, d.svc.Now(), userOf(r).Email)
	if errors.Is(err, notify.ErrNoDestination) {
		v := d.settingsView(r, nil)
		v.Failed = views.T(v.Lang, "settings.ping_nowhere")
		d.site.Render(w, r, http.StatusConflict, views.SettingsPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	detail := res.URL + ": " + res.Error
	if res.Error == "" {
		detail = res.URL + ": HTTP " + strconv.Itoa(res.StatusCode)
	}
	d.record(r, audit.Ping, "notification URL", detail)
	if d.notifications != nil {
		// Best effort: the ping was sent and its answer is shown below either way.
		if err := d.notifications.RecordPing(r.Context(), res); err != nil {
			d.site.LogError(r, err, checkout.ErrorCode(err))
		}
	}
	v := d.settingsView(r, nil)
	v.Ping = &views.PingRow{At: res.At, URL: res.URL, StatusCode: res.StatusCode, Duration: res.Duration, Excerpt: res.Excerpt,
		Error: res.Error}
	d.site.Render(w, r, http.StatusOK, views.SettingsPage(v))
}

// revealSecret is POST /dashboard/settings/secret/reveal: the signing secret, shown in this
// answer only (the page is not cached), after the user typed their password again; audited.
func (d *Dashboard) revealSecret(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u := userOf(r)
	if err := d.accounts.VerifyPassword(ctx, u, r.PostForm.Get("current_password"), respond.ClientIP(r)); err != nil {
		var te *team.ThrottledError
		if !errors.Is(err, team.ErrBadCredentials) && !errors.As(err, &te) {
			d.site.Fail(w, r, err)
			return
		}
		v := d.settingsView(r, nil)
		v.Errors.Add("current_password", "", views.T(v.Lang, "account.err_current"))
		d.recordAs(r, u.Email, audit.SignInFailed, u.Email, audit.DetailWrongPasswordReveal)
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.SettingsPage(v))
		return
	}
	eff, err := d.settings.Get(ctx)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.SecretRevealed, "notification signing secret", "")
	v := d.settingsView(r, nil)
	v.Secret = eff.WebhookSecret
	d.site.Render(w, r, http.StatusOK, views.SettingsPage(v))
}

// createKey is POST /dashboard/settings/keys: a new API key, shown in the answer this once
// (never stored, so never shown again; the page is not cached).
func (d *Dashboard) createKey(w http.ResponseWriter, r *http.Request) {
	name := r.PostForm.Get("name")
	scope, err := apikeys.ParseScope(r.PostForm.Get(apikeys.FieldScope))
	var secret string
	var key *apikeys.Key
	if err == nil {
		secret, key, err = d.keys.Create(r.Context(), name, scope, userOf(r))
	}
	var fe *checkout.ValidationError
	if errors.As(err, &fe) {
		v := d.settingsView(r, nil)
		v.KeyName, v.KeyScope = name, r.PostForm.Get(apikeys.FieldScope)
		if fe.Has("name") {
			v.Errors.Add("name", fe.Code("name"), views.T(v.Lang, "settings.err_key_name"))
		}
		if fe.Has(apikeys.FieldScope) {
			v.Errors.Add(apikeys.FieldScope, fe.Code(apikeys.FieldScope), views.T(v.Lang, "settings.err_key_scope"))
		}
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.SettingsPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.KeyCreated, key.Name, fmt.Sprintf("scope: %s; personal data: %t; %s", key.Scope, key.PersonalData, key.Hint))
	d.site.Log.InfoContext(r.Context(), "API key created in the dashboard", "request_id", respond.RequestID(r.Context()),
		"key", key.ID, "user", userOf(r).ID)
	v := d.settingsView(r, nil)
	v.NewKey, v.NewKeyName = secret, key.Name
	d.site.Render(w, r, http.StatusCreated, views.SettingsPage(v))
}

// revokeKey is POST /dashboard/settings/keys/{id}/revoke.
func (d *Dashboard) revokeKey(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	name := id
	if ks, err := d.keys.List(r.Context()); err == nil {
		for _, k := range ks {
			if k.ID == id {
				name = k.Name
			}
		}
	}
	if err := d.keys.Revoke(r.Context(), id); err != nil {
		if checkout.ErrorCode(err) == checkout.CodeNotFound {
			lang := respond.Lang(r)
			d.errorPage(w, r, http.StatusNotFound, views.T(lang, "notfound.title"), views.T(lang, "notfound.text"), "",
				respond.Link(r, Path+"/settings"))
			return
		}
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.KeyRevoked, name, id)
	d.site.Log.InfoContext(r.Context(), "API key revoked in the dashboard", "request_id", respond.RequestID(r.Context()),
		"key", id, "user", userOf(r).ID)
	respond.Redirect(w, r, Path+"/settings?done=revoked")
}
