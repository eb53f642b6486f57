package charges

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// Made returns the charge CreateOnce made with Idempotency-Key key, and whether there is one,
// without making any: what CreateOnce would answer for in without creating. A charge made with
// the key for another input is an error of code checkout.CodeIdempotencyReused, as
// CreateOnce's. An import reads it to report, before it creates anything, which of its lines
// were imported already.
func (m *Manager) Made(ctx context.Context, key string, in Input) (Charge, bool, error) {
	c, err := m.store.ChargeByIdempotencyKey(ctx, key)
	switch {
	case errors.Is(err, checkout.ErrNotFound):
		return Charge{}, false, nil
	case err != nil:
		return Charge{}, false, fmt.Errorf("charges: looking up the idempotency key: %w", err)
	case c.RequestHash != in.digest():
		return Charge{}, false, &checkout.Error{Code: checkout.CodeIdempotencyReused,
			Message: "this Idempotency-Key was already used with another request body"}
	}
	c.IdempotencyKey, c.RequestHash = "", "" // as Store.Charge reads it
	return c, true, nil
}
