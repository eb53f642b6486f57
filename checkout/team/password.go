package team

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"

	"golang.org/x/crypto/argon2"
)

// Argon2Params are the cost parameters of argon2id.
type Argon2Params struct {
	Memory  uint32 // KiB
	Time    uint32 // passes
	Threads uint8  // lanes
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// OWASPParams are OWASP's minimum recommendation for argon2id (Password Storage Cheat Sheet):
// 19 MiB of memory, two passes, one lane; a 16-byte salt and a 32-byte key.
var OWASPParams = Argon2Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// Hasher hashes and verifies passwords with argon2id, at most a few at a time.
type Hasher struct {
	p        Argon2Params
	sem      chan struct{}
	verified atomic.Int64 // verifications done, for tests
	waiting  atomic.Int64 // hashes and verifications waiting for a slot, for tests
}

// NewHasher returns a Hasher with parameters p that runs at most concurrent hashes at once
// (runtime.NumCPU() when 0 or less): the others wait for a slot, or for their context to end.
func NewHasher(p Argon2Params, concurrent int) *Hasher {
	if concurrent <= 0 {
		concurrent = runtime.NumCPU()
	}
	return &Hasher{p: p, sem: make(chan struct{}, concurrent)}
}

// acquire takes a slot of the semaphore, or gives up when ctx ends.
func (h *Hasher) acquire(ctx context.Context) error {
	h.waiting.Add(1)
	defer h.waiting.Add(-1)
	select {
	case h.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("team: waiting to hash a password: %w", ctx.Err())
	}
}

func (h *Hasher) release() { <-h.sem }

// Hash returns the PHC string of password with a new random salt:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>, base64 without padding.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, h.p.SaltLen)
	_, _ = rand.Read(salt)
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, h.p.Time, h.p.Memory, h.p.Threads, h.p.KeyLen)
	h.release()
	return encodePHC(h.p, salt, key), nil
}

// Verify reports whether password matches hash, with the parameters written in the hash (so
// that hashes made with older parameters keep working). The comparison takes constant time.
func (h *Hasher) Verify(ctx context.Context, hash, password string) (bool, error) {
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	return h.verifyHeld(hash, password)
}

// verifyHeld is Verify for a caller that holds a slot of the semaphore already.
func (h *Hasher) verifyHeld(hash, password string) (bool, error) {
	p, salt, key, err := decodePHC(hash)
	if err != nil {
		return false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(key)))
	h.verified.Add(1)
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

var b64 = base64.RawStdEncoding

func encodePHC(p Argon2Params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// errBadHash: a stored hash is not an argon2id PHC string this package can read.
var errBadHash = errors.New("team: the stored password hash is not an argon2id PHC string")

// Bounds on the parameters read from a stored hash, so that a corrupted (or planted) hash
// cannot make a verification take gigabytes or minutes.
const (
	maxMemoryKiB = 1 << 20 // 1 GiB
	maxTime      = 16
)

// phcParams reads a PHC string's version ("v=19") and parameters ("m=…,t=…,p=…"); false
// for another version, or parameters out of the bounds a hash of this program has.
func phcParams(version, params string) (p Argon2Params, ok bool) {
	var v int
	if _, err := fmt.Sscanf(version, "v=%d", &v); err != nil || v != argon2.Version {
		return p, false
	}
	if _, err := fmt.Sscanf(params, "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil {
		return p, false
	}
	return p, p.Memory != 0 && p.Memory <= maxMemoryKiB && p.Time != 0 && p.Time <= maxTime && p.Threads != 0
}

func decodePHC(s string) (p Argon2Params, salt, key []byte, err error) {
	parts := strings.Split(s, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, key
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, errBadHash
	}
	p, ok := phcParams(parts[2], parts[3])
	if !ok {
		return p, nil, nil, errBadHash
	}
	if salt, err = b64.DecodeString(parts[4]); err != nil || len(salt) < 8 {
		return p, nil, nil, errBadHash
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) < 16 {
		return p, nil, nil, errBadHash
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}
