// Package apikeys holds the keys of the merchant API: their making, listing, revocation and
// scopes, and the authentication of a request's key. The SQL stores implement Store.
//
// A key is "pxk_" followed by 256 random bits. It is shown once, when it is made; only its
// SHA-256 is stored, with a hint (its first and last characters) to recognise it in a list.
// A key of that entropy needs no slow hash: nobody can guess it, and a stolen database gives
// nothing that opens the API. Authentication looks the key up by its hash and compares the
// hashes in constant time; the key of CHECKOUT_MERCHANT_API_KEY is accepted besides the stored
// ones, and so are internal keys the program makes for itself (the sandbox's demo merchant
// page). Revoked keys stay listed, with the time of their revocation.
//
// API keys have a Scope: ScopeRead may only read (GET), ScopeWrite everything. A key never holds
// more than its maker: it carries the personal-data right (documents and phones in full, the
// data subjects' requests) only when its maker has PermPersonalData; keys made on the shell,
// CHECKOUT_MERCHANT_API_KEY and keys from before roles (no maker) carry it. Keys follow their
// maker: a role change gives or takes the right (Keys.FollowRole), a removal revokes them
// (Keys.RevokeMadeBy).
package apikeys
