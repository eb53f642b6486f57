package settings

import (
	"context"
	"fmt"
	"slices"
)

// The e-mails sent to the shopper about an order (when it has an e-mail), which the merchant
// may turn off one by one in the settings (Settings.ShopperMail).
const (
	ShopperOrderPlaced = "order_placed" // the amount, the PIX code and its expiry: off by default
	ShopperPaid        = "paid"         // the receipt
	ShopperShipped     = "shipped"      // the carrier, the tracking code and link
	ShopperDelivered   = "delivered"
	ShopperCanceled    = "canceled"
	ShopperRefunded    = "refunded"   // a refund recorded or made, its amount and day
	ShopperRefundDue   = "refund_due" // a late or double payment the shop returns
)

// ShopperMessages lists the shopper's e-mails, in the order of an order's life.
func ShopperMessages() []string {
	return []string{ShopperOrderPlaced, ShopperPaid, ShopperShipped, ShopperDelivered, ShopperCanceled, ShopperRefunded, ShopperRefundDue}
}

// SendsShopper reports whether the shopper is sent the e-mail kind: as the merchant set it,
// else its default (on, but the order placed: the PIX page is in front of the shopper then).
func (s Settings) SendsShopper(kind string) bool {
	if on, ok := s.ShopperMail[kind]; ok {
		return on
	}
	return kind != ShopperOrderPlaced && slices.Contains(ShopperMessages(), kind)
}

// UpdateShopperMail stores which shopper e-mails are sent: those in on (kinds of
// ShopperMessages), every other one off; the other settings are kept.
func (m *Manager) UpdateShopperMail(ctx context.Context, on []string) error {
	cur, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return fmt.Errorf("settings: reading settings: %w", err)
	}
	cur.ShopperMail = map[string]bool{}
	for _, k := range ShopperMessages() {
		cur.ShopperMail[k] = slices.Contains(on, k)
	}
	cur.UpdatedAt = m.now().UTC()
	if err := m.store.SaveMerchantSettings(ctx, cur); err != nil {
		return fmt.Errorf("settings: saving settings: %w", err)
	}
	m.forget()
	return nil
}

// SendsShopper reports whether the shopper is sent the e-mail kind (Settings.SendsShopper), read
// at most every few seconds as FrameOrigins: the shopper's e-mails ask at every change of an
// order. A change made through this manager applies at once.
func (m *Manager) SendsShopper(ctx context.Context, kind string) (bool, error) {
	s, err := m.recent(ctx)
	if err != nil {
		return false, err
	}
	return s.SendsShopper(kind), nil
}
