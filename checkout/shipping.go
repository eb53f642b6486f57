package checkout

import (
	"context"
	"fmt"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Shipping is the merchant's rule for shipping physical goods, set in the dashboard's settings:
// a flat rate per order, free above an amount of items, and a delivery estimate. An order
// without a physical product ships nothing and pays nothing for it.
type Shipping struct {
	// FlatRate is charged once per order with a physical product; 0: shipping is free.
	FlatRate gatewayclient.Cents
	// FreeAbove: an order whose items total at least this ships free; 0: never.
	FreeAbove gatewayclient.Cents
	// DeliveryDays is the delivery estimate in business days; 0: none is given.
	DeliveryDays int
}

// Limits of the shipping settings.
const (
	MaxDeliveryDays = 90
	// ShippingItemTitle is the title of the item that carries the shipping to the gateway: one
	// more item, its price as unitPrice, sent only when shipping costs something (the gateway's
	// unitPrice is at least 1).
	ShippingItemTitle = "Frete"
)

// For returns what shipping costs for items totalling items, physical or not.
func (sh Shipping) For(items gatewayclient.Cents, physical bool) gatewayclient.Cents {
	if !physical || sh.FreeAbove > 0 && items >= sh.FreeAbove {
		return 0
	}
	return sh.FlatRate
}

// Check returns the first problem of the settings, naming the field (flat_rate, free_above,
// delivery_days), or nil.
func (sh Shipping) Check() *ValidationError {
	fe := &ValidationError{}
	for field, v := range map[string]gatewayclient.Cents{"flat_rate": sh.FlatRate, "free_above": sh.FreeAbove} {
		switch {
		case v < 0:
			fe.Add(field, CodeMin, "must not be negative")
		case v > gatewayclient.MaxAmount:
			fe.Add(field, CodeMax, fmt.Sprintf("must be at most %d cents", int64(gatewayclient.MaxAmount)))
		}
	}
	if sh.DeliveryDays < 0 || sh.DeliveryDays > MaxDeliveryDays {
		fe.Add("delivery_days", CodeMax, fmt.Sprintf("must be 0 to %d business days", MaxDeliveryDays))
	}
	return fe.OrNil()
}

// ShippingRule returns the shipping settings in force (ServiceOptions.Shipping); none when the
// Service has no source of them.
func (s *Service) ShippingRule(ctx context.Context) (Shipping, error) {
	if s.shipping == nil {
		return Shipping{}, nil
	}
	sh, err := s.shipping(ctx)
	if err != nil {
		return Shipping{}, fmt.Errorf("checkout: reading the shipping settings: %w", err)
	}
	return sh, nil
}

// ItemsTotal is what the order's items cost: its amount without shipping.
func (o *Order) ItemsTotal() gatewayclient.Cents { return o.Amount - o.Shipping }

// setShipping adds shipping of amount (and its delivery estimate) to an order being made.
func (o *Order) setShipping(amount gatewayclient.Cents, days int) {
	if !o.Physical {
		return
	}
	o.Amount += amount
	o.Shipping = amount
	o.DeliveryDays = days
}
