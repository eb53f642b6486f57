package checkout

import (
	"context"
	"time"
)

// CheckFormField runs every rule the order form's field (a Field* name: FieldDocument,
// FieldEmail, FieldZipCode…) is checked with when an order is placed, on value alone, with
// every other field of a physical order valid. It returns the code of the field's first
// violation — the one the form shows — or "" when the value passes.
//
// It is the server's verdict on one field, through the same path as PlaceOrder (normalising,
// the text rule, the checkout's rules on the customer, the gateway's rules on the transaction
// request), so that the page's checks as the shopper types (static/files/form.js) can be
// tested against it over one table of values (testdata/fieldchecks.json).
func CheckFormField(field, value string) string {
	typed := Customer{Name: "Maria da Silva", Document: "529.982.247-25", Email: "maria@example.com.br", Phone: "(11) 98765-4321"}
	addr := Address{ZipCode: "01310-100", Street: "Avenida Paulista", Number: "1000", Neighborhood: "Bela Vista",
		City: "São Paulo", State: "SP"}
	switch field {
	case FieldName:
		typed.Name = value
	case FieldDocument:
		typed.Document = value
	case FieldEmail:
		typed.Email = value
	case FieldPhone:
		typed.Phone = value
	case FieldZipCode:
		addr.ZipCode = value
	case FieldStreet:
		addr.Street = value
	case FieldNumber:
		addr.Number = value
	case FieldComplement:
		addr.Complement = value
	case FieldNeighborhood:
		addr.Neighborhood = value
	case FieldCity:
		addr.City = value
	case FieldState:
		addr.State = value
	}
	s := &Service{now: time.Now, expiration: 1800, newID: NewID}
	line := OrderLine{ProductID: "p", Title: "Produto", UnitPrice: 1000, Quantity: 1, Physical: true}
	src := &Source{Channel: ChannelShop, ID: "c", Lines: []OrderLine{line}}
	o := s.newOrder(src, PlaceOrderInput{RequestKey: NewID(), Customer: typed, Address: &addr})
	fe := s.checkOrder(&ValidationError{}, typed, o, s.request(context.Background(), o, o.CurrentAttempt()))
	if fe != nil {
		for _, v := range fe.Violations {
			if FormField(v.Field) == field {
				return v.Code
			}
		}
	}
	return ""
}
