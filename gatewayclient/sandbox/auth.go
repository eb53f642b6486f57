package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Scopes the sandbox grants. A client gets all of them unless ClientConfig.Scopes says
// otherwise; a token request may ask for fewer with the form field scope (comma- or
// space-separated).
const (
	ScopeTransactionsWrite = "transactions:write" // POST /transaction
	ScopeDepositsRead      = "deposits:read"      // GET /deposit, GET /deposit/{id}
	ScopeWithdrawalsRead   = "withdrawals:read"   // GET /withdrawal
	ScopeSandboxControl    = "sandbox:control"    // everything under /sandbox/
)

// AllScopes returns every scope the sandbox knows, in a stable order.
func AllScopes() []string {
	return []string{ScopeTransactionsWrite, ScopeDepositsRead, ScopeWithdrawalsRead, ScopeSandboxControl}
}

// jwtKeyFile holds the HS256 signing key, made once in the data dir so tokens survive restarts.
const jwtKeyFile = "jwt-hs256.key"

// tokenIssuer is the iss claim of every token.
const tokenIssuer = "pixcheckout-sandbox"

// tokenClaims are the claims of an access token: subject (client id), scopes, iat, exp, jti.
type tokenClaims struct {
	Scope  string   `json:"scope"`
	Scopes []string `json:"scopes"`
	jwt.RegisteredClaims
}

// tokenResponse is the token endpoint's answer, with the seven fields of the spec.
type tokenResponse struct {
	AccessToken      string `json:"access_token"`
	ExpiresIn        int64  `json:"expires_in"` // Unix timestamp of expiry, as the spec says
	RefreshExpiresIn int64  `json:"refresh_expires_in"`
	TokenType        string `json:"token_type"`
	NotBeforePolicy  int64  `json:"not-before-policy"`
	Scope            string `json:"scope"`
	ExpiresInSec     int64  `json:"expires_in_sec"`
}

// principal is the authenticated caller of a request.
type principal struct {
	clientID string
	scopes   []string
}

// loadOrCreateKey reads the signing key from dir, creating it (0600) on first start.
func loadOrCreateKey(dir string) ([]byte, error) {
	path := filepath.Join(dir, jwtKeyFile)
	b, err := os.ReadFile(path)
	if err == nil {
		key, derr := hex.DecodeString(strings.TrimSpace(string(b)))
		if derr != nil || len(key) < 32 {
			return nil, fmt.Errorf("sandbox: signing key %s is corrupt", jwtKeyFile)
		}
		return key, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("sandbox: read signing key: %w", err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("sandbox: make signing key: %w", err)
	}
	// O_EXCL: if two processes race on a fresh dir, one wins and the other reads its key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return loadOrCreateKey(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("sandbox: write signing key: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("sandbox: write signing key: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("sandbox: write signing key: %w", err)
	}
	return key, nil
}

// handleToken is POST /auth/token.
func (s *Sandbox) handleToken(w http.ResponseWriter, r *http.Request) {
	if s.faults.take(faultToken502, r.URL.Path) {
		s.respondError(w, r, &apiError{status: http.StatusBadGateway,
			message: "error contacting the authentication provider"})
		return
	}
	tok, err := s.issueToken(r)
	if err != nil {
		s.respondError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, tok)
}

// issueToken checks the form-encoded credentials and signs a token.
func (s *Sandbox) issueToken(r *http.Request) (tokenResponse, error) {
	ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || ct != "application/x-www-form-urlencoded" {
		return tokenResponse{}, newAPIError(http.StatusBadRequest, "the body must be application/x-www-form-urlencoded")
	}
	r.Body = http.MaxBytesReader(nil, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		return tokenResponse{}, newAPIError(http.StatusBadRequest, "malformed form body")
	}
	f := r.PostForm
	for _, name := range []string{"client_id", "client_secret", "grant_type"} {
		if strings.TrimSpace(f.Get(name)) == "" {
			return tokenResponse{}, newAPIError(http.StatusBadRequest, "%s is required", name)
		}
	}
	if f.Get("grant_type") != "client_credentials" {
		return tokenResponse{}, newAPIError(http.StatusBadRequest, "grant_type must be client_credentials")
	}
	// Failed attempts are limited as the console's sign-ins are, in the same buckets (per
	// remote address, and per client for a client that exists): past the limit the secret is
	// not even checked, so guessing it costs the guesser time, wherever the guesses come in.
	keys := s.loginKeys(r, f.Get("client_id"))
	if wait, blocked := s.loginBlocked(keys); blocked {
		return tokenResponse{}, tooManyAttempts(wait)
	}
	c, ok := s.checkCredentials(f.Get("client_id"), f.Get("client_secret"))
	if !ok {
		s.loginFailed(keys)
		return tokenResponse{}, newAPIError(http.StatusUnauthorized, "invalid client credentials")
	}
	scopes := c.Scopes
	if req := f.Get("scope"); strings.TrimSpace(req) != "" {
		scopes = nil
		for _, sc := range strings.FieldsFunc(req, func(r rune) bool { return r == ',' || r == ' ' }) {
			if !slices.Contains(c.Scopes, sc) {
				return tokenResponse{}, newAPIError(http.StatusBadRequest, "scope %q is not granted to this client", sc)
			}
			if !slices.Contains(scopes, sc) {
				scopes = append(scopes, sc)
			}
		}
	}
	return s.signToken(c.ID, scopes)
}

// signToken makes an access token for clientID with the given scopes.
func (s *Sandbox) signToken(clientID string, scopes []string) (tokenResponse, error) {
	now := s.clock.Now()
	exp := now.Add(s.tokenTTL)
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return tokenResponse{}, fmt.Errorf("sandbox: token id: %w", err)
	}
	scope := strings.Join(scopes, ",")
	claims := tokenClaims{
		Scope:  scope,
		Scopes: scopes,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    tokenIssuer,
			Subject:   clientID,
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(exp),
			ID:        hex.EncodeToString(jti),
		},
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.jwtKey)
	if err != nil {
		return tokenResponse{}, fmt.Errorf("sandbox: sign token: %w", err)
	}
	return tokenResponse{
		AccessToken:  signed,
		ExpiresIn:    exp.Unix(),
		TokenType:    "Bearer",
		Scope:        scope,
		ExpiresInSec: int64(s.tokenTTL / time.Second),
	}, nil
}

// verifyToken checks a bearer token's signature, expiry (on the sandbox clock) and client.
func (s *Sandbox) verifyToken(raw string) (principal, error) {
	var claims tokenClaims
	_, err := jwt.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return s.jwtKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithTimeFunc(s.clock.Now),
		jwt.WithExpirationRequired(),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithLeeway(5*time.Second))
	if err != nil {
		if errors.Is(err, jwt.ErrTokenExpired) {
			return principal{}, newAPIError(http.StatusUnauthorized, "token expired")
		}
		return principal{}, newAPIError(http.StatusUnauthorized, "invalid token")
	}
	c, ok := s.clients[claims.Subject]
	if !ok {
		return principal{}, newAPIError(http.StatusUnauthorized, "invalid token")
	}
	// A token never carries more than the client holds now, even if its config shrank.
	var scopes []string
	for _, sc := range claims.Scopes {
		if slices.Contains(c.Scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	return principal{clientID: c.ID, scopes: scopes}, nil
}

// authenticate reads the bearer token of r and checks that it carries scope.
func (s *Sandbox) authenticate(r *http.Request, scope string) (principal, error) {
	h := r.Header.Get("Authorization")
	raw, ok := strings.CutPrefix(h, "Bearer ")
	if !ok {
		raw, ok = strings.CutPrefix(h, "bearer ")
	}
	if !ok || strings.TrimSpace(raw) == "" {
		return principal{}, newAPIError(http.StatusUnauthorized, "missing bearer token")
	}
	p, err := s.verifyToken(strings.TrimSpace(raw))
	if err != nil {
		return principal{}, err
	}
	if !slices.Contains(p.scopes, scope) {
		return principal{}, newAPIError(http.StatusForbidden, "the token lacks the scope %s", scope)
	}
	return p, nil
}

// withPrincipal wraps h so that it runs only for callers whose token carries scope.
func (s *Sandbox) withPrincipal(scope string, h func(http.ResponseWriter, *http.Request, principal)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := s.authenticate(r, scope)
		if err != nil {
			s.respondError(w, r, err)
			return
		}
		h(w, r, p)
	}
}
