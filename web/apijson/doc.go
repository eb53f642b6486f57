// Package apijson is the JSON of the merchant API: the representation of an order, a checkout
// session, a payment link, a notification of the delivery log and a data subject's report, and
// the conversions from the domain's types (OrderOf, SessionOf, PaymentLinkOf, …). The merchant
// API (package web), the dashboard and the commands answer with it, and the notifications
// carry an order in the same shape (OrderEvent, the notify.Announcer's Order), so the domain
// owns no API type.
package apijson
