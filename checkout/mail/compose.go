package mail

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"net/url"
	"strings"
	"time"
	"unicode"

	"golang.org/x/net/html"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// Address is a person's name (possibly empty) and e-mail address.
type Address struct {
	Name  string
	Email string
}

// String is the address as a header shows it (RFC 5322, the name encoded when it must be).
func (a Address) String() string { return (&mail.Address{Name: a.Name, Address: a.Email}).String() }

// ParseAddress reads "Name <addr@example.com>" or "addr@example.com". Control characters
// (CR and LF above all) are refused: they could start a header of their own.
func ParseAddress(s string) (Address, error) {
	if hasControl(s) {
		return Address{}, errors.New("an e-mail address cannot hold line breaks or control characters")
	}
	a, err := mail.ParseAddress(s)
	if err != nil {
		return Address{}, fmt.Errorf("not an e-mail address: %w", err)
	}
	return Address{Name: a.Name, Email: a.Address}, nil
}

// Renderer is an HTML component: a templ.Component (views/email) satisfies it.
type Renderer interface {
	Render(ctx context.Context, w io.Writer) error
}

// Draft is an e-mail to compose: what caused it, to whom, and what it says.
type Draft struct {
	// Type is what kind of message it is, e.g. "order.paid", "user.invitation", "mail.test".
	Type string
	// Cause identifies what caused it among those of its Type: the order's id and the entry of
	// its history, an invitation's id… With Type and the recipient it makes the Message-ID, so
	// that the same cause never makes two messages (and composing it again stores nothing).
	Cause string
	To    Address
	Lang  string // "pt-BR" (default) or "en"
	// Subject is one line; line breaks and control characters become spaces.
	Subject string
	// HTML is the message as HTML (views/email's components); Text, its plain-text alternative.
	HTML Renderer
	Text string
	// OrderID, UserID or ChargeID say what it concerns (none: nothing in particular).
	OrderID, UserID, ChargeID string
	// At is when it was caused, on the injected clock (the change's time); NotBefore, when
	// later, is when it is first due (a reminder).
	At, NotBefore time.Time
}

// Content is an e-mail as the outbox keeps it (the JSON of its body): made once, when its cause
// is committed, and sent as kept, every copy the same.
type Content struct {
	To      string `json:"to"`
	ToName  string `json:"toName,omitempty"`
	Subject string `json:"subject"`
	HTML    string `json:"html"`
	Text    string `json:"text"`
	Lang    string `json:"lang"`
}

// Composer turns drafts into outbox messages.
type Composer struct {
	// PublicURL is the store's public URL (CHECKOUT_PUBLIC_URL): every link and image of a
	// message must be under it (Compose refuses others), and its host is the right-hand side
	// of the Message-IDs.
	PublicURL string
}

// MaxBody bounds a message's HTML and text together: a receipt is a few kilobytes.
const MaxBody = 256 << 10

// Compose renders d and returns the message to store with the change that causes it (in the
// same transaction: pass it to UpdateOrder through an Announcer, or to the store write that
// makes the change). Its ID is the Message-ID, derived from d.Type, d.Cause and the recipient.
func (c *Composer) Compose(ctx context.Context, d Draft) (checkout.OutboxMessage, error) {
	if d.Type == "" || d.Cause == "" {
		return checkout.OutboxMessage{}, errors.New("mail: a draft needs its type and cause")
	}
	to, err := ParseAddress(d.To.Email)
	if err != nil || to.Name != "" {
		return checkout.OutboxMessage{}, fmt.Errorf("mail: recipient %q: not a bare e-mail address", d.To.Email)
	}
	if d.HTML == nil || strings.TrimSpace(d.Text) == "" {
		return checkout.OutboxMessage{}, errors.New("mail: a draft needs both its HTML and its text")
	}
	var html bytes.Buffer
	if err := d.HTML.Render(ctx, &html); err != nil {
		return checkout.OutboxMessage{}, fmt.Errorf("mail: rendering %s: %w", d.Type, err)
	}
	if err := c.checkLinks(html.Bytes()); err != nil {
		return checkout.OutboxMessage{}, fmt.Errorf("mail: %s: %w", d.Type, err)
	}
	if html.Len()+len(d.Text) > MaxBody {
		return checkout.OutboxMessage{}, fmt.Errorf("mail: %s is %d bytes, above %d", d.Type, html.Len()+len(d.Text), MaxBody)
	}
	lang := d.Lang
	if lang != "en" {
		lang = "pt-BR"
	}
	body, err := json.Marshal(Content{To: to.Email, ToName: OneLine(d.To.Name), Subject: OneLine(d.Subject), HTML: html.String(),
		Text: d.Text, Lang: lang})
	if err != nil {
		return checkout.OutboxMessage{}, fmt.Errorf("mail: encoding %s: %w", d.Type, err)
	}
	return checkout.OutboxMessage{ID: MessageID(d.Type, d.Cause, to.Email, c.domain()), OrderID: d.OrderID, UserID: d.UserID, ChargeID: d.ChargeID,
		Channel: checkout.ChannelMail, To: strings.ToLower(to.Email), Type: d.Type, Payload: body, CreatedAt: d.At.UTC(), NotBefore: d.NotBefore}, nil
}

// domain is the Message-IDs' right-hand side: the public URL's host.
func (c *Composer) domain() string {
	u, err := url.Parse(c.PublicURL)
	if err != nil || u.Hostname() == "" {
		return "localhost"
	}
	return u.Hostname()
}

// checkLinks refuses HTML with a link, image or other resource outside the public URL (a
// mailto: link aside): no tracking pixel, no remote image, no link elsewhere.
func (c *Composer) checkLinks(doc []byte) error {
	base := strings.TrimSuffix(c.PublicURL, "/") + "/"
	z := html.NewTokenizer(bytes.NewReader(doc))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return nil
			}
			return fmt.Errorf("reading the HTML: %w", z.Err())
		case html.StartTagToken, html.SelfClosingTagToken:
			if _, attrs := z.TagName(); !attrs {
				continue
			}
			for {
				k, v, more := z.TagAttr()
				switch string(k) {
				case "href", "src", "srcset", "background", "action", "poster", "data":
					ref := string(v)
					if !strings.HasPrefix(ref, base) && ref+"/" != base && !strings.HasPrefix(ref, "mailto:") {
						return fmt.Errorf("%s=%q is not under the public URL %s", k, ref, base)
					}
				case "style":
					return errors.New("an inline style: e-mails carry none")
				}
				if !more {
					break
				}
			}
		}
	}
}

// MessageID is the Message-ID (without its angle brackets) of the message of type typ caused by
// cause, to addr: the same inputs give the same id, so every copy of a message, and every
// attempt to make it again, carries one id.
func MessageID(typ, cause, addr, domain string) string {
	if domain == "" {
		domain = "localhost"
	}
	sum := sha256.Sum256([]byte(typ + "\x00" + cause + "\x00" + strings.ToLower(addr)))
	local := atext(typ) + "." + atext(cause)
	if len(local) > 40 {
		local = local[:40]
	}
	return local + "." + hex.EncodeToString(sum[:8]) + "@" + atext(domain)
}

// atext keeps the characters a Message-ID's parts may hold unquoted (letters, digits, . _ -).
func atext(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, s)
}

// OneLine returns s as one header-safe line: line breaks and other control characters become
// spaces, runs of spaces one. A header can never be injected through a name or a subject.
func OneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	return strings.Join(strings.Fields(s), " ")
}

func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

// ContentOf reads the content the outbox keeps of an e-mail.
func ContentOf(body []byte) (Content, error) {
	var c Content
	if err := json.Unmarshal(body, &c); err != nil {
		return Content{}, fmt.Errorf("mail: reading a stored message: %w", err)
	}
	return c, nil
}
