package mail

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net/textproto"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	gomail "github.com/wneessen/go-mail"
	"github.com/wneessen/go-mail/smtp"

	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
)

// NotSentNoServer is the reason kept with a message made while no SMTP server is configured:
// it is kept, whole, in the e-mail log, and not sent (the dashboard says "não enviado: nenhum
// servidor SMTP configurado").
const NotSentNoServer = "no SMTP server configured"

// suppressedPrefix starts the reason of a message not sent to a suppressed address.
const suppressedPrefix = "suppressed address: "

// Suppressions is the list of addresses that a server refused for good (a hard bounce: a 5xx
// answer to RCPT TO): nothing more is sent to them until an owner clears the address. The
// checkout's store keeps it (table mail_suppressions).
type Suppressions interface {
	// Suppression returns the reason an address is suppressed, or "" when it is not.
	Suppression(ctx context.Context, addr string) (string, error)
	// Suppress adds addr with the server's reply, at at (again: keeps the first).
	Suppress(ctx context.Context, addr, reply string, at time.Time) error
}

// SenderOptions configures a Sender.
type SenderOptions struct {
	// Server is where messages go; nil means none is configured: every message is kept and
	// marked NotSentNoServer.
	Server *Server
	// From is the sender of every message (CHECKOUT_MAIL_FROM).
	From Address
	// ReplyTo gives the Reply-To of a message when it is sent: the store's support e-mail
	// ("" or an error: no Reply-To).
	ReplyTo func(ctx context.Context) (string, error)
	// Suppressions, when set, is checked before each message and told of hard bounces.
	Suppressions Suppressions
	// Clock stamps suppressions (nil: time.Now).
	Clock func() time.Time
	// RootCAs, when set, are the certificates trusted for the server's, instead of the
	// system's: for tests against a server with a certificate of their own. Verification is
	// never turned off.
	RootCAs *x509.CertPool
	// Timeout bounds a connection's dial, handshake and each command (default 15 s).
	Timeout time.Duration
	// IdleTimeout is how long an unused connection is kept open for the next message
	// (default 30 s).
	IdleTimeout time.Duration
	// MaxConns bounds the connections open at once (default 2); messages wait for one.
	MaxConns int
	Logger   *slog.Logger
}

// Sender sends the outbox's e-mails over SMTP (it is the outbox's Sender for ChannelSMTP),
// reusing its connections: a burst of messages to one server goes over one or two of them.
type Sender struct {
	opts   SenderOptions
	client *gomail.Client // configuration only; each connection is its own smtp.Client
	log    *slog.Logger

	slots chan struct{} // one per connection that may be open
	mu    sync.Mutex
	idle  []idleConn

	state atomic.Int32 // stateOff, stateOK, stateFailing
	dials atomic.Int64 // connections opened, for tests and figures
}

type idleConn struct {
	c     *smtp.Client
	since time.Time
}

const (
	stateOff int32 = iota
	stateOK
	stateFailing
)

// NewSender checks opts and returns the sender.
func NewSender(opts SenderOptions) (*Sender, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 15 * time.Second
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 30 * time.Second
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = 2
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	s := &Sender{opts: opts, log: opts.Logger, slots: make(chan struct{}, opts.MaxConns)}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if opts.Server == nil {
		return s, nil
	}
	if opts.From.Email == "" {
		return nil, errors.New("mail: a sender needs its From address (CHECKOUT_MAIL_FROM)")
	}
	srv := opts.Server
	tc := &tls.Config{ServerName: srv.Host, RootCAs: opts.RootCAs, MinVersion: tls.VersionTLS12}
	copts := []gomail.Option{gomail.WithPort(srv.Port), gomail.WithTimeout(opts.Timeout), gomail.WithTLSConfig(tc),
		gomail.WithHELO("localhost")}
	switch {
	case srv.ImplicitTLS:
		copts = append(copts, gomail.WithSSL())
	case srv.loopback():
		copts = append(copts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	default:
		copts = append(copts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if srv.Username != "" {
		copts = append(copts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(srv.Username),
			gomail.WithPassword(srv.Password))
	}
	c, err := gomail.NewClient(srv.Host, copts...)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP client: %w", err)
	}
	s.client = c
	s.state.Store(stateOK)
	return s, nil
}

// State is the sending's health for /readyz: "off" without a server, "failing" after the
// last connection failed, else "ok".
func (s *Sender) State() string {
	switch s.state.Load() {
	case stateOK:
		return "ok"
	case stateFailing:
		return "failing"
	}
	return "off"
}

// Configured reports whether a server is configured.
func (s *Sender) Configured() bool { return s.client != nil }

// Dials is how many connections the sender opened.
func (s *Sender) Dials() int64 { return s.dials.Load() }

// Probe connects (TLS and authentication included) and keeps the connection for the first
// message; an error says why it failed, never with the password.
func (s *Sender) Probe(ctx context.Context) error {
	if s.client == nil {
		return nil
	}
	c, err := s.conn(ctx)
	if err != nil {
		return err
	}
	s.release(c, true)
	return nil
}

// Close ends the idle connections (QUIT).
func (s *Sender) Close() {
	s.mu.Lock()
	idle := s.idle
	s.idle = nil
	s.mu.Unlock()
	for _, ic := range idle {
		_ = ic.c.Quit()
		<-s.slots
	}
}

// conn returns an open connection: an idle one, or a new one when none is idle and fewer than
// MaxConns are open (else it waits for one).
func (s *Sender) conn(ctx context.Context) (*smtp.Client, error) {
	for {
		s.mu.Lock()
		n := len(s.idle)
		if n > 0 {
			ic := s.idle[n-1]
			s.idle = s.idle[:n-1]
			s.mu.Unlock()
			if time.Since(ic.since) < s.opts.IdleTimeout {
				return ic.c, nil
			}
			_ = ic.c.Quit() // the server may have closed it already
			<-s.slots
			continue
		}
		s.mu.Unlock()
		select {
		case s.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		c, err := s.client.DialToSMTPClientWithContext(ctx)
		if err != nil {
			<-s.slots
			s.state.Store(stateFailing)
			return nil, err
		}
		s.dials.Add(1)
		s.state.Store(stateOK)
		return c, nil
	}
}

// release gives c back for the next message, or closes it when it may be unusable.
func (s *Sender) release(c *smtp.Client, reusable bool) {
	if !reusable {
		_ = c.Close()
		<-s.slots
		return
	}
	s.mu.Lock()
	s.idle = append(s.idle, idleConn{c: c, since: time.Now()})
	s.mu.Unlock()
}

// Send makes one attempt at d, an e-mail of the outbox (see outbox.Sender): a connection
// failure or a 4xx answer is retried by the outbox; a 5xx is permanent, and a 5xx to the
// recipient suppresses the address.
func (s *Sender) Send(ctx context.Context, d outbox.Delivery) outbox.Outcome {
	if s.client == nil {
		return outbox.Outcome{Skipped: true, Error: NotSentNoServer}
	}
	content, err := ContentOf(d.Body)
	if err != nil {
		return outbox.Outcome{Permanent: true, Error: err.Error()}
	}
	if s.opts.Suppressions != nil {
		why, err := s.opts.Suppressions.Suppression(ctx, content.To)
		if err != nil {
			return outbox.Outcome{Error: "reading the suppression list: " + err.Error()}
		}
		if why != "" {
			return outbox.Outcome{Permanent: true, Error: suppressedPrefix + why}
		}
	}
	m, err := s.message(ctx, d.MessageID, content)
	if err != nil {
		return outbox.Outcome{Permanent: true, Error: err.Error()}
	}
	return s.deliver(ctx, m, content.To)
}

// deliver sends m over a connection. An idle connection the server has closed meanwhile fails
// its first command: one more try on a new connection then.
func (s *Sender) deliver(ctx context.Context, m *gomail.Msg, to string) outbox.Outcome {
	for try := 0; ; try++ {
		c, err := s.conn(ctx)
		if err != nil {
			return connFailure(err)
		}
		err = s.client.SendWithSMTPClient(c, m)
		if err == nil {
			s.release(c, true)
			return outbox.Outcome{Code: 250, Excerpt: outbox.Printable([]byte("250 " + m.ServerResponse()))}
		}
		var se *gomail.SendError
		if !errors.As(err, &se) || se.Reason == gomail.ErrConnCheck || se.ErrorCode() == 0 {
			s.release(c, false)
			if try == 0 && se != nil && se.Reason == gomail.ErrConnCheck {
				continue
			}
			return connFailure(err)
		}
		s.release(c, true) // go-mail sent RSET: the connection serves the next message
		return s.refused(ctx, se, to)
	}
}

// refused is the outcome of an answer refusing the message.
func (s *Sender) refused(ctx context.Context, se *gomail.SendError, to string) outbox.Outcome {
	code := se.ErrorCode()
	reply := serverReply(se)
	out := outbox.Outcome{Code: code, Error: reply, Excerpt: reply}
	if code < 500 {
		return out // 4xx: retried
	}
	out.Permanent = true
	if se.Reason == gomail.ErrSMTPRcptTo && s.opts.Suppressions != nil {
		if err := s.opts.Suppressions.Suppress(ctx, to, reply, s.opts.Clock()); err != nil {
			s.log.Error("mail: suppressing an address failed", "err", err)
		} else {
			s.log.Warn("mail: address suppressed after a permanent refusal", "address", MaskAddress(to), "reply", reply)
		}
	}
	return out
}

// serverReply is the server's words in a SendError, without the recipient or message id
// go-mail appends.
func serverReply(se *gomail.SendError) string {
	msg := se.Error()
	if i := strings.Index(msg, ", affected "); i >= 0 {
		msg = msg[:i]
	}
	if _, after, ok := strings.Cut(msg, ": "); ok {
		msg = after
	}
	return outbox.Printable([]byte(msg))
}

// connFailure is the outcome of a connection that could not be made or broke: retried.
func connFailure(err error) outbox.Outcome {
	var te *textproto.Error
	if errors.As(err, &te) {
		return outbox.Outcome{Code: te.Code, Error: fmt.Sprintf("connecting: %d %s", te.Code, outbox.Printable([]byte(te.Msg)))}
	}
	return outbox.Outcome{Error: "connecting: " + outbox.Printable([]byte(err.Error()))}
}

// message builds the e-mail of content, with id as its Message-ID.
func (s *Sender) message(ctx context.Context, id string, content Content) (*gomail.Msg, error) {
	m := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := m.FromFormat(OneLine(s.opts.From.Name), s.opts.From.Email); err != nil {
		return nil, fmt.Errorf("From: %w", err)
	}
	if err := m.AddToFormat(OneLine(content.ToName), content.To); err != nil {
		return nil, fmt.Errorf("To: %w", err)
	}
	if s.opts.ReplyTo != nil {
		if r, err := s.opts.ReplyTo(ctx); err == nil && r != "" {
			if err := m.ReplyTo(r); err != nil {
				s.log.Warn("mail: the store's support e-mail is not an address; no Reply-To", "err", err)
			}
		}
	}
	m.Subject(OneLine(content.Subject))
	m.SetMessageIDWithValue(id)
	m.SetDate()
	m.SetGenHeader(gomail.HeaderContentLang, content.Lang)
	m.SetBodyString(gomail.TypeTextPlain, content.Text)
	m.AddAlternativeString(gomail.TypeTextHTML, content.HTML)
	return m, nil
}

// MaskAddress shows an address as j***@example.com, for logs and for users without the
// personal-data permission.
func MaskAddress(addr string) string {
	local, domain, ok := strings.Cut(addr, "@")
	if !ok || local == "" {
		return "***"
	}
	r := []rune(local)
	return string(r[0]) + "***@" + domain
}
