// Package team holds the dashboard's users and their sign-in: accounts and passwords, roles and
// permissions, invitations, password resets, two-factor sign-in, the record of signed-in
// sessions (SignIn) and the throttling of failed sign-ins. The SQL stores implement its store
// interfaces.
//
// # Accounts
//
// Accounts is the service behind the dashboard's sign-in and the `checkout user` commands.
// Passwords are hashed with argon2id at OWASP's minimum parameters (19 MiB, two passes, one
// lane), at most a few at a time (a semaphore: each hash takes 19 MiB and a core for tens of
// milliseconds, so a burst of sign-ins must queue instead of exhausting the machine). A
// sign-in with an unknown e-mail verifies the password against a dummy hash made with the same
// parameters, so that the answer takes as long as for a known e-mail with a wrong password,
// and both get the same error.
//
// A new password (a user added, a password reset, CHECKOUT_ADMIN_PASSWORD) follows NIST SP
// 800-63B section 5.1.1: 8 to 256 characters of any kind, and nothing attackers try first.
// CheckPassword refuses, saying why in words, what zxcvbn estimates below 10^8 guesses: the
// commonest passwords of breached-password lists, words and names, keyboard patterns,
// sequences, repeats, dates, the user's e-mail.
//
// Failed sign-ins are counted three ways in the database, so that a restart or another
// instance does not reset them (OWASP's Authentication and Credential Stuffing cheat sheets):
// per account and client address (the pair: the e-mail as typed, normalised, whether or not a
// user has it, and the address, an IPv6 one by its /64 prefix), per address, and per account.
// Ten failures of a pair, thirty of an address or two hundred of an account cost nothing;
// past one of them, the next attempt from that pair, that address or for that account must
// wait, one minute doubling with each further failure up to an hour. While a wait runs,
// attempts are refused without checking the password. So a stranger who guesses from one
// address stops themselves long before the owner, from an address with no failures, is
// refused: only failures spread over many addresses reach the account's much higher ceiling.
// A success forgets the failures of its pair (not the address's or the account's, which a
// stranger elsewhere may be adding to); a password reset forgets the account's, and starts the
// pairs of that account again; failures older than a day are forgotten. A browser that signed
// in to an account before carries a device cookie (Device, OWASP's "Slow Down Online Guessing
// Attacks with Device Cookies"): the account's ceiling does not hold it, its own failures are
// counted like a pair's, and the address's limit holds it like anyone.
//
// Bearer secrets are stored hashed: whoever reads the database (a copy, a backup) must find
// nothing that signs anybody in. Sessions are kept under TokenHash of their token, API keys
// under their SHA-256 (HashKey), invitations under a SHA-256 of their link's token; any bearer
// secret added later (a password-reset link, a display's token) is kept the same way, by its
// TokenHash, and looked up by it. Other secrets the checkout must read back (signing secrets,
// two-factor secrets) are sealed (checkout/sealed).
//
// Sessions are kept by scs in the same database (see SignInTokenStore); a session remembers the
// user's id and a fingerprint of their password hash, so that resetting a password ends every
// session opened with the old one, and the id of its SignIn, the record the user sees on
// their account page and can end.
//
// # Team
//
// Every user has a Role; Permissions is the one table of what each role may do, which the
// dashboard checks on every route. The last owner can be neither removed nor demoted. Owners
// invite users (Invite): a link valid once for InvitationLifetime, of which only the SHA-256 is
// stored. A user may turn on two-factor sign-in (TOTP, RFC 6238, through github.com/pquerna/otp):
// a code is accepted once within one step either side of now (the store keeps the last step
// accepted), and ten single-use recovery codes stand in for a lost phone.
// An invitation holds only while its inviter may still invite its role.
package team
