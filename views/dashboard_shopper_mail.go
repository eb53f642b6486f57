package views

// ShopperMailView is the settings' form of the e-mails sent to the shopper.
type ShopperMailView struct {
	Action   string // POST: message, repeated, the kinds turned on
	Messages []ShopperMailRow
}

// ShopperMailRow is one e-mail to the shopper and whether it is sent.
type ShopperMailRow struct {
	Kind string // settings.Shopper* ("paid", "shipped"…)
	On   bool
}

// shopperMailKeys name the shopper's e-mails (settings.ShopperMessages) on the settings page.
var shopperMailKeys = map[string]string{
	"order_placed": "settings.shopper_mail_order_placed",
	"paid":         "settings.shopper_mail_paid",
	"shipped":      "settings.shopper_mail_shipped",
	"delivered":    "settings.shopper_mail_delivered",
	"canceled":     "settings.shopper_mail_canceled",
	"refunded":     "settings.shopper_mail_refunded",
	"refund_due":   "settings.shopper_mail_refund_due",
}
