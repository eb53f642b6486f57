// Package teamtest holds what tests of other packages need of the team package.
package teamtest

import "github.com/pixcheckout/pixcheckout/checkout/team"

// CheapParams are argon2id parameters that cost next to nothing. The team package's own tests
// check the production parameters (team.OWASPParams); tests that only need users to exist and
// sign in use these, so that each of the many apps and fixtures they make does not spend a
// fifth of a second (more under the race detector) per password.
var CheapParams = team.Argon2Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// Hasher returns a Hasher with CheapParams.
func Hasher() *team.Hasher { return team.NewHasher(CheapParams, 2) }
