// Package settings holds the merchant's settings: where notifications go and their signing
// secret, the origins allowed to frame the checkout, shipping, and which e-mails shoppers get.
// The SQL stores implement SettingsStore.
//
// Settings are stored in the database so that the dashboard can change them; the
// configuration (CHECKOUT_MERCHANT_WEBHOOK_URL and _SECRET) wins over what is stored, and says
// so (Effective.URLFromConfig). A URL typed by a merchant must be https on a public host name,
// and every delivery to it goes through the SSRF guard of package webhook (it may never reach
// this machine or its networks); the URL of the configuration is the operator's and is
// trusted like the sandbox's forwarding URL: https anywhere, or plain http on loopback. The
// settings' frame origins join CHECKOUT_FRAME_ANCESTORS in the shopper pages' CSP
// (FrameOrigins, read at most every few seconds).
package settings
