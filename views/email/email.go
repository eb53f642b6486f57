// Package email holds the e-mails' templ components: one per kind of message, each in the
// common Layout, and the plain-text alternative of each as a Go function. Like every view they
// take view models and do no I/O; package checkout/mail composes and sends what they render.
//
// An e-mail has no styles (inline styles are what the dashboard's Content-Security-Policy
// refuses, and a plain document reads well in every client), no tracking pixel, and no image
// or link but to the store's public URL (Frame.URL makes them; mail.Composer refuses others).
package email

import (
	"strings"

	"github.com/pixcheckout/pixcheckout/views"
)

// Frame is what every e-mail needs besides its own content.
type Frame struct {
	Lang         views.Lang
	StoreName    string
	PublicURL    string     // the store's public URL; every link and image is under it
	Logo         views.Logo // the store's logo, its picture under PublicURL; none when its Key is ""
	SupportEmail string     // the Reply-To; the footer says replies reach it
	Subject      string     // the message's subject, its HTML title
}

// URL is path (with its query) under the public URL.
func (f Frame) URL(path string) string {
	return strings.TrimSuffix(f.PublicURL, "/") + "/" + strings.TrimPrefix(path, "/")
}

// T is the text of key in the frame's language.
func (f Frame) T(key string, args ...any) string { return views.T(f.Lang, key, args...) }

// TextFooter is the plain-text footer every text alternative ends with.
func TextFooter(f Frame) string {
	var b strings.Builder
	b.WriteString("\n-- \n")
	b.WriteString(f.StoreName + "\n" + f.URL("/") + "\n")
	if f.SupportEmail != "" {
		b.WriteString(f.T("email.reply_reaches", f.SupportEmail) + "\n")
	}
	return b.String()
}

// TestText is the plain text of the test e-mail.
func TestText(f Frame) string {
	return f.T("email.test.heading") + "\n\n" + f.T("email.test.body", f.StoreName) + "\n" + TextFooter(f)
}
