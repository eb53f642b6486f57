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
// shown with FormatMoney (integer arithmetic only), dates with FormatDateTime in
// America/Sao_Paulo, and the time left on a QR code with FormatCountdown.
//
// Pages carry stable data-testid hooks for tests and merchants: product-card, add-to-cart,
// cart-line, cart-total, checkout-form, field-error, place-order, pix-qr, pix-code, copy-code,
// countdown, order-status, sandbox-pay, new-qr, paid, expired.
//
// The PIX page is enhanced by static/files/pix.js, which reads data-* attributes of the page
// (expires-at, now, events-url, status-url, paid-url). Its live status endpoints answer JSON
//
//	{"status": "<Status>", "redirect": "<same-origin URL, optional>", "text": "<label, optional>"}
//
// as Server-Sent Events messages (unnamed or named "status") or as the body of the polled status
// URL. On "paid" the page goes to redirect, else to the paid URL; on "expired" it hides the QR
// code and shows new-qr; any other status with a redirect goes there. Without JavaScript, the
// page reloads itself every NoScriptRefreshSeconds while it waits for a payment.
package views
