// Package mail makes, keeps and sends the checkout's e-mails through the project's one outbox
// (gatewayclient/outbox, channel smtp): Composer turns a Draft (a templ component of
// views/email and its plain text) into a checkout.OutboxMessage, stored in the transaction of
// the change that causes it; Sender sends it over SMTP (wneessen/go-mail), reusing its
// connections, retrying connection failures and 4xx answers, failing 5xx ones and suppressing
// hard-bounced addresses; Log is the dashboard's e-mail log. See README.md: delivery is at least
// once, every copy with the same Message-ID.
package mail
