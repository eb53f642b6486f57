package checkout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// Sale is what a cashier charges at the point of sale (ChannelPOS), the checkout source of a
// sale: an amount typed on the keypad with an optional description, or products of the
// catalogue; at a terminal, by a cashier (a dashboard user). Which terminals a cashier may use
// is the caller's to check (package checkout/pos).
type Sale struct {
	Terminal string // the terminal's id
	Cashier  string // the dashboard user's id
	// Amount and Description are a keypad sale's: sent to the gateway as a service
	// (isInfoProduct true). Ignored when Items is not empty.
	Amount      Cents
	Description string
	// Items are products of the catalogue, handed over at the counter.
	Items []SaleItem
	// Customer is who pays, only when the cashier adds a CPF for the receipt (name and
	// document; the gateway's customer needs both): otherwise none is sent.
	Customer Customer
	// Counter is the store's address, where the physical products of Items are handed over:
	// the gateway asks an address of every physical sale.
	Counter *Address
}

// SaleItem is a product of the catalogue in a sale, and how many.
type SaleItem struct {
	Product  ProductID
	Quantity int
}

// Fields of the point of sale's form, as violations name them.
const (
	FieldSaleAmount      = "amount"
	FieldSaleDescription = "description"
	FieldSaleItems       = "items"
)

// MaxSaleDescription is the longest description of a keypad sale (the gateway's item title).
const MaxSaleDescription = 150

// SaleTitle is the title of a keypad sale's item when the cashier typed no description.
const SaleTitle = "Venda no caixa"

// posRequestKeyPart scopes the request keys of sales by their terminal.
const posRequestKeyPart = "pos:"

// saleSource is the checkout source of sale: one line of its amount (a keypad sale) or its
// products, priced from the catalogue.
func (s *Service) saleSource(ctx context.Context, sale *Sale) (*Source, error) {
	if sale == nil || sale.Terminal == "" {
		return nil, fieldError("terminal", CodeRequired, "choose a terminal")
	}
	src := &Source{Channel: ChannelPOS, ID: sale.Terminal, NotAsked: []string{FieldEmail, FieldPhone}, sale: sale}
	if len(sale.Items) == 0 {
		return s.keypadSource(src, sale)
	}
	fe := &ValidationError{Kind: gatewayclient.KindValidation}
	for i, it := range sale.Items {
		p, err := s.store.Product(ctx, it.Product)
		switch {
		case errors.Is(err, ErrNotFound) || (err == nil && !p.Active):
			fe.Add(fmt.Sprintf("items[%d]", i), CodeEnum, "is not a product on sale")
			continue
		case err != nil:
			return nil, fmt.Errorf("checkout: a sale's product %s: %w", it.Product, err)
		}
		if it.Quantity < MinQuantity || it.Quantity > MaxQuantity {
			fe.Add(fmt.Sprintf("items[%d].quantity", i), CodeRange, fmt.Sprintf("must be %d to %d", MinQuantity, MaxQuantity))
			continue
		}
		src.Lines = append(src.Lines, OrderLine{ProductID: p.ID, Title: p.Title, UnitPrice: p.UnitPrice,
			Quantity: it.Quantity, Physical: p.Physical, Image: p.Image})
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return src, nil
}

// keypadSource is the source of a keypad sale: one line of the amount typed, described.
func (s *Service) keypadSource(src *Source, sale *Sale) (*Source, error) {
	fe := &ValidationError{Kind: gatewayclient.KindValidation}
	if sale.Amount < gatewayclient.MinAmount || sale.Amount > gatewayclient.MaxAmount {
		fe.Add(FieldSaleAmount, CodeRange, "must be R$ 0,01 to R$ 100.000,00")
	}
	title := strings.Join(strings.Fields(sale.Description), " ")
	switch n := utf8.RuneCountInString(title); {
	case n == 0:
		title = SaleTitle
	case n < 2:
		fe.Add(FieldSaleDescription, CodeMinLength, "must have at least 2 characters")
	case n > MaxSaleDescription:
		fe.Add(FieldSaleDescription, CodeMaxLength, fmt.Sprintf("must have at most %d characters", MaxSaleDescription))
	}
	if err := fe.Err(); err != nil {
		return nil, err
	}
	src.Title = title
	src.Lines = []OrderLine{{Title: title, UnitPrice: sale.Amount, Quantity: 1}}
	return src, nil
}

// saleOrder completes order o of a sale: its terminal and cashier, the counter as the address
// of its physical products, and no customer unless the cashier gave one.
func saleOrder(o *Order, sale *Sale) {
	o.TerminalID, o.CashierID = sale.Terminal, sale.Cashier
	if o.Physical && sale.Counter != nil {
		a := normalizeAddress(*sale.Counter)
		o.Address = &a
	}
}
