// Package views renders the shopper pages: catalogue, cart, customer form, PIX payment page and
// the paid, expired, failed, not-found and error pages.
//
// Components are templ templates and pure functions of their view models (CatalogueView,
// CartView, CustomerView, PixView...): they do no I/O and know nothing of HTTP handlers or the
// store. Handlers fill a Page per request (language, merchant, current path, asset resolver) and
// the page's own fields, URLs included, so routes are the handlers' business.
//
// Text comes from a catalogue in Brazilian Portuguese (the default) and English: T returns a
// message and FieldMessage the wording of a failed validation rule (a gatewayclient Code*) for a
// form field (the handlers map the domain's field errors onto the form). Money is
// shown with FormatMoney (integer arithmetic only), dates and times with FormatDateTime and
// FormatClock in America/Sao_Paulo (Brasília time, said on the page).
//
// The merchant dashboard's pages (Dash*, OrderPage, DepositPage…) follow the same rules, and show
// no value as the gateway or the store spells it: a code (a state, an account type, the kind of
// a PIX key, a language, why an order's state changed: ReasonText) has its words in the
// catalogue, looked up under a prefix (a code it does not know yet is shown as it comes), and
// CPF, CNPJ, CEP, phones and PIX keys are written by gatewayclient/brdoc.
//
// Pages carry stable data-testid hooks for tests and merchants: product-card, add-to-cart,
// cart-line, cart-total, checkout-form, field-error, place-order, pix-qr, pix-code, copy-code,
// countdown, order-status, sandbox-pay, new-qr, paid, expired.
//
// The PIX page depends on the order's state alone, never on the moment it is drawn. It is
// enhanced by static/files/pix.js, which reads data-* attributes of the page (expires-at,
// events-url, status-url, paid-url). Its live status endpoints answer JSON
//
//	{"status": "<Status>", "now": "<the server's time>", "expiresAt": "<the QR code's expiry, optional>",
//	 "redirect": "<same-origin URL, optional>", "text": "<label, optional>"}
//
// (times in UTC with milliseconds) as Server-Sent Events messages (unnamed or named "status") or
// as the body of the polled status URL. The script ticks the countdown on the shopper's clock
// corrected by the server's "now", and gives it its urgent look in the last UrgentSeconds; on
// "paid" the page goes to redirect, else to the paid URL; on "expired", or when the countdown
// ends, it hides the QR code and shows new-qr; any other status with a redirect goes there.
// Without JavaScript, the page shows until when the QR code is valid and reloads itself every
// NoScriptRefreshSeconds while it waits for a payment.
package views
