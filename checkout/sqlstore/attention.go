package sqlstore

import "github.com/pixcheckout/pixcheckout/checkout"

// attentionConds are the conditions of the filters on what needs the merchant's attention
// (fulfilment, refunds due), on orders o. They are literal, not bound: each repeats the
// predicate of a partial index (orders_awaiting_shipment, orders_refund_due),
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

// refundClaims returns the statements claiming the end-to-end id of every refund recorded in
// an order's history (order_refunds): an id already the order's is claimed again (no change);
// one another order holds changes no row, which fails the order's update with
// checkout.ErrEndToEndTaken, so that one refund is never recorded on two orders.
func refundClaims(orderID string, hs []checkout.StatusChange) []Stmt {
	var stmts []Stmt
	for _, h := range hs {
		if h.Reason.Code != checkout.ReasonRefundRecorded || h.Reason.EndToEnd == "" {
			continue
		}
		stmts = append(stmts, Stmt{SQL: `INSERT INTO order_refunds (end_to_end, order_id) VALUES ($1, $2)
			ON CONFLICT (end_to_end) DO UPDATE SET order_id = excluded.order_id WHERE order_refunds.order_id = excluded.order_id`,
			Args: []any{h.Reason.EndToEnd, orderID},
			Affected: func(rows int64) error {
				if rows != 1 {
					return checkout.ErrEndToEndTaken
				}
				return nil
			}})
	}
	return stmts
}
