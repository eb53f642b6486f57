package respond

import (
	"net/http"
	"strings"
)

// ContentSecurityPolicy allows only this origin's scripts, styles and connections, and lets
// frameAncestors frame the page ('none' when there are none).
func ContentSecurityPolicy(frameAncestors []string) string {
	fa := "'none'"
	if len(frameAncestors) > 0 {
		fa = "'self' " + strings.Join(frameAncestors, " ")
	}
	return policy(fa)
}

// SelfFramedPolicy is ContentSecurityPolicy for a page that only this origin may frame (the
// dashboard's previews of the shopper pages).
func SelfFramedPolicy() string { return policy("'self'") }

// policy is the content security policy with the frame-ancestors source list fa.
func policy(fa string) string {
	return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; frame-ancestors " + fa
}

// SetJSONHeaders makes h the headers of a JSON answer: its content type, and the security
// headers that apply to it in place of a page's. A JSON answer is not a document: it keeps
// nosniff, gets a policy that lets it load nothing and be framed nowhere (the embedded
// checkout's pages fetch it; they do not frame it) and X-Frame-Options, and loses those that
// only a page's script, subresources and windows use (Referrer-Policy, Permissions-Policy,
// Cross-Origin-Opener-Policy), as OWASP's REST security cheat sheet has it.
func SetJSONHeaders(h http.Header) {
	h.Del("Referrer-Policy")
	h.Del("Permissions-Policy")
	h.Del("Cross-Origin-Opener-Policy")
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Type", "application/json; charset=utf-8")
}
