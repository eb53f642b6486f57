package mail

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Server is an SMTP server to send through, read from CHECKOUT_SMTP_URL.
type Server struct {
	Host string
	Port int
	// ImplicitTLS: smtps://, TLS from the first byte (port 465). Otherwise STARTTLS, required
	// unless Host is a loopback address (a local relay).
	ImplicitTLS bool
	Username    string
	Password    string // never printed: String leaves it out
}

// ParseServer reads an SMTP URL: smtp://user:pass@host:587 (STARTTLS, required unless the host
// is a loopback address) or smtps://user:pass@host:465 (implicit TLS), the user and password
// URL-escaped. Its errors never repeat the password.
func ParseServer(raw string) (*Server, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("must be smtp://user:password@host:587 or smtps://user:password@host:465 (user and password URL-escaped)")
	}
	s := &Server{Host: u.Hostname()}
	switch u.Scheme {
	case "smtp":
		s.Port = 587
	case "smtps":
		s.Port, s.ImplicitTLS = 465, true
	default:
		return nil, fmt.Errorf("scheme %q: must be smtp:// (STARTTLS) or smtps:// (implicit TLS)", u.Scheme)
	}
	if s.Host == "" {
		return nil, errors.New("has no host (smtp://user:password@host:587)")
	}
	if s.Port, err = port(u.Port(), s.Port); err != nil {
		return nil, err
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, errors.New("takes no path, query or fragment: smtp://user:password@host:port")
	}
	if u.User != nil {
		s.Username = u.User.Username()
		s.Password, _ = u.User.Password()
		if hasControl(s.Username) || hasControl(s.Password) {
			return nil, errors.New("the user or password holds control characters")
		}
	}
	return s, nil
}

// port reads a URL's port ("" keeps def).
func port(p string, def int) (int, error) {
	if p == "" {
		return def, nil
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("port %q is not a port number", p)
	}
	return n, nil
}

// Addr is host:port.
func (s *Server) Addr() string { return net.JoinHostPort(s.Host, strconv.Itoa(s.Port)) }

// String names the server without its password: smtp://user@host:587.
func (s *Server) String() string {
	if s == nil {
		return "(none)"
	}
	scheme := "smtp"
	if s.ImplicitTLS {
		scheme = "smtps"
	}
	u := url.URL{Scheme: scheme, Host: s.Addr()}
	if s.Username != "" {
		u.User = url.User(s.Username)
	}
	return u.String()
}

// loopback reports whether the server is on this machine (where STARTTLS may be missing).
func (s *Server) loopback() bool {
	if strings.EqualFold(s.Host, "localhost") {
		return true
	}
	ip := net.ParseIP(s.Host)
	return ip != nil && ip.IsLoopback()
}

// ParseFrom reads CHECKOUT_MAIL_FROM: "Loja Demo <loja@example.com.br>" or a bare address.
func ParseFrom(raw string) (Address, error) {
	a, err := ParseAddress(raw)
	if err != nil {
		return Address{}, errors.New(`must be an address, e.g. "Loja Demo <loja@example.com.br>" or loja@example.com.br`)
	}
	return a, nil
}
