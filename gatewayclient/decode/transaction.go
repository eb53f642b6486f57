package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// CreateTransactionRequest reads the JSON body of POST /transaction as the gateway does,
// for servers that receive it (the sandbox). It tells the two kinds of 422 apart:
//
//   - a *ValidationError of Kind gc.KindInvalidData when the data cannot be read as the API's
//     types: the body is not a JSON object, a field has the wrong JSON type (amount "10" or
//     true: gc.CodeType; amount 1.5 or 1e3: gc.CodeInteger), a required field is missing or null
//     (gc.CodeRequired), paymentMethod is not a known value (gc.CodeEnum), or birthdate is not an
//     ISO date (gc.CodeFormat). Every such violation is reported at once, and the request
//     returned is the zero value;
//   - otherwise the request is validated with Validate, and a failure is returned as its
//     *ValidationError of Kind KindValidation, together with the request as decoded.
//
// Field names are matched exactly (the spec says they are case-sensitive) and unknown fields
// are ignored. A key given twice in one object ({"amount":1990,"amount":1}) is a gc.CodeDuplicate
// violation of Kind gc.KindInvalidData for each repetition: which of the two the sender meant
// cannot be known, and parsers disagree on it. email, landline, mobilePhone and birthdate, declared as objects by the spec,
// are read as strings. An integer too large for its Go type is read as the largest value of
// that type, so that Validate reports it as above the maximum. An empty items array and an
// empty metadata object decode as absent. Defaults are not applied (see WithDefaults). The
// caller limits the size of body.
func CreateTransactionRequest(body []byte) (gc.CreateTransactionRequest, error) {
	d := &jsonDecoder{}
	var r gc.CreateTransactionRequest
	if !json.Valid(body) {
		d.add("", gc.CodeJSON, "the body is not valid JSON")
		return r, d.violations.err(gc.KindInvalidData)
	}
	if jsonKind(body) != "object" {
		d.add("", gc.CodeType, "the body must be a JSON object")
		return r, d.violations.err(gc.KindInvalidData)
	}
	if dups := duplicateKeys(body); len(dups) > 0 {
		for _, path := range dups {
			d.add(path, gc.CodeDuplicate, "is given more than once")
		}
		return r, d.violations.err(gc.KindInvalidData)
	}
	top, ok := d.object("", body)
	if !ok {
		return r, d.violations.err(gc.KindInvalidData)
	}
	if v, ok := d.integer("amount", top, "amount", true, 64); ok {
		r.Amount = gc.Cents(v)
	}
	switch pm := d.str("paymentMethod", top, "paymentMethod", true); pm {
	case "":
		// d.str reported a missing or non-string value; an empty string is missing too.
		if jsonKind(top["paymentMethod"]) == "string" {
			d.add("paymentMethod", gc.CodeRequired, "is required")
		}
	case string(gc.PaymentMethodPIX):
		r.PaymentMethod = gc.PaymentMethodPIX
	default:
		d.add("paymentMethod", gc.CodeEnum, "must be one of: PIX")
	}
	r.WebhookURL = d.str("webhookUrl", top, "webhookUrl", false)
	r.ExternalCode = d.str("externalCode", top, "externalCode", false)
	r.IdempotencyKey = d.str("idempotencyKey", top, "idempotencyKey", true)
	if m, ok := d.object("customer", top["customer"]); ok {
		r.Customer = d.customer(m)
	}
	if m, ok := d.object("seller", top["seller"]); ok {
		r.Seller = &gc.Seller{
			Name:     d.str("seller.name", m, "name", true),
			Document: d.str("seller.document", m, "document", true),
		}
	}
	if raw, present := top["isInfoProduct"]; present {
		switch jsonKind(raw) {
		case "null":
		case "bool":
			r.IsInfoProduct = gc.Ptr(bytes.Equal(raw, []byte("true")))
		default:
			d.add("isInfoProduct", gc.CodeType, "must be a boolean")
		}
	}
	if m, ok := d.object("address", top["address"]); ok {
		r.Address = d.address(m)
	}
	r.Items = d.items(top["items"])
	r.Metadata = d.metadata(top["metadata"])
	if m, ok := d.object("pix", top["pix"]); ok {
		r.Pix = &gc.PixRequest{}
		if v, ok := d.integer("pix.expirationSeconds", m, "expirationSeconds", false, strconv.IntSize); ok {
			r.Pix.ExpirationSeconds = gc.Ptr(int(v))
		}
	}
	if err := d.violations.err(gc.KindInvalidData); err != nil {
		return gc.CreateTransactionRequest{}, err
	}
	return r, r.Validate()
}

// duplicateKeys returns the path of every key that appears again in the same object of the
// valid JSON document body: "amount", "customer.name", "items[1].title".
func duplicateKeys(body []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var dups []string
	// walk reads one value at path. json.Valid has bounded the nesting (10000 levels).
	var walk func(path string) error
	walk = func(path string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := kt.(string)
				p := key
				if path != "" {
					p = path + "." + key
				}
				if seen[key] {
					dups = append(dups, p)
				}
				seen[key] = true
				if err := walk(p); err != nil {
					return err
				}
			}
			_, err = dec.Token() // }
			return err
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
			_, err = dec.Token() // ]
			return err
		}
		return nil
	}
	_ = walk("") // body is valid JSON: no error can come
	return dups
}

// jsonDecoder walks a JSON document value by value, collecting gc.KindInvalidData violations
// instead of stopping at the first.
type jsonDecoder struct {
	violations
}

// jsonKind names the type of a well-formed JSON value from its first byte.
func jsonKind(raw []byte) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "absent"
	}
	switch raw[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// object reads raw as a JSON object. Absent or null gives (nil, false) without a violation
// (optional objects); any other type is a gc.CodeType violation.
func (d *jsonDecoder) object(field string, raw []byte) (map[string]json.RawMessage, bool) {
	switch jsonKind(raw) {
	case "absent", "null":
		return nil, false
	case "object":
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			d.add(field, gc.CodeType, "must be an object")
			return nil, false
		}
		return m, true
	}
	d.add(field, gc.CodeType, "must be an object")
	return nil, false
}

// str reads m[key] as a string. A missing or null value is "" and, when required, a
// gc.CodeRequired violation.
func (d *jsonDecoder) str(field string, m map[string]json.RawMessage, key string, required bool) string {
	raw := m[key]
	switch jsonKind(raw) {
	case "absent", "null":
		if required {
			d.add(field, gc.CodeRequired, "is required")
		}
		return ""
	case "string":
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return s
		}
	}
	d.add(field, gc.CodeType, "must be a string")
	return ""
}

// integer reads m[key] as a JSON integer of bitSize bits: no fraction, no exponent. A value
// out of range is clamped (strconv does so), so that Validate reports it against its limits.
func (d *jsonDecoder) integer(field string, m map[string]json.RawMessage, key string, required bool, bitSize int) (int64, bool) {
	raw := m[key]
	switch jsonKind(raw) {
	case "absent", "null":
		if required {
			d.add(field, gc.CodeRequired, "is required")
		}
		return 0, false
	case "number":
	default:
		d.add(field, gc.CodeType, "must be a number")
		return 0, false
	}
	s := string(bytes.TrimSpace(raw))
	if strings.ContainsAny(s, ".eE") {
		d.add(field, gc.CodeInteger, "must be an integer")
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, bitSize)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		d.add(field, gc.CodeInteger, "must be an integer")
		return 0, false
	}
	return v, true
}

// customer reads the customer object.
func (d *jsonDecoder) customer(m map[string]json.RawMessage) *gc.Customer {
	c := &gc.Customer{
		IP:          d.str("customer.ip", m, "ip", false),
		Name:        d.str("customer.name", m, "name", true),
		Document:    d.str("customer.document", m, "document", true),
		Email:       d.str("customer.email", m, "email", false),
		Landline:    d.str("customer.landline", m, "landline", false),
		MobilePhone: d.str("customer.mobilePhone", m, "mobilePhone", false),
	}
	// An empty birthdate is read as absent, as for the other optional texts.
	if s := d.str("customer.birthdate", m, "birthdate", false); s != "" {
		bd, err := gc.ParseDate(s)
		if err != nil {
			d.add("customer.birthdate", gc.CodeFormat, "must be an ISO date (YYYY-MM-DD)")
		}
		c.Birthdate = bd
	}
	return c
}

// address reads the address object; every field but complement is required.
func (d *jsonDecoder) address(m map[string]json.RawMessage) *gc.Address {
	return &gc.Address{
		ZipCode:      d.str("address.zipCode", m, "zipCode", true),
		Complement:   d.str("address.complement", m, "complement", false),
		Number:       d.str("address.number", m, "number", true),
		Street:       d.str("address.street", m, "street", true),
		Neighborhood: d.str("address.neighborhood", m, "neighborhood", true),
		City:         d.str("address.city", m, "city", true),
		State:        d.str("address.state", m, "state", true),
		Country:      d.str("address.country", m, "country", true),
	}
}

// items reads the items array; an empty array is absent.
func (d *jsonDecoder) items(raw []byte) []gc.Item {
	switch jsonKind(raw) {
	case "absent", "null":
		return nil
	case "array":
	default:
		d.add("items", gc.CodeType, "must be an array")
		return nil
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		d.add("items", gc.CodeType, "must be an array")
		return nil
	}
	var items []gc.Item
	for i, e := range elems {
		p := fmt.Sprintf("items[%d]", i)
		m, ok := d.object(p, e)
		if !ok {
			if jsonKind(e) == "null" {
				d.add(p, gc.CodeType, "must be an object")
			}
			continue
		}
		it := gc.Item{
			Title:       d.str(p+".title", m, "title", true),
			Description: d.str(p+".description", m, "description", false),
		}
		if v, ok := d.integer(p+".unitPrice", m, "unitPrice", true, 64); ok {
			it.UnitPrice = gc.Cents(v)
		}
		if v, ok := d.integer(p+".quantity", m, "quantity", false, strconv.IntSize); ok {
			it.Quantity = gc.Ptr(int(v))
		}
		items = append(items, it)
	}
	return items
}

// metadata reads the free metadata object, keeping numbers as written (json.Number) so that
// no value is rounded; an empty object is absent.
func (d *jsonDecoder) metadata(raw []byte) map[string]any {
	switch jsonKind(raw) {
	case "absent", "null":
		return nil
	case "object":
	default:
		d.add("metadata", gc.CodeType, "must be an object")
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		d.add("metadata", gc.CodeType, "must be an object")
		return nil
	}
	if len(m) == 0 {
		return nil
	}
	return m
}
