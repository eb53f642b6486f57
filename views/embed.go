package views

import "github.com/a-h/templ"

// embedAttrs are the data-embed-* attributes of a checkout session's page, which frame.js
// reads; none outside a session.
func embedAttrs(e Embed) templ.Attributes {
	if e.SessionID == "" {
		return templ.Attributes{}
	}
	a := templ.Attributes{
		"data-embed-session": e.SessionID,
		"data-embed-status":  e.Status,
		"data-embed-view":    e.View,
	}
	for k, v := range map[string]string{"data-embed-origin": e.Origin, "data-embed-order": e.OrderID,
		"data-embed-success-url": e.SuccessURL, "data-embed-cancel-url": e.CancelURL} {
		if v != "" {
			a[k] = v
		}
	}
	return a
}
