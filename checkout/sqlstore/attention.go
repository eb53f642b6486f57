package sqlstore

import "github.com/pixcheckout/pixcheckout/checkout"

// attentionConds are the conditions of the filters on what needs the merchant's attention
// (fulfilment, refunds due), on orders o. They are literal, not bound: each repeats the
// predicate of a partial index of migration 50 (orders_awaiting_shipment, orders_refund_due),
// which a planner uses only when it sees the same terms.
func attentionConds(f checkout.OrderFilter) []string {
	var conds []string
	switch f.Fulfilment {
	case checkout.FulfilmentAwaitingShipment:
		conds = append(conds, "o.status = 'paid' AND o.physical AND o.shipped_at = 0")
	case checkout.FulfilmentShipped:
		conds = append(conds, "o.shipped_at > 0 AND o.delivered_at = 0")
	case checkout.FulfilmentDelivered:
		conds = append(conds, "o.delivered_at > 0")
	}
	if f.RefundDue {
		conds = append(conds, "o.refund_due > 0")
	}
	return conds
}
