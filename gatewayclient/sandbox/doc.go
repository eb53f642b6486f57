// Package sandbox is a stateful local PIX gateway: the HTTP API of the gateway spec at its
// root, simulation controls under /sandbox/, a console page, and signed webhooks. It keeps
// its state in SQLite in a data directory, so deposits, withdrawals, the token signing key,
// webhook secrets, idempotency keys, webhook deliveries and the simulated clock survive a
// restart.
//
// Mount it at any prefix with http.StripPrefix:
//
//	sb, err := sandbox.New(ctx, sandbox.Options{DataDir: dir, Clients: []sandbox.ClientConfig{{ID: id, Secret: secret}}})
//	mux.Handle("/sandbox/gateway/", http.StripPrefix("/sandbox/gateway", sb))
//	go sb.Run(ctx) // webhook delivery and the expiry sweep
//
// # The API
//
// POST /auth/token, POST /transaction, GET /deposit, GET /deposit/{id} and GET /withdrawal
// behave as the spec says. Where the spec is explicit the sandbox follows it; validation is
// the gateway client's own (its Validate methods, read through gatewayclient/decode), so the
// client and the sandbox cannot disagree.
//
// # Choices on what the spec leaves open ("not shown")
//
//   - Success status codes: 201 for POST /transaction (NestJS's default for POST), 200 for
//     the token endpoint and every GET. Controls answer 200, or 201 when they create
//     something (POST sandbox/withdrawals, sandbox/seed, sandbox/faults).
//   - Error bodies: {"statusCode":N,"error":"<kind or HTTP status text>","message":...}.
//     message is a list of "field: message" strings for 422 and a string otherwise. A 500
//     says only "internal error"; the cause is logged.
//   - The two kinds of 422: "Invalid or missing data" when the data cannot be read as the
//     API's types (malformed JSON, wrong JSON type, decimal amount, missing required field,
//     unknown enum value, unreadable query value) and "Validations" when it was read but a
//     rule failed (ranges, lengths, formats, duplicates, idempotency key reuse). Every
//     violation is listed at once. A body over 1 MiB is a 422 of the first kind, and so are a
//     key given twice in one object and arrays and objects nested deeper than 64 levels
//     (gatewayclient/strictjson). POST /transaction with a Content-Type other than
//     application/json (in UTF-8) is a 415.
//   - Idempotency: per client and idempotencyKey, the first answer (status and body) is
//     stored with a SHA-256 of the request as decoded (defaults applied). The same request
//     again gets that answer and creates nothing; the same key with another request is a 422
//     "idempotencyKey: already used with a different request body". Concurrent twins are
//     serialised: exactly one deposit is made.
//   - A transaction creates a deposit with the same id (DESIGN.md).
//   - The BR Code: a PIX code with point of initiation 12 (single use), the merchant's
//     random PIX key (EVP, made once per data dir), the exact amount, the merchant name and
//     city of Options, and a txid made of the first 25 hexadecimal digits of the deposit id.
//     qrCodeBase64 is a PNG (gatewayclient/qr, error correction Medium, 4 pixels per module) of
//     exactly that text; scale it up with CSS image-rendering: pixelated.
//   - Rate limit: a token bucket per client on POST /transaction, 50 requests per second
//     with bursts of 100 by default (Options.RateLimit); over it, 429 with Retry-After in
//     whole seconds.
//   - Pagination: page (from 1, default 1) and perPage (default 10, at most 100; a larger
//     value is lowered to 100 and the envelope's perPage says so); 0 means the default, a
//     negative value is a 422. Lists are newest first (createdAt, then id, descending). A
//     page past the end is empty with the right total, however large (up to
//     9223372036854775807; beyond, a 422). A query the server cannot read whole — a ";" in
//     it (status=PAID;x) or a bad %-escape — is a 422 naming the parameter, never a list
//     with that filter dropped (decode.Query). minAmount=0 or maxAmount=0 sent
//     explicitly is a 422 (the minimum is 1, 10 for withdrawals). A parameter sent empty
//     (status=, as a form sends its blank fields) counts as not sent; status and
//     depositOrigin may be repeated or comma-separated, and a duplicate is a 422.
//   - Deposits and withdrawals belong to the client that made them; other clients never
//     see them (an id of another client is a 404).
//   - Scopes: transactions:write (POST /transaction), deposits:read (GET /deposit…),
//     withdrawals:read (GET /withdrawal), sandbox:control (everything under /sandbox/). The
//     token carries them in scope (comma-separated) and scopes (a list). A client gets all
//     four unless configured otherwise; a token request may ask for fewer with the form
//     field scope. A missing scope is a 403.
//   - Tokens: HS256 JWTs (golang-jwt) with iss, sub (client id), scope, scopes, iat, nbf, exp
//     and jti, signed with a key made once in the data dir (jwt-hs256.key, mode 0600). They
//     live one hour by default (Options.TokenTTL), judged on the sandbox clock, so advancing
//     the clock expires them. expires_in is the Unix time of expiry (the spec),
//     expires_in_sec the lifetime, refresh_expires_in and not-before-policy are 0 (there are
//     no refresh tokens). Token errors: 400 for a body that is not form-encoded, a missing
//     field, a grant_type other than client_credentials or a scope the client does not hold;
//     401 for wrong credentials; 429 with Retry-After once failed attempts pass the limit of
//     the console's sign-in (Options.LoginRateLimit, per remote address and per client, in the
//     same buckets as the console); 502 only by injected fault.
//   - Amount units: feeAmount, amountWithdrawn, refundAmount and amountPaid are integer
//     cents. The fee is 0.99% of the amount paid (or withdrawn), rounded half up.
//   - bankAccount.type takes the values CHECKING, SAVINGS and PAYMENT.
//   - customer, seller, address, items and metadata are validated and count for idempotency,
//     but are not kept: the deposit record of the spec has no fields for them.
//   - Masking: documents of payer and receiver (and document-type PIX keys) are masked with
//     brdoc.MaskDocument in every answer and webhook ("***.456.789-**"); stored unmasked.
//   - End-to-end ids follow the BCB format: "E" (payment) or "D" (refund/return), the
//     8-digit ISPB of the institution that started it, yyyyMMddHHmm in UTC and 11 letters
//     or digits. The sandbox's own ISPB is 99999999 (no real institution); payers get the
//     ISPBs of real large banks. Receipts point at https://receipts.sandbox.invalid/… (a
//     reserved name: the sandbox makes no receipt documents) and expire after 30 days.
//   - statusHistory: one entry per state, dated when the record entered it;
//     durationInMilliseconds is the time until the next entry, or until now for the current
//     state (so it grows between two reads).
//
// # Lifecycle
//
// Deposits made by POST /transaction start in PIX_QRCODE_GENERATED with origin QRCODE.
// The spec has no EXPIRED state: when expirationDate passes (checked on every read and by
// Run every second, on the sandbox clock) the deposit moves to FAILED with errorMessage
// "QR code expired", the history entry dated at the expiration. A payment after expiry is
// still accepted (FAILED → PAID, for expired deposits only) and recorded: errorMessage is
// kept and paymentDate is after expirationDate. The whole table is depositTransitions:
//
//	PENDING                → PAID, FAILED, PENDING_COMPLIANCE
//	PIX_QRCODE_GENERATED   → PAID, FAILED, PENDING_COMPLIANCE
//	DEPOSIT_PIXKEY_GENERATED → PAID, FAILED, PENDING_COMPLIANCE
//	PAID                   → PROCESSING_REFUND, BLOCKED, PENDING_COMPLIANCE
//	PROCESSING_REFUND      → REFUNDED
//	BLOCKED                → PROCESSING_INFRACTION, PAID (MED rejected)
//	PROCESSING_INFRACTION  → INFRACTION, PAID (MED rejected)
//	PENDING_COMPLIANCE     → the state before review (approve), FAILED (reject)
//	FAILED                 → PAID (expired QR code only)
//	REFUNDED, INFRACTION   → (final)
//
// Withdrawals (withdrawalTransitions): PENDING → PROCESSING, CANCELED, REJECTED, FAILED,
// PENDING_COMPLIANCE; PENDING_COMPLIANCE → PENDING, REJECTED; PROCESSING → PROCESSED,
// FAILED; PROCESSED → REFUNDED; the rest are final. An impossible transition is a 409 whose
// message reads "cannot move deposit from X to Y" (409 is the sandbox's choice: the request
// is well formed but does not fit the record's state).
//
// # Simulation controls (bearer token with sandbox:control)
//
// Each deposit control makes only the moves listed here (all of them moves of the table
// above); from any other state it answers 409 "cannot move deposit from X to Y: <control>
// applies to deposits in … only" and changes nothing. The console offers a button only for
// the controls allowed now (depositControls in controls.go is the one list).
//
//	POST sandbox/deposits/{id}/pay         PENDING, PIX_QRCODE_GENERATED, DEPOSIT_PIXKEY_GENERATED
//	                                       or FAILED with an expired QR code → PAID.
//	                                       {"amountPaid"?, "payer"?}: amountPaid (default the
//	                                       amount), paymentDate, endToEnd, payer (generated
//	                                       unless given: name and CPF/CNPJ required,
//	                                       bankAccount.ispb 8 digits, pix.key a valid key whose
//	                                       kind sets pix.type), feeAmount, paymentReceipt
//	POST sandbox/deposits/{id}/fail        PENDING, PIX_QRCODE_GENERATED, DEPOSIT_PIXKEY_GENERATED
//	                                       → FAILED {"errorMessage"?}
//	POST sandbox/deposits/{id}/expire      PIX_QRCODE_GENERATED → FAILED "QR code expired" now
//	POST sandbox/deposits/{id}/refund      PAID → PROCESSING_REFUND {"refundAmount"?}, then
//	                                       PROCESSING_REFUND → REFUNDED (refundDate,
//	                                       endToEndRefund, refundReceipt)
//	POST sandbox/deposits/{id}/infraction  PAID → BLOCKED → PROCESSING_INFRACTION → INFRACTION,
//	                                       one step per call (at INFRACTION the money goes back:
//	                                       refund fields); {"outcome":"reject"} ends the MED:
//	                                       BLOCKED or PROCESSING_INFRACTION → PAID
//	POST sandbox/deposits/{id}/compliance  PENDING, PIX_QRCODE_GENERATED, DEPOSIT_PIXKEY_GENERATED
//	                                       or PAID → PENDING_COMPLIANCE; {"outcome":"approve"}:
//	                                       PENDING_COMPLIANCE → the state before the review;
//	                                       {"outcome":"reject"}: PENDING_COMPLIANCE → FAILED
//	GET  sandbox/deposits/{id}/deliveries  the webhook deliveries of a deposit with attempts
//	POST sandbox/withdrawals               {"amount", "pixKey"?, "externalCode"?, "webhookUrl"?}
//	POST sandbox/withdrawals/{id}/{status} move a withdrawal to status, a move of its table
//	                                       ({"errorMessage"?} for FAILED and REJECTED)
//	GET  sandbox/withdrawals/{id}/deliveries
//	POST sandbox/seed                      {"deposits":N,"withdrawals":M,"seed":S}
//	GET  sandbox/clock, POST sandbox/clock/advance {"seconds":N}
//	POST sandbox/faults                    {"kind","count","path"?,"latencyMs"?}; GET lists,
//	                                       DELETE clears
//
// The clock: Options.Clock (default the system clock) plus an offset that clock/advance
// moves forward and that is persisted, so simulated time survives a restart. Advancing it
// expires QR codes and tokens and makes webhook retries due.
//
// Faults apply to the next count API requests whose path (below the prefix) equals path, or
// to any API request when path is empty; never to /sandbox/ itself. latency delays the
// request; error500_after_commit does the work and commits it, then answers 500 (a retry
// with the same idempotency key gets the original answer); rate_limit answers 429;
// drop_connection closes the connection without an answer (HTTP/1.x through
// http.Hijacker; under HTTP/2 the stream is reset instead); token_502 makes POST
// /auth/token answer 502; unavailable answers 503 to any request, the token endpoint
// included (with a large count, an outage until DELETE sandbox/faults). Faults live in
// memory: a restart clears them.
//
// # Seed
//
// POST sandbox/seed adds deterministic records: record i of a run draws from a PCG generator
// seeded with (seed, kind, i), dated over the 90 days before the sandbox clock's time, so
// the same seed at the same sandbox time gives the same records, and seeding it twice adds
// nothing. Amounts are mostly small sales with a tail of large ones; payers are people (CPF)
// and companies (CNPJ, some alphanumeric) from the brdoc generators; every state and both
// origins occur, with histories that follow the tables above (a deposit still awaiting
// payment only if its QR code has not expired yet). Seeded records store no QR image: GET
// /deposit/{id} and the webhook of a control make it (about 2 ms), and so do list pages for
// the records still awaiting payment (a few per million: those of the last half hour); they
// leave it empty for the others — making a PNG for each record of every page would cost
// about 2 ms per record, ten times the rest of a page. All rows go in one transaction with
// INSERTs of 256 rows; other writes wait for it. Seeding sends no webhooks, and ends with
// ANALYZE so that the planner knows the data.
//
// # Storage
//
// SQLite (modernc.org/sqlite, through plain database/sql) in DataDir/sandbox.db, WAL,
// foreign keys. The schema is a set of numbered migrations (migrations/NNNN_name.sql,
// embedded; the outbox's tables have theirs), each applied once in a transaction and recorded
// in schema_migrations by gatewayclient/sqlmigrate. Every write goes through one
// writer connection whose transactions take the lock at BEGIN, so writers queue in the
// process, never on SQLite's busy handler, and transactions stay short (QR codes are made
// before them); reads use a pool of query-only connections, which WAL never blocks.
//
// Records keep their filter columns (client, status, amount, origin, creation time in Unix
// ms, external code, end-to-end ids, PIX key) beside the whole record as JSON. Covering
// indexes serve newest-first pages: by date (client, created_at, id, status, origin,
// amount), by status (client, status, created_at, …) and by amount (client, amount,
// created_at, …), chosen by SQLite's planner with the statistics ANALYZE leaves after a
// seed; a page's ids come from the index and only its rows are read in full. A list's total
// is a COUNT(*) of the same filter over one of these indexes (each holds every filter
// column; the date index is named when the filter has no date, status or amount, where the
// planner would read the table): exact, as the spec's total is. It reads every matching
// index entry, so a page costs some tens of milliseconds per hundred thousand matches
// (BenchmarkListDeposits; figures in README.md).
//
// # Webhooks
//
// Every state change (creation included) writes a webhook to the persisted outbox
// (gatewayclient/outbox, which the checkout's notifications use too) in the same transaction:
// type "deposit.<status>" or "withdrawal.<status>" in lower case, body
// {"type","timestamp","data": the record as GET shows it}, signed Standard Webhooks style with
// the client's whsec_ secret (generated at first start and kept, or
// ClientConfig.WebhookSecret). The body's timestamp is the simulated time of the change, like
// the record's dates; webhook-timestamp (which is signed) is the real time of each attempt,
// since receivers check it against their own clocks: advancing the sandbox clock never makes
// its webhooks look replayed. (The schedule of retries follows the simulated clock, so
// advancing it makes retries due.) Deliveries go to the record's webhookUrl through a dialer
// that refuses loopback, private and link-local addresses, and to Options.WebhookForwardTo when
// set; retries back off exponentially with full jitter (Options.WebhookBaseDelay 5 s doubling
// up to WebhookMaxDelay 1 h) until a 2xx; any other answer, a 3xx included (redirects are never
// followed), or no answer is a failed attempt. After 12 failed attempts (at most about 2.5
// hours of waits with the defaults) a delivery is marked dead, as real gateways give up too.
// Every attempt is logged, and the console and GET sandbox/…/deliveries show each one.
//
// # Console
//
// GET {base}/sandbox/ lists the 20 newest deposits and withdrawals of the signed-in client
// with their webhook deliveries and buttons for the controls the state machine allows now,
// a clock advance and a withdrawal form. A browser cannot send a bearer header, so the
// console has a sign-in form taking the client id and secret (failed sign-ins are limited
// per remote address and per client, Options.LoginRateLimit: past ten in a row, one more
// every 12 seconds, and a 429 with Retry-After meanwhile); it then keeps an access token
// in a cookie (HttpOnly, SameSite=Strict, Secure over TLS, no Path attribute so the browser
// scopes it to the console's directory wherever the sandbox is mounted). The console's
// forms POST to console endpoints behind http.CrossOriginProtection and call the same
// functions as the control API. Pages are rendered by templ (escaped), carry a strict
// Content-Security-Policy, refuse framing and use no JavaScript. A bearer header with
// sandbox:control opens the console too. Loopback addresses get no special trust, because
// behind a reverse proxy every request would come from loopback.
//
// The console speaks Brazilian Portuguese by default and English on request: ?lang=pt-BR or
// ?lang=en, else Accept-Language. A chosen language travels in each form's lang field and
// comes back in the redirect; a Português/English switch heads every page. Its words are a
// small catalogue of its own (consolelang.go): the sandbox knows nothing of the checkout's
// views. Status values, control names in URLs and API error messages stay the gateway's.
package sandbox
