// Package merchant is the merchant's side of the checkout: the API keys of the merchant API,
// the merchant's settings (where notifications go, their signing secret, the origins allowed
// to frame the checkout) and the signed notifications of order changes. Each concern has its
// own file and its own small store interface, implemented by the SQL stores next to
// checkout.Store; the dashboard's accounts live beside them in their own files.
//
// # API keys
//
// A key is "pxk_" followed by 256 random bits. It is shown once, when it is made; only its
// SHA-256 is stored, with a hint (its first and last characters) to recognise it in a list.
// A key of that entropy needs no slow hash: nobody can guess it, and a stolen database gives
// nothing that opens the API. Authentication looks the key up by its hash and compares the
// hashes in constant time; the key of CHECKOUT_MERCHANT_API_KEY is accepted besides the stored
// ones. Revoked keys stay listed, with the time of their revocation.
//
// # Settings
//
// Settings are stored in the database so that the dashboard can change them; the
// configuration (CHECKOUT_MERCHANT_WEBHOOK_URL and _SECRET) wins over what is stored, and says
// so (Effective.URLFromConfig). A URL typed by a merchant must be https on a public host name,
// and every delivery to it goes through the SSRF guard of package webhook (it may never reach
// this machine or its networks); the URL of the configuration is the operator's and is
// trusted like the sandbox's forwarding URL: https anywhere, or plain http on loopback.
package merchant
