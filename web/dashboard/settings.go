package dashboard

import (
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/merchant"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The settings page works over the merchant settings and API keys of package merchant: the
// same store the merchant API and `checkout apikey` use.

// settingsNotices are the notices of the settings page after an action (?done=…).
var settingsNotices = map[string]string{"saved": "settings.saved", "rotated": "settings.rotated", "revoked": "settings.revoked",
	"shipping": "settings.saved"}

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
func (d *Dashboard) settingsView(r *http.Request, typed *merchant.SettingsInput) views.SettingsView {
	ctx := r.Context()
	v := views.SettingsView{DashPage: d.page(r, "settings"), Errors: map[string]string{},
		Action:       respond.Link(r, Path+"/settings"),
		SecretAction: respond.Link(r, Path+"/settings/secret"),
		KeysAction:   respond.Link(r, Path+"/settings/keys")}
	var errs []error
	eff, err := d.settings.Get(ctx)
	errs = append(errs, err)
	v.Shipping = shippingView(r, eff.Shipping)
	v.WebhookURL, v.URLFromConfig, v.SecretFromConfig, v.Secret = eff.WebhookURL, eff.URLFromConfig, eff.SecretFromConfig, eff.WebhookSecret
	v.FrameOrigins = strings.Join(eff.FrameOrigins, "\n")
	if typed != nil {
		if !v.URLFromConfig {
			v.WebhookURL = typed.WebhookURL
		}
		v.FrameOrigins = strings.Join(typed.FrameOrigins, "\n")
	}
	keys, err := d.keys.List(ctx)
	errs = append(errs, err)
	for _, k := range keys {
		v.Keys = append(v.Keys, views.APIKeyRow{ID: k.ID, Name: k.Name, Hint: k.Hint, CreatedAt: k.CreatedAt,
			LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt,
			RevokeURL: respond.Link(r, Path+"/settings/keys/"+url.PathEscape(k.ID)+"/revoke")})
	}
	if d.notifications != nil {
		ns, err := d.notifications.List(ctx, merchant.NotificationFilter{Limit: 20})
		errs = append(errs, err)
		for _, n := range ns {
			row := views.DeliveryRow{ID: n.ID, Type: n.Type, Status: n.Status, CreatedAt: n.CreatedAt, Attempts: n.Attempts,
				LastStatusCode: n.LastStatusCode, LastError: n.LastError}
			if n.OrderID != "" {
				row.OrderURL = respond.Link(r, Path+"/orders/"+url.PathEscape(n.OrderID))
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
	in := merchant.SettingsInput{WebhookURL: strings.TrimSpace(r.PostForm.Get(merchant.FieldWebhookURL))}
	for line := range strings.SplitSeq(r.PostForm.Get(merchant.FieldFrameOrigins), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			in.FrameOrigins = append(in.FrameOrigins, line)
		}
	}
	if cur, err := d.settings.Get(r.Context()); err == nil && cur.URLFromConfig {
		in.WebhookURL = "" // the configuration's URL wins; the page shows it read-only
	}
	_, err := d.settings.Update(r.Context(), in)
	var fe *checkout.FieldErrors
	if errors.As(err, &fe) {
		v := d.settingsView(r, &in)
		for _, field := range []string{merchant.FieldWebhookURL, merchant.FieldFrameOrigins} {
			if fe.Has(field) {
				v.Errors[field] = views.FieldMessage(v.Lang, field, fe.Code(field))
			}
		}
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.SettingsPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, Path+"/settings?done=saved")
}

// rotateSecret is POST /dashboard/settings/secret: a new signing secret for notifications.
func (d *Dashboard) rotateSecret(w http.ResponseWriter, r *http.Request) {
	if _, err := d.settings.RotateSecret(r.Context()); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, Path+"/settings?done=rotated")
}

// createKey is POST /dashboard/settings/keys: a new API key, shown in the answer this once
// (never stored, so never shown again; the page is not cached).
func (d *Dashboard) createKey(w http.ResponseWriter, r *http.Request) {
	name := r.PostForm.Get("name")
	secret, key, err := d.keys.Create(r.Context(), name)
	var fe *checkout.FieldErrors
	if errors.As(err, &fe) {
		v := d.settingsView(r, nil)
		v.KeyName = name
		v.Errors["name"] = views.T(v.Lang, "settings.err_key_name")
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.SettingsPage(v))
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.site.Log.InfoContext(r.Context(), "API key created in the dashboard", "request_id", respond.RequestID(r.Context()),
		"key", key.ID, "user", userOf(r).ID)
	v := d.settingsView(r, nil)
	v.NewKey, v.NewKeyName = secret, key.Name
	d.site.Render(w, r, http.StatusCreated, views.SettingsPage(v))
}

// revokeKey is POST /dashboard/settings/keys/{id}/revoke.
func (d *Dashboard) revokeKey(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
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
	d.site.Log.InfoContext(r.Context(), "API key revoked in the dashboard", "request_id", respond.RequestID(r.Context()),
		"key", id, "user", userOf(r).ID)
	respond.Redirect(w, r, Path+"/settings?done=revoked")
}
