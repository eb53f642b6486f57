// Package outbox is the project's one transactional webhook outbox and its delivery worker,
// used by the sandbox gateway for its webhooks and by the checkout for the merchant's
// notifications, on SQLite and on PostgreSQL.
//
// # Storing
//
// A message is stored in the same SQL transaction as the change it announces, so it exists
// if and only if the change was committed: the sandbox calls Enqueue with its *sql.Tx; the
// checkout's store, which writes an order and its messages together on its own driver, runs
// the statement Insert returns. One delivery row is kept per destination: the message's URL
// and, for local development, a forwarding URL (ForwardTo). A message stored without a URL
// goes wherever Options.Route says at the moment it is due (the checkout's notifications
// follow the merchant's settings, a new URL or secret applying to pending retries too); when
// Route gives no URL or secret, it is skipped, with an attempt in the log saying why.
//
// # Delivering
//
// Run (or DeliverDue, one pass at a time) claims due deliveries with a lease on the wall
// clock, so that several workers and processes on one database never send one delivery at
// once (on PostgreSQL a row another worker is claiming is skipped: FOR UPDATE SKIP LOCKED).
// It POSTs each, signed with package webhook (Standard Webhooks: webhook-id, the same on every
// attempt, webhook-timestamp on real time, webhook-signature), until a 2xx answer; every other
// outcome — a 3xx (redirects are never followed), a 4xx, a 5xx, no answer within
// DefaultTimeout — is a failed attempt, retried after the Schedule's next wait with jitter
// (exponential by default, full jitter), until the schedule is spent, when the delivery is
// dead. Every attempt is recorded and logged, never with a secret nor a URL's query string;
// its record keeps the start of the answer's body (Attempt.Excerpt). A message its caller sent
// itself, waiting for the answer (a dashboard's test notification), joins the log with
// RecordSent: delivered or dead with that one attempt, never retried.
// With InOrder, a delivery waits for the earlier ones of its record to the same URL (the
// checkout's notifications of one order arrive in order).
//
// First attempts and retries are claimed apart, each lane with its own workers: a receiver
// that hangs until the timeout on a backlog of retries never delays the first attempt of a
// new message. Wake starts a pass at once (after the transaction holding new messages
// commits, or after a simulated clock moves).
//
// Deliveries to untrusted URLs (a record's webhookUrl, a URL a merchant typed) go through the
// SSRF-guarded dialer of package webhook; ForwardTo and a trusted Route target are the
// operator's own and are dialled without it.
//
// # Tables
//
// webhook_deliveries and webhook_attempts, made by the migrations Plan returns (component
// "outbox", applied with gatewayclient/sqlmigrate), with partial indexes for each lane's due
// deliveries and for the finished ones that Run's retention sweep deletes. Times are Unix
// milliseconds of the injected Clock, so that a simulated clock drives the schedule; leases
// are on the wall clock. Deliveries, Attempts and Redeliver serve delivery logs and consoles.
package outbox
