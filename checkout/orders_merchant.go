package checkout

import "context"

// OrderByDeposit returns the order one of whose payment attempts is the gateway deposit id (a
// transaction and its deposit share their id), or ErrNotFound when the deposit is not the
// shop's: the dashboard links a deposit to its order with it.
func (s *Service) OrderByDeposit(ctx context.Context, depositID string) (*Order, error) {
	return s.store.OrderByTransaction(ctx, depositID)
}
