package decode

import (
	"errors"
	"fmt"
	"strconv"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
)

// CreateTransactionRequest reads the JSON body of POST /transaction as the gateway does. It
// tells the two kinds of 422 apart:
//
//   - a *gc.ValidationError of Kind KindInvalidData when the data cannot be read as the API's
//     types: the body is not one JSON object (CodeJSON, or CodeType for another JSON value), a
//     field has the wrong JSON type (amount "10" or true: CodeType; amount 1.5 or 1e3:
//     CodeInteger), a required field is missing or null (CodeRequired), paymentMethod is not
//     a known value (CodeEnum), or birthdate is not an ISO date (CodeFormat). Every such
//     violation is reported at once, and the request returned is the zero value;
//   - otherwise the request is validated with Validate, and a failure is returned as its
//     *gc.ValidationError of Kind KindValidation, together with the request as decoded.
//
// The body is read with gatewayclient/strictjson. A key given twice in one object
// ({"amount":1990,"amount":1}) is a CodeDuplicate violation for each repetition, since which
// of the two the sender meant cannot be known and parsers disagree on it; a body nesting
// arrays and objects deeper than strictjson.MaxDepth is a CodeJSON violation, refused at that
// depth. Field names are matched exactly (the spec says they are case-sensitive) and unknown
// fields are ignored. email, landline, mobilePhone and birthdate, declared as objects by the
// spec, are read as strings. An integer too large for its Go type is read as the largest value
// of that type, so that Validate reports it as above the maximum. An empty items array and an
// empty metadata object decode as absent. Defaults are not applied (see WithDefaults). The
// caller limits the size of body.
func CreateTransactionRequest(body []byte) (gc.CreateTransactionRequest, error) {
	var r gc.CreateTransactionRequest
	top, err := strictjson.Parse(body)
	if err != nil {
		return r, unreadable(err)
	}
	d := &reader{}
	if top.Kind() != strictjson.Object {
		d.Add("", gc.CodeType, "the body must be a JSON object")
		return r, d.err()
	}
	if v, ok := d.Cents("amount", d.required("amount", top.Get("amount"))); ok {
		r.Amount = v
	}
	r.PaymentMethod = d.paymentMethod(top.Get("paymentMethod"))
	r.WebhookURL = d.str("webhookUrl", top.Get("webhookUrl"), false)
	r.ExternalCode = d.str("externalCode", top.Get("externalCode"), false)
	r.IdempotencyKey = d.str("idempotencyKey", top.Get("idempotencyKey"), true)
	if m, ok := d.Object("customer", top.Get("customer")); ok {
		r.Customer = d.customer(m)
	}
	if m, ok := d.Object("seller", top.Get("seller")); ok {
		r.Seller = &gc.Seller{
			Name:     d.str("seller.name", m.Get("name"), true),
			Document: d.str("seller.document", m.Get("document"), true),
		}
	}
	if b, ok := d.Bool("isInfoProduct", top.Get("isInfoProduct")); ok {
		r.IsInfoProduct = gc.Ptr(b)
	}
	if m, ok := d.Object("address", top.Get("address")); ok {
		r.Address = d.address(m)
	}
	r.Items = d.items(top.Get("items"))
	if m, ok := d.Object("metadata", top.Get("metadata")); ok && len(m.Members()) > 0 {
		// Numbers keep their text (json.Number), so that no value is rounded.
		r.Metadata = m.Any().(map[string]any)
	}
	if m, ok := d.Object("pix", top.Get("pix")); ok {
		r.Pix = d.pix(m)
	}
	if err := d.err(); err != nil {
		return gc.CreateTransactionRequest{}, err
	}
	return r, r.Validate()
}

// paymentMethod reads the request's paymentMethod, "" when it is missing or not one.
func (d *reader) paymentMethod(pm strictjson.Value) gc.PaymentMethod {
	switch s := d.str("paymentMethod", pm, true); s {
	case "":
		// d.str reported a missing or non-string value; an empty string is missing too.
		if pm.Kind() == strictjson.String {
			d.Add("paymentMethod", gc.CodeRequired, "is required")
		}
	case string(gc.PaymentMethodPIX):
		return gc.PaymentMethodPIX
	default:
		d.Add("paymentMethod", gc.CodeEnum, "must be one of: PIX")
	}
	return ""
}

// pix reads the request's pix object m.
func (d *reader) pix(m strictjson.Value) *gc.PixRequest {
	p := &gc.PixRequest{}
	if v, ok := d.Int("pix.expirationSeconds", m.Get("expirationSeconds"), strconv.IntSize); ok {
		p.ExpirationSeconds = gc.Ptr(int(v))
	}
	return p
}

// unreadable is the KindInvalidData error of a body strictjson.Parse refused.
func unreadable(err error) error {
	vs := gc.ValidationError{Kind: gc.KindInvalidData}
	var je *strictjson.Error
	switch {
	case !errors.As(err, &je) || je.Problem == strictjson.Syntax || je.Problem == strictjson.Trailing:
		vs.Add("", gc.CodeJSON, "the body is not valid JSON")
	case je.Problem == strictjson.TooDeep:
		vs.Add(je.Path, gc.CodeJSON, fmt.Sprintf("nests arrays and objects deeper than %d levels", strictjson.MaxDepth))
	default: // Duplicate
		for _, path := range je.Duplicates {
			vs.Add(path, gc.CodeDuplicate, "is given more than once")
		}
	}
	return vs.Err()
}

// reader reads the request's fields, collecting KindInvalidData violations.
type reader struct {
	strictjson.Reader
}

// err returns the violations as a KindInvalidData error, or nil.
func (d *reader) err() error {
	d.Kind = gc.KindInvalidData
	return d.Err()
}

// required returns v, adding a CodeRequired violation when it is missing or null.
func (d *reader) required(path string, v strictjson.Value) strictjson.Value {
	if v.Missing() {
		d.Add(path, gc.CodeRequired, "is required")
	}
	return v
}

// str reads a string; a missing or null value is "" and, when required, a CodeRequired
// violation.
func (d *reader) str(path string, v strictjson.Value, required bool) string {
	if required {
		d.required(path, v)
	}
	return d.String(path, v)
}

// customer reads the customer object.
func (d *reader) customer(m strictjson.Value) *gc.Customer {
	c := &gc.Customer{
		IP:          d.str("customer.ip", m.Get("ip"), false),
		Name:        d.str("customer.name", m.Get("name"), true),
		Document:    d.str("customer.document", m.Get("document"), true),
		Email:       d.str("customer.email", m.Get("email"), false),
		Landline:    d.str("customer.landline", m.Get("landline"), false),
		MobilePhone: d.str("customer.mobilePhone", m.Get("mobilePhone"), false),
	}
	// An empty birthdate is read as absent, as for the other optional texts.
	if s := d.str("customer.birthdate", m.Get("birthdate"), false); s != "" {
		bd, err := gc.ParseDate(s)
		if err != nil {
			d.Add("customer.birthdate", gc.CodeFormat, "must be an ISO date (YYYY-MM-DD)")
		}
		c.Birthdate = bd
	}
	return c
}

// address reads the address object; every field but complement is required.
func (d *reader) address(m strictjson.Value) *gc.Address {
	return &gc.Address{
		ZipCode:      d.str("address.zipCode", m.Get("zipCode"), true),
		Complement:   d.str("address.complement", m.Get("complement"), false),
		Number:       d.str("address.number", m.Get("number"), true),
		Street:       d.str("address.street", m.Get("street"), true),
		Neighborhood: d.str("address.neighborhood", m.Get("neighborhood"), true),
		City:         d.str("address.city", m.Get("city"), true),
		State:        d.str("address.state", m.Get("state"), true),
		Country:      d.str("address.country", m.Get("country"), true),
	}
}

// items reads the items array; an empty array is absent.
func (d *reader) items(v strictjson.Value) []gc.Item {
	var items []gc.Item
	for i, e := range d.Array("items", v) {
		p := "items[" + strconv.Itoa(i) + "]"
		m, ok := d.Object(p, e)
		if !ok {
			if e.Kind() == strictjson.Null {
				d.Add(p, gc.CodeType, "must be an object")
			}
			continue
		}
		it := gc.Item{
			Title:       d.str(p+".title", m.Get("title"), true),
			Description: d.str(p+".description", m.Get("description"), false),
		}
		if v, ok := d.Cents(p+".unitPrice", d.required(p+".unitPrice", m.Get("unitPrice"))); ok {
			it.UnitPrice = v
		}
		if v, ok := d.Int(p+".quantity", m.Get("quantity"), strconv.IntSize); ok {
			it.Quantity = gc.Ptr(int(v))
		}
		items = append(items, it)
	}
	return items
}
