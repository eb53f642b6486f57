package gatewayclient

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"

	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// CreateTransaction creates a PIX transaction (POST /transaction) and returns it with its QR
// code. The request is validated first: an invalid one is refused with a *ValidationError
// listing every violation, without any request. IdempotencyKey is required: it is what makes
// resending safe, so failed attempts are retried with the same key (see RetryPolicy). The
// spec's defaults (item quantity 1, pix.expirationSeconds 1800) are sent explicitly.
func (c *Client) CreateTransaction(ctx context.Context, req CreateTransactionRequest) (*Transaction, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.IdempotencyKey) == "" {
		return nil, &ValidationError{Kind: KindValidation, Violations: []Violation{{
			Field: "idempotencyKey", Code: CodeRequired, Message: "is required"}}}
	}
	body, err := json.Marshal(req.WithDefaults())
	if err != nil {
		return nil, fmt.Errorf("gatewayclient: POST /transaction: encoding the body: %w", err)
	}
	var out Transaction
	err = c.send(ctx, &request{method: http.MethodPost, path: "/transaction", body: body, out: &out,
		retry: retryIdempotent})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// GetDeposit fetches one deposit (GET /deposit/{id}). An id that is not a UUID is refused
// with a *ValidationError, without any request; an unknown one gives an error matching
// ErrNotFound.
func (c *Client) GetDeposit(ctx context.Context, id string) (*Deposit, error) {
	if !brdoc.ValidUUID(id) {
		code, msg := CodeUUID, "must be a UUID"
		if id == "" {
			code, msg = CodeRequired, "is required"
		}
		return nil, &ValidationError{Kind: KindValidation, Violations: []Violation{{Field: "id", Code: code, Message: msg}}}
	}
	var out Deposit
	err := c.send(ctx, &request{method: http.MethodGet, path: "/deposit/" + url.PathEscape(id), out: &out,
		retry: retrySafe})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ListDeposits fetches one page of deposits (GET /deposit) matching f. The filter is
// validated first (a *ValidationError, without any request). Statuses and origins are sent
// by repeating their parameter; f.Page and f.PerPage go in the pagination parameters (see
// WithPaginationParams).
func (c *Client) ListDeposits(ctx context.Context, f DepositFilter) (*Page[Deposit], error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	var out Page[Deposit]
	err := c.send(ctx, &request{method: http.MethodGet, path: "/deposit",
		query: f.Query(c.pageParam, c.perPageParam), out: &out, retry: retrySafe})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ListWithdrawals fetches one page of withdrawals (GET /withdrawal) matching f, as
// ListDeposits does for deposits.
func (c *Client) ListWithdrawals(ctx context.Context, f WithdrawalFilter) (*Page[Withdrawal], error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	var out Page[Withdrawal]
	err := c.send(ctx, &request{method: http.MethodGet, path: "/withdrawal",
		query: f.Query(c.pageParam, c.perPageParam), out: &out, retry: retrySafe})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// AllDeposits walks every deposit matching f, page after page from f.Page (or the first),
// fetching each page when the previous one is used up:
//
//	for d, err := range client.AllDeposits(ctx, f) {
//		if err != nil {
//			return err
//		}
//		...
//	}
//
// On a failure, or when ctx is done, it yields the error once (with a zero Deposit) and
// stops. Breaking out of the loop stops it too, without further requests.
func (c *Client) AllDeposits(ctx context.Context, f DepositFilter) iter.Seq2[Deposit, error] {
	return allPages(ctx, f.Page, func(ctx context.Context, page int) (*Page[Deposit], error) {
		f.Page = page
		return c.ListDeposits(ctx, f)
	})
}

// AllWithdrawals walks every withdrawal matching f, as AllDeposits does for deposits.
func (c *Client) AllWithdrawals(ctx context.Context, f WithdrawalFilter) iter.Seq2[Withdrawal, error] {
	return allPages(ctx, f.Page, func(ctx context.Context, page int) (*Page[Withdrawal], error) {
		f.Page = page
		return c.ListWithdrawals(ctx, f)
	})
}

// allPages yields the items of page after page from first (or 1), until a page is empty or
// the last one (by its totalPages) is done.
func allPages[T any](ctx context.Context, first int, fetch func(context.Context, int) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		for page := max(first, 1); ; page++ {
			if err := ctx.Err(); err != nil {
				yield(zero, fmt.Errorf("gatewayclient: listing page %d: %w", page, err))
				return
			}
			p, err := fetch(ctx, page)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, item := range p.Data {
				if err := ctx.Err(); err != nil { // stop at once, not at the end of the page
					yield(zero, fmt.Errorf("gatewayclient: listing page %d: %w", page, err))
					return
				}
				if !yield(item, nil) {
					return
				}
			}
			if len(p.Data) == 0 || page >= p.TotalPages {
				return
			}
		}
	}
}
