package checkout

import (
	"context"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Store keeps products, carts, orders with their attempts and history, the ids of webhooks
// already seen, payment links, checkout sessions, product pictures and personal data's anonymisation. Every implementation must pass checkout/storetest. Every method takes a context
// and is safe for concurrent use, also from several processes sharing one database.
type Store interface {
	LinkStore
	CheckoutSessionStore
	PersonalDataStore
	ImageStore
	// UpsertProduct creates the product or replaces it (by ID). Slugs are unique.
	UpsertProduct(ctx context.Context, p Product) error
	// AddProduct stores p unless a product with its ID or its slug is stored, and reports
	// whether it stored it. Concurrent calls for one product, from any process, store it once
	// and none fails.
	AddProduct(ctx context.Context, p Product) (added bool, err error)
	// Product returns one product, active or not, or ErrNotFound.
	Product(ctx context.Context, id ProductID) (*Product, error)
	// ProductBySlug returns one product by its slug, or ErrNotFound.
	ProductBySlug(ctx context.Context, slug string) (*Product, error)
	// Products lists the catalogue ordered by title; only active products when activeOnly.
	Products(ctx context.Context, activeOnly bool) ([]Product, error)

	// CreateCart stores a new cart (its lines too).
	CreateCart(ctx context.Context, c Cart) error
	// Cart returns a cart with each line's product read from the catalogue, or ErrNotFound.
	Cart(ctx context.Context, id string) (*Cart, error)
	// UpdateCart reads the cart, lets fn change its lines and stores the result, all in one
	// transaction, so that concurrent updates of one cart never lose each other. Only each line's
	// Product.ID and Quantity are stored; UpdatedAt is set to now. fn must do no I/O; its error
	// aborts the update and is returned as is.
	UpdateCart(ctx context.Context, id string, now time.Time, fn func(c *Cart) error) (*Cart, error)

	// CreateOrder stores a new order with its lines, history and attempts (the first attempt with
	// its idempotency key) in one transaction. When an order with the same RequestKey exists it
	// stores nothing and returns that order with created false. Request keys, order numbers and
	// idempotency keys are unique (enforced by the database, not only by the caller).
	CreateOrder(ctx context.Context, o *Order) (stored *Order, created bool, err error)
	// Order returns an order with its lines, history and attempts, or ErrNotFound.
	Order(ctx context.Context, id string) (*Order, error)
	// OrderByTransaction returns the order one of whose attempts has that gateway transaction id,
	// or ErrNotFound.
	OrderByTransaction(ctx context.Context, transactionID string) (*Order, error)
	// OrderByExternalCode returns the order with that externalCode, or ErrNotFound.
	OrderByExternalCode(ctx context.Context, code string) (*Order, error)
	// UpdateOrder stores o if the stored order still has o.Version (compare-and-set) and
	// increments o.Version; otherwise it returns ErrConflict and stores nothing. A status change
	// must be allowed by CanTransition (else ErrInvalidTransition). History entries beyond the
	// stored ones are appended; attempts are updated by ID and new ones inserted. Lines, amount,
	// customer and address of a placed order never change and are not written. The outbox
	// messages out are written in the same transaction, so they are stored exactly when the
	// update is (see OutboxMessage); their ids are unique.
	UpdateOrder(ctx context.Context, o *Order, out ...OutboxMessage) error
	// Orders lists orders matching f, newest first.
	Orders(ctx context.Context, f OrderFilter) ([]*Order, error)
	// OrderSummaries lists the orders matching f as a list shows them (no lines, history or
	// attempts), newest first, paged by f.Limit and f.Page (or f.Offset), with the number of
	// every match up to MaxCounted+1 (more is "more than MaxCounted"): two statements sent
	// together, whatever the page's size or depth.
	OrderSummaries(ctx context.Context, f OrderFilter) ([]OrderSummary, int, error)
	// OrderTotal counts the orders matching f (its page aside) and sums their amounts, both
	// over at most MaxCounted+1 of them, as OrderSummaries counts: past MaxCounted the count is
	// "more than" and the sum is of those read only.
	OrderTotal(ctx context.Context, f OrderFilter) (int, Cents, error)
	// OrderStats sums the orders for the merchant's overview (see StatsQuery).
	OrderStats(ctx context.Context, q StatsQuery) (*OrderStats, error)

	// MarkWebhook records a webhook id; first is false when it was already recorded (by any
	// process), which makes the delivery a duplicate.
	MarkWebhook(ctx context.Context, id string, at time.Time) (first bool, err error)
	// ForgetWebhook removes a recorded webhook id, so that a redelivery is processed again after
	// a failure.
	ForgetWebhook(ctx context.Context, id string) error

	// PruneCarts deletes, oldest first, at most limit carts not changed since olderThan, with
	// their lines, and returns how many it deleted (orders keep their own copy of the lines).
	// One call is one short batch that never waits for a cart in use; limit must be positive.
	PruneCarts(ctx context.Context, olderThan time.Time, limit int) (int, error)
	// PruneWebhooks deletes, oldest first, at most limit webhook ids recorded before olderThan,
	// and returns how many it deleted; a redelivery of a deleted id is processed again. One
	// call is one short batch; limit must be positive.
	PruneWebhooks(ctx context.Context, olderThan time.Time, limit int) (int, error)

	// Ping checks that the database answers.
	Ping(ctx context.Context) error
}

// OrderFilter selects orders for listing and reconciliation. Zero fields do not filter.
type OrderFilter struct {
	Statuses     []OrderStatus // any of these states
	UpdatedSince time.Time     // updated at or after
	// ExpiresBefore: the current attempt is active and its QR expires at or before this time.
	ExpiresBefore time.Time
	// PendingAttempt: the current attempt is pending (the gateway never answered).
	PendingAttempt bool
	// SessionID: placed from this checkout session.
	SessionID string
	// LinkID: placed through this payment link.
	LinkID string
	// ChargeID: placed for this charge.
	ChargeID string
	// Channels: started through any of these channels (none: any).
	Channels []Channel
	// TerminalID and CashierID: a sale of the point of sale at this terminal, by this cashier.
	TerminalID, CashierID string
	// MerchantReference: with this merchant reference (a checkout session's externalCode).
	MerchantReference string
	// CreatedFrom, CreatedBefore: created at or after, and before.
	CreatedFrom, CreatedBefore time.Time
	// MinAmount, MaxAmount: an amount of at least, and at most (0: no bound).
	MinAmount, MaxAmount gatewayclient.Cents
	// Search: the order number, externalCode, merchant reference, customer e-mail or name holds
	// it, case aside, or the customer document holds its digits (and letters: CNPJs may have
	// some).
	Search string
	// Fulfilment: in this fulfilment state (FulfilmentAwaitingShipment, …; "" any).
	Fulfilment string
	// RefundDue: with a refund due.
	RefundDue bool
	// Money, when set, keeps the orders behind one of the overview's figures whose date is
	// in [MoneyFrom, MoneyBefore) (either bound may be zero): MoneyReceived (paid then),
	// MoneyFees and MoneyFeeUnknown (paid then, the gateway's fee said or not), MoneyRefunded
	// (refund begun then), MoneyHeld (under review since then).
	Money                  MoneyKind
	MoneyFrom, MoneyBefore time.Time
	Limit                  int // at most this many (0: no limit)
	Offset                 int
	// Page, when its key is set, pages by key (see Cursor): the orders after the key, or before
	// it when Backward, still listed in Sort's order. Its key is read in Sort's terms.
	Page Cursor
	// Sort is the list's order (empty: newest first).
	Sort OrderSort
}
