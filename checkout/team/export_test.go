package team

// Verified returns how many passwords h has verified.
func (h *Hasher) Verified() int64 { return h.verified.Load() }

// Dummy returns the hash verified for unknown e-mails.
func (a *Accounts) Dummy() string { return a.dummy }

// DecodePHC exposes the PHC decoder.
func DecodePHC(s string) (Argon2Params, error) {
	p, _, _, err := decodePHC(s)
	return p, err
}

// Waiting returns how many hashes and verifications wait for a slot of h's semaphore.
func (h *Hasher) Waiting() int64 { return h.waiting.Load() }

// Hold takes a slot of h's semaphore until the returned func is called.
func (h *Hasher) Hold() func() {
	h.sem <- struct{}{}
	return func() { <-h.sem }
}

// MatchStep exposes the TOTP check of one code.
var MatchStep = matchStep

// NewRecoveryCode exposes the making of a recovery code; HashRecoveryCode its stored form.
var (
	NewRecoveryCode  = newRecoveryCode
	HashRecoveryCode = hashRecoveryCode
)
