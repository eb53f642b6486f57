package dashboard

import (
	"net/http"
	"slices"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The settings' form of the e-mails sent to the shopper (a part of the settings page, its own
// form): which of settings.ShopperMessages are sent.

// shopperMailView is the form showing set.
func shopperMailView(r *http.Request, set settings.Settings) views.ShopperMailView {
	v := views.ShopperMailView{Action: respond.Link(r, Path+"/settings/shopper-mail")}
	for _, k := range settings.ShopperMessages() {
		v.Messages = append(v.Messages, views.ShopperMailRow{Kind: k, On: set.SendsShopper(k)})
	}
	return v
}

// saveShopperMail is POST /dashboard/settings/shopper-mail: the kinds ticked (message,
// repeated) are sent, the others not. The change is audited.
func (d *Dashboard) saveShopperMail(w http.ResponseWriter, r *http.Request) {
	on := r.PostForm["message"]
	if err := d.settings.UpdateShopperMail(r.Context(), on); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	var kept []string
	for _, k := range settings.ShopperMessages() {
		if slices.Contains(on, k) {
			kept = append(kept, k)
		}
	}
	d.record(r, audit.Settings, "e-mails to the shopper", "on: "+strings.Join(kept, ", "))
	respond.Redirect(w, r, Path+"/settings?done=shopper_mail")
}
