package checkout

import "time"

// Internals the external tests of this package look at.

// Backoff is the reconciler's backoff of one order (see backoffOf).
func (r *Reconciler) Backoff(orderID string) (next time.Time, failures int) {
	return r.backoffOf(orderID)
}

// Known reports whether the reconciler remembers the deposit as applied.
func (r *Reconciler) Known(depositID string) bool { return r.isKnown(depositID) }
