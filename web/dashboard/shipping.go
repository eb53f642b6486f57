package dashboard

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The shipping settings (a part of the settings page, its own form): a flat rate, free above
// an amount of items, a delivery estimate; checkout.Shipping says what each means.

// shippingView is the shipping form showing sh.
func shippingView(r *http.Request, sh checkout.Shipping) views.ShippingSettingsView {
	v := views.ShippingSettingsView{Action: respond.Link(r, Path+"/settings/shipping"),
		FlatRate: formatReaisInput(sh.FlatRate)}
	if sh.FreeAbove > 0 {
		v.FreeAbove = formatReaisInput(sh.FreeAbove)
	}
	if sh.DeliveryDays > 0 {
		v.DeliveryDays = strconv.Itoa(sh.DeliveryDays)
	}
	return v
}

// saveShipping is POST /dashboard/settings/shipping. Every problem is shown beside its field,
// with what was typed kept.
func (d *Dashboard) saveShipping(w http.ResponseWriter, r *http.Request) {
	typed := views.ShippingSettingsView{FlatRate: strings.TrimSpace(r.PostForm.Get("flat_rate")),
		FreeAbove: strings.TrimSpace(r.PostForm.Get("free_above")), DeliveryDays: strings.TrimSpace(r.PostForm.Get("delivery_days"))}
	lang := respond.Lang(r)
	var errs checkout.ValidationError
	var sh checkout.Shipping
	amount := func(name, s string) checkout.Cents {
		if s == "" {
			return 0
		}
		c, err := checkout.ParseReais(s)
		if err != nil {
			errs.Add(name, checkout.CodeFormat, views.T(lang, "settings.shipping_err_amount"))
		}
		return c
	}
	sh.FlatRate = amount("flat_rate", typed.FlatRate)
	sh.FreeAbove = amount("free_above", typed.FreeAbove)
	if typed.DeliveryDays != "" {
		n, err := strconv.Atoi(typed.DeliveryDays)
		if err != nil || n < 1 {
			errs.Add("delivery_days", checkout.CodeMin, views.T(lang, "settings.shipping_err_days"))
		}
		sh.DeliveryDays = n
	}
	if fe := sh.Check(); fe != nil {
		for _, f := range []string{"flat_rate", "free_above", "delivery_days"} {
			if fe.Has(f) && !errs.Has(f) {
				key := "settings.shipping_err_amount"
				if f == "delivery_days" {
					key = "settings.shipping_err_days"
				}
				errs.Add(f, fe.Code(f), views.T(lang, key))
			}
		}
	}
	if len(errs.Violations) == 0 {
		if err := d.settings.UpdateShipping(r.Context(), sh); err != nil {
			d.site.Fail(w, r, err)
			return
		}
		respond.Redirect(w, r, Path+"/settings?done=shipping")
		return
	}
	v := d.settingsView(r, nil)
	typed.Action, typed.Errors = v.Shipping.Action, errs
	v.Shipping = typed
	d.site.Render(w, r, http.StatusUnprocessableEntity, views.SettingsPage(v))
}
