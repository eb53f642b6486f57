package charges

import (
	"errors"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// ErrDayEnding: less than a QR code's shortest life (gatewayclient.MinExpirationSeconds) is left
// of the São Paulo day, so no QR code can be made for its amount; the page asks to try again in
// a minute, when the next day's amount applies.
var ErrDayEnding = errors.New("charges: the day's amount can no longer be paid today; try again in a minute")

// Source is the checkout source of c at now: one order of the charge for what it asks that São
// Paulo day (its balance, checkout.ChannelCharge), a service (no address), the charge's
// customer prefilled, paid by a QR code that expires no later than 23:59:59 of that day.
// ErrFinal when c is paid or canceled; ErrDayEnding in the day's last minute.
func (c *Charge) Source(now time.Time) (checkout.Source, error) {
	if c.Status.Final() {
		return checkout.Source{}, ErrFinal
	}
	day := Today(now)
	end := EndOfDay(day)
	if end.Sub(now) < gatewayclient.MinExpirationSeconds*time.Second {
		return checkout.Source{}, ErrDayEnding
	}
	var notAsked []string
	if c.Customer.Phone == "" {
		// The charge was made without one: its order asks for none either.
		notAsked = []string{checkout.FieldPhone}
	}
	return checkout.Source{
		NotAsked: notAsked,
		Channel:  checkout.ChannelCharge, ID: c.ID, Title: c.Description,
		Lines:     []checkout.OrderLine{{Title: c.Description, UnitPrice: c.Balance(day), Quantity: 1}},
		Prefill:   checkout.Customer{Name: c.Customer.Name, Document: c.Customer.Document, Email: c.Customer.Email, Phone: c.Customer.Phone},
		PayBy:     end,
		Reference: c.ExternalCode,
	}, nil
}
