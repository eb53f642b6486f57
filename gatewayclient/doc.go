// Package gatewayclient is a Go client of the PIX payment gateway's HTTP API: client-credentials
// tokens, transactions, deposits and withdrawals, with request validation, typed errors and
// retries. It depends on the standard library and golang-jwt only, and is usable on its own.
//
// # Getting started
//
// Make one Client with New and share it; it is safe for concurrent use:
//
//	client, err := gatewayclient.New("https://api.example.com/v1", clientID, clientSecret,
//		gatewayclient.WithLogger(logger))
//
// The base URL includes the gateway's path prefix: every path of the API (/auth/token,
// /transaction, /deposit, ...) is appended to it as is. New makes no request.
//
// # Operations
//
// Each operation takes a context and returns its result or an error:
//
//   - [Client.CreateTransaction]: POST /transaction. Creates a PIX charge and returns its QR
//     code ([PixResponse]: copy-and-paste text, image, expiration date).
//   - [Client.GetDeposit]: GET /deposit/{id}. One deposit; the id must be a UUID.
//   - [Client.ListDeposits]: GET /deposit with a [DepositFilter]; one [Page].
//   - [Client.ListWithdrawals]: GET /withdrawal with a [WithdrawalFilter]; one [Page].
//   - [Client.AllDeposits] and [Client.AllWithdrawals]: range-over-func iterators
//     (iter.Seq2) over every page; they stop on the first error, which they yield once, on a
//     done context, and when the loop breaks.
//   - [Client.Do] and [Client.DoIdempotent]: any other authenticated JSON request below the
//     base URL (for instance the controls of a sandbox), with the same token, retry and
//     error handling.
//   - [Client.Token]: the current bearer token, for requests made outside the client.
//
// # Money, times and optional fields
//
// Money is [Cents], an integer number of cents: R$ 100,50 is Cents(10050). No float is ever
// involved, and a decimal amount in an answer is an error rather than a rounded value.
// Times are time.Time and travel as UTC with millisecond precision and a trailing Z
// ([FormatTime], [TimeLayout]); customer.birthdate is a [Date] without time. Optional
// request fields are omitted when unset; fields whose zero value would mean something
// (Item.Quantity, PixRequest.ExpirationSeconds, CreateTransactionRequest.IsInfoProduct) are
// pointers, set with [Ptr]. Answers decode leniently: unknown fields are ignored and
// nullable fields decode from null as their zero value or a nil pointer.
//
// # Validation before sending
//
// CreateTransaction, GetDeposit, ListDeposits and ListWithdrawals validate their input
// against every rule of the spec first ([CreateTransactionRequest.Validate],
// [DepositFilter.Validate], [WithdrawalFilter.Validate]) and send nothing when it is invalid:
// they return a *[ValidationError] listing every violation at once, each with the field's
// path (customer.document, items[2].unitPrice) and a machine-readable code (CodeRequired,
// CodeMin, CodeDocument, ...), so that a form can show each message beside its field
// ([ValidationError.For]). CreateTransaction refuses a request without an IdempotencyKey and
// sends the spec's defaults explicitly ([CreateTransactionRequest.WithDefaults]: item quantity
// 1, pix.expirationSeconds 1800), leaving the caller's request unchanged.
//
// # List filters and pagination
//
// Every query parameter of both list endpoints has a field in [DepositFilter] or
// [WithdrawalFilter]; zero values are not sent. status and depositOrigin are lists, sent by
// repeating the parameter (status=PAID&status=REFUNDED). The spec names no pagination
// parameters: the client sends the page number (from 1) as "page" and the page size as
// "perPage", names that [WithPaginationParams] changes.
//
// # Tokens
//
// The client fetches its token from POST {base}/auth/token (form-encoded client_id,
// client_secret, grant_type=client_credentials) on first use, caches it and renews it
// before it expires. Concurrent callers share one token request: a hundred goroutines
// starting at once make a single request. The token request runs apart from the caller's
// cancellation, so that one caller giving up does not fail the others; [WithTimeout] bounds
// it (DefaultTimeout when WithTimeout disables the bound).
//
// The expiry is the earliest credible one of: expires_in, a Unix timestamp as the spec says
// (a value below 10^9 is taken as a lifetime in seconds, as some providers send);
// expires_in_sec, a lifetime in seconds; and the exp claim of the JWT, read without
// verifying its signature (the client has no key, and the gateway checks the token anyway).
// Credible means in the future and within a year; when there is none the token is reused
// for five minutes. Renewal starts a margin before the expiry: 60 seconds by default
// ([WithTokenRefreshMargin]), never more than a tenth of the token's lifetime.
//
// When a renewal made ahead of expiry fails, calls go on with the current token until it
// actually expires; after that the failure is theirs. When the gateway answers 401 to an API
// call, the client drops the token, fetches a new one and sends the call once more; a second
// 401 is returned.
//
// # Errors
//
// Failures are typed, and errors.Is works against sentinels:
//
//   - *[ValidationError]: the input was refused before sending. Matches [ErrValidation].
//   - *[APIError]: the gateway answered outside 2xx. It carries the status, the request's
//     method and path, the messages of the body, its "error" field, the kind of a 422
//     ([KindInvalidData]: the data could not be read; [KindValidation]: a rule failed),
//     Retry-After, and the raw body capped at 64 KiB. [APIError.Violations] reads the
//     messages as "field: message" pairs for a form. Error bodies are read leniently:
//     {"statusCode":422,"error":"Validations","message":[...]}, message as one string, OAuth's
//     error_description, missing fields, an HTML page from a proxy, an empty body. Statuses
//     match [ErrUnauthorized] (401), [ErrForbidden] (403), [ErrNotFound] (404),
//     [ErrValidation] (422), [ErrRateLimited] (429) and [ErrGatewayUnavailable] (502, 503,
//     504).
//   - *[TokenError]: the token endpoint refused. 400 matches [ErrMalformedCredentials], 401
//     [ErrInvalidCredentials] (and ErrUnauthorized), 502 [ErrAuthProviderUnavailable] (and
//     ErrGatewayUnavailable).
//   - Network failures (refused or reset connections, DNS, TLS, per-attempt timeouts) match
//     [ErrGatewayUnavailable] and wrap the underlying error.
//   - A done context: the error wraps ctx.Err(), so errors.Is(err, context.Canceled) or
//     context.DeadlineExceeded holds.
//
// # Retries
//
// Network failures, 429, 502, 503 and 504 are retried, and 500 on GET; so are failures of
// the token request (nothing was sent yet). A request is retried only when resending cannot
// duplicate an effect: GET, HEAD, OPTIONS, PUT, DELETE, POST /transaction (it carries its
// idempotencyKey, the same on every attempt) and DoIdempotent; a POST or PATCH through Do is
// sent once. Waits grow exponentially from RetryPolicy.BaseDelay up to MaxDelay with full
// jitter; a 429 or 503 with Retry-After (seconds or an HTTP date) is retried no sooner than
// it says, and returned at once when it asks for more than MaxDelay. A wait that would end
// after the context's deadline is not started: the last error is returned at once.
// [WithRetryPolicy] tunes all this; MaxAttempts 1 disables retries. Each attempt has its own
// timeout ([WithTimeout], 30 seconds by default); bound the whole call with the context.
//
// # Pacing after a 429
//
// A 429 means the client's callers, together, went over the gateway's limit. From then on
// the client paces its calls to that endpoint (method and path, such as POST /transaction):
// none is sent before Retry-After has passed, then they go one at a time, in turn, at the
// rate the gateway accepted just before the 429 — halved at each later 429, raised by about
// one call a second every second, dropped after a minute without a 429. A 429'd call waits
// in the same queue for its retry. A call never waits past its context's deadline: it fails
// at once, sending nothing, with an error matching [ErrPaced] (a [*PacedError] giving the
// wait), which a caller facing a person can turn into "please wait" while another call, with
// a longer deadline, waits its turn. [Client.PacingDelay] tells the wait before calling;
// [WithPacing](false) turns pacing off.
//
// # Secrets and logging
//
// The client secret and tokens never appear in an error or a log line: the client keeps
// them in a type that prints as [REDACTED] with every fmt verb, through slog and in JSON, a
// Client prints as its base URL and client ID only, and the bodies kept in errors have any
// echo of the secret or of the token blanked out. With [WithLogger], the client writes one
// Debug line per attempt (method, path without the query, status, duration, attempt), per
// retry wait and per token request.
//
// # Reading requests on the server side
//
// Servers that speak the API (a sandbox, a dashboard) read its requests with the subpackage
// gatewayclient/decode, so that they accept exactly what the client sends: it reads a request
// body or raw query as the gateway does, refusing what it cannot read whole (a key given
// twice, a body nested too deep, a ";" in a query), and tells the two kinds of 422 apart
// (data that cannot be read as the API's types, [KindInvalidData], against rules that fail,
// [KindValidation]).
// [DepositFilter.Query] and [WithdrawalFilter.Query] write the query the client sends.
//
// # Related packages
//
//   - gatewayclient/decode: the server's side of the API's requests (see above), read with
//     gatewayclient/strictjson, the strict JSON reader it shares with the checkout's merchant
//     API.
//   - gatewayclient/brdoc: Brazilian identifiers, validated and formatted: CPF, CNPJ
//     (numeric and alphanumeric), CEP, phones, e-mail, PIX keys, UUIDs. The validation of
//     this package uses it; checkout forms use it to give the same answers.
//   - gatewayclient/brcode: the PIX BR Code ("copy and paste" code of PixResponse.URI):
//     encode, decode, CRC16-CCITT-FALSE, and the Central Bank's field rules.
//   - gatewayclient/webhook: signing and verifying webhooks (Standard Webhooks style
//     headers), and reading the record a notification refers to. The spec leaves webhooks
//     open; receivers treat one as a hint and re-fetch the deposit with GetDeposit.
//   - gatewayclient/sandbox: a stateful local gateway speaking the same API, for
//     development and tests.
//
// # Testing code that uses the client
//
// Point New at an httptest server that speaks the API (or at the sandbox of this project).
// [WithClock] replaces the clock of token expiry and retry waits with a fake one, and
// RetryPolicy.Jitter makes the waits predictable. Context deadlines always run on the
// system clock.
package gatewayclient
