// Package mailtest runs a real SMTP server in the test's process (emersion/go-smtp) on a
// loopback TCP port, with STARTTLS on a certificate of its own (trusted through RootCAs,
// which the sender takes as a test-only option) and AUTH PLAIN required, and parses what it
// receives with net/mail and mime/multipart. Failures can be scripted (a 4xx or 5xx answer
// to RCPT TO or DATA), and the server stopped and started again on the same port.
//
// It is test support: only tests import it.
package mailtest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// The credentials the server accepts.
const (
	User     = "loja@example.com.br"
	Password = "s3nh@ secreta/:%"
)

// Failure is a scripted refusal: at "rcpt" or "data", the answer Code and Message.
type Failure struct {
	At      string
	Code    int
	Message string
}

// Server is an SMTP server for tests.
type Server struct {
	// URL is CHECKOUT_SMTP_URL for it, credentials included (URL-escaped).
	URL string
	// RootCAs trusts its certificate.
	RootCAs *x509.CertPool
	Addr    string

	tlsConf *tls.Config
	certDER []byte
	mu      sync.Mutex
	srv     *smtp.Server
	live    *connSet // the connections srv serves
	script  []Failure
	onData  func(Received)
	conns   int
	got     []Received
	ch      chan Received
	forget  bool // keep nothing received (Forget)
}

// Received is a message the server accepted.
type Received struct {
	From    string   // MAIL FROM
	To      []string // RCPT TO
	TLS     bool     // the session was encrypted (STARTTLS)
	Raw     []byte
	Header  mail.Header
	Subject string // decoded
	Text    string // the text/plain part, decoded
	HTML    string // the text/html part, decoded
}

// Start runs a server on a free loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	cert, pool, err := selfSigned()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{RootCAs: pool, tlsConf: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		certDER: cert.Certificate[0], ch: make(chan Received, 4096)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	s.URL = (&url.URL{Scheme: "smtp", User: url.UserPassword(User, Password), Host: s.Addr}).String()
	s.serve(ln)
	t.Cleanup(s.Stop)
	return s
}

func (s *Server) serve(ln net.Listener) {
	live := &connSet{conns: map[net.Conn]struct{}{}}
	ln = &listener{Listener: ln, live: live}
	srv := smtp.NewServer(backend{s})
	srv.Domain = "mx.test"
	srv.TLSConfig = s.tlsConf
	srv.AllowInsecureAuth = false // AUTH only after STARTTLS
	srv.ReadTimeout, srv.WriteTimeout = 30*time.Second, 30*time.Second
	srv.MaxMessageBytes = 1 << 20
	s.mu.Lock()
	s.srv, s.live = srv, live
	s.mu.Unlock()
	go func() { _ = srv.Serve(ln) }()
}

// CAFile writes the server's certificate, PEM-encoded, in a file of the test's temporary
// directory and returns its path: what a program the test starts in a process of its own is
// given to trust (on Linux, SSL_CERT_FILE replaces the system's roots), as RootCAs is in the
// test's own process.
func (s *Server) CAFile(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mailtest-ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.certDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Stop closes the server and its connections (a server that went down): once it returns, no
// connection is served, not even one the listener accepted as it stopped.
func (s *Server) Stop() {
	s.mu.Lock()
	srv, live := s.srv, s.live
	s.srv, s.live = nil, nil
	s.mu.Unlock()
	if srv != nil {
		_ = srv.Close()
		// go-smtp's Close ends the connections its handlers have registered; one accepted
		// just before it and registered just after is served on, so a stopped server went on
		// delivering over a sender's connection made as it stopped. live ends that one too.
		live.close()
	}
}

// connSet is the connections of one serving of the server (Start or Restart).
type connSet struct {
	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
}

// add keeps c, or closes it and reports false when the set is closed already.
func (cs *connSet) add(c net.Conn) bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.closed {
		_ = c.Close()
		return false
	}
	cs.conns[c] = struct{}{}
	return true
}

func (cs *connSet) remove(c net.Conn) {
	cs.mu.Lock()
	delete(cs.conns, c)
	cs.mu.Unlock()
}

// close closes every connection of the set and those added later.
func (cs *connSet) close() {
	cs.mu.Lock()
	cs.closed = true
	conns := cs.conns
	cs.conns = nil
	cs.mu.Unlock()
	for c := range conns {
		_ = c.Close()
	}
}

// listener is the server's listener, its connections kept in live.
type listener struct {
	net.Listener
	live *connSet
}

func (l *listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if !l.live.add(c) {
		return nil, net.ErrClosed
	}
	return &liveConn{Conn: c, live: l.live}, nil
}

// liveConn leaves its set when closed.
type liveConn struct {
	net.Conn
	live *connSet
}

func (c *liveConn) Close() error {
	c.live.remove(c.Conn)
	return c.Conn.Close()
}

// Restart serves again on the same address.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		t.Fatal(err)
	}
	s.serve(ln)
}

// Fail scripts refusals, used in order as their stage comes.
func (s *Server) Fail(f ...Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, f...)
}

// OnData sets fn to run with each message received, before the server answers 250 (a test
// stops its sender there: the message is delivered, the answer not yet known); the answer
// waits for fn to return.
func (s *Server) OnData(fn func(Received)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onData = fn
}

// Forget makes the server keep nothing it receives from now on (Messages and Next see none of
// it): for a benchmark of more messages than memory or Next's queue hold, which counts them
// through OnData.
func (s *Server) Forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.forget = true
}

// Conns is how many connections the server accepted.
func (s *Server) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

// Messages returns every message received so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

// Next waits for the next message received, failing the test after timeout.
func (s *Server) Next(t testing.TB, timeout time.Duration) Received {
	t.Helper()
	select {
	case r := <-s.ch:
		return r
	case <-time.After(timeout):
		t.Fatalf("no e-mail reached the SMTP server within %s", timeout)
		return Received{}
	}
}

// failure takes the next scripted refusal of stage, if it is next.
func (s *Server) failure(stage string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.script) == 0 || s.script[0].At != stage {
		return nil
	}
	f := s.script[0]
	s.script = s.script[1:]
	return &smtp.SMTPError{Code: f.Code, EnhancedCode: smtp.EnhancedCodeNotSet, Message: f.Message}
}

type backend struct{ s *Server }

func (b backend) NewSession(c *smtp.Conn) (smtp.Session, error) {
	b.s.mu.Lock()
	b.s.conns++
	b.s.mu.Unlock()
	return &session{s: b.s, conn: c}, nil
}

type session struct {
	s      *Server
	conn   *smtp.Conn
	authed bool
	from   string
	to     []string
}

func (x *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (x *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(_, user, pass string) error {
		if user != User || pass != Password {
			return smtp.ErrAuthFailed
		}
		x.authed = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if !x.authed {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if err := x.s.failure("rcpt"); err != nil {
		return err
	}
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if err := x.s.failure("data"); err != nil {
		return err
	}
	_, isTLS := x.conn.TLSConnectionState()
	rec, err := Parse(raw)
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCodeNotSet, Message: "unparsable: " + err.Error()}
	}
	rec.From, rec.To, rec.TLS = x.from, append([]string(nil), x.to...), isTLS
	x.s.mu.Lock()
	forget := x.s.forget
	if !forget {
		x.s.got = append(x.s.got, rec)
	}
	onData := x.s.onData
	x.s.mu.Unlock()
	if !forget {
		x.s.ch <- rec
	}
	if onData != nil {
		onData(rec)
	}
	return nil
}

func (x *session) Reset()        { x.from, x.to = "", nil }
func (x *session) Logout() error { return nil }

// Parse reads a raw message: its header, decoded subject, and its text and HTML parts.
func Parse(raw []byte) (Received, error) {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return Received{}, err
	}
	rec := Received{Raw: raw, Header: m.Header}
	dec := new(mime.WordDecoder)
	if rec.Subject, err = dec.DecodeHeader(m.Header.Get("Subject")); err != nil {
		return Received{}, fmt.Errorf("subject: %w", err)
	}
	if err := walk(&rec, m.Header.Get("Content-Type"), m.Header.Get("Content-Transfer-Encoding"), m.Body); err != nil {
		return Received{}, err
	}
	return rec, nil
}

// walk reads a part (multipart ones recursively) into rec's Text and HTML.
func walk(rec *Received, ctype, cte string, body io.Reader) error {
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		return fmt.Errorf("content type %q: %w", ctype, err)
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextRawPart()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			if err := walk(rec, p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p); err != nil {
				return err
			}
		}
	}
	var r = body
	switch strings.ToLower(cte) {
	case "quoted-printable":
		r = quotedprintable.NewReader(body)
	case "base64":
		r = base64Reader(body)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	switch mt {
	case "text/plain":
		rec.Text = string(b)
	case "text/html":
		rec.HTML = string(b)
	}
	return nil
}

// selfSigned makes a certificate for 127.0.0.1 and localhost, and a pool that trusts it.
func selfSigned() (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, nil
}
