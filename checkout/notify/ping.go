package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient/webhook"
)

// PingType is the type of a test notification.
const PingType = "ping"

// pingTimeout bounds a test notification: the merchant waits for its answer on the page.
const pingTimeout = 10 * time.Second

// maxPingExcerpt is how much of the answer's body a test notification shows.
const maxPingExcerpt = 300

// PingResult is what became of a test notification.
type PingResult struct {
	ID         string        // its webhook-id
	At         time.Time     // when it was sent
	URL        string        // where, without its query string
	StatusCode int           // 0 without an answer
	Duration   time.Duration // until the answer's body was read
	Excerpt    string        // the start of the answer's body, printable characters only
	Error      string        // why it failed ("" for a 2xx)
	Body       []byte        // the event sent
}

// ErrNoDestination: no URL or no secret is configured, so there is nowhere to send a ping.
var ErrNoDestination = errors.New("notify: no notification URL or signing secret is configured")

// Ping sends a signed "ping" notification at now to the URL in force in m, as every
// notification is sent (Standard Webhooks headers, the same signing secret, the SSRF guard for
// a URL typed in the dashboard, no redirects), and says how the receiver answered. by is who
// asked for it.
func Ping(ctx context.Context, m *settings.Manager, now time.Time, by string) (*PingResult, error) {
	eff, err := m.Get(ctx)
	if err != nil {
		return nil, err
	}
	if eff.WebhookURL == "" || eff.WebhookSecret == "" {
		return nil, ErrNoDestination
	}
	now = now.UTC()
	data, _ := json.Marshal(map[string]string{"message": "a test notification from the dashboard", "sentBy": by})
	body, err := json.Marshal(webhook.Event{Type: PingType, Timestamp: now, Data: data})
	if err != nil {
		return nil, fmt.Errorf("notify: a ping: %w", err)
	}
	res := &PingResult{ID: webhook.NewMessageID(), At: now, URL: withoutQuery(eff.WebhookURL), Body: body}
	h, err := webhook.Headers(eff.WebhookSecret, res.ID, now, body)
	if err != nil {
		return nil, fmt.Errorf("notify: signing a ping: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, eff.WebhookURL, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("notify: a ping: %w", ErrNoDestination)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	dialer := webhook.GuardedDialer()
	if eff.TrustedURL() {
		dialer = &net.Dialer{Timeout: 5 * time.Second} // the operator's URL, trusted like the outbox does
	}
	client := &http.Client{
		Transport:     &http.Transport{Proxy: nil, DialContext: dialer.DialContext, ResponseHeaderTimeout: pingTimeout},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       pingTimeout,
	}
	defer client.CloseIdleConnections()
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // *url.Error repeats the URL, query string included
		}
		res.Duration, res.Error = time.Since(start), deliveryCause(err)
		return res, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, maxPingExcerpt))
	res.Duration, res.StatusCode, res.Excerpt = time.Since(start), resp.StatusCode, printableText(b)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		res.Error = fmt.Sprintf("HTTP %d", resp.StatusCode)
	}
	return res, nil
}

// withoutQuery is a URL without its query string (which may hold a token).
func withoutQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u.String()
}

// printableText keeps the valid, printable characters of b, spaces folded.
func printableText(b []byte) string {
	s := strings.Map(func(r rune) rune {
		if r == utf8.RuneError || !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return -1
		}
		return r
	}, string(b))
	return strings.Join(strings.Fields(s), " ")
}

// deliveryCause says in words why a request could not be made: never the resolver's or any
// other internal address, which the raw error names.
func deliveryCause(err error) string {
	var dns *net.DNSError
	var ne net.Error
	var opErr *net.OpError
	switch {
	case errors.As(err, &dns) && dns.IsNotFound:
		return "the host name does not exist (DNS)"
	case errors.As(err, &dns):
		return "the host name could not be resolved (DNS)"
	case errors.As(err, &ne) && ne.Timeout():
		return "no answer in time"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the server refused the connection"
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return "the server could not be reached"
	case strings.Contains(err.Error(), "tls:") || strings.Contains(err.Error(), "x509:"):
		return "the server's TLS certificate was not accepted"
	}
	return "the connection failed"
}
