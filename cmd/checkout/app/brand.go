package app

import (
	"context"
	"fmt"

	"github.com/pixcheckout/pixcheckout/checkout/brand"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// seedStoreFace makes the store's face (package brand): the configuration's name, payee and
// contact are stored at the first start, a new install's initial values; from then on the
// dashboard's "Loja" page is the source. On PostgreSQL the change feed tells this instance of
// the others' saves.
func (s *start) seedStoreFace(ctx context.Context) error {
	a := s.App
	a.brand = brand.NewManager(a.store, initialProfile(a.cfg), a.clock)
	if err := a.brand.Seed(ctx); err != nil {
		return fmt.Errorf("app: %w", err)
	}
	if pg, ok := a.store.(*postgres.Store); ok {
		pg.OnStoreProfile(a.brand.Forget)
		pg.OnTerminal(a.svc.TerminalChanged) // the customers' displays of the point of sale
	}
	return nil
}

// initialProfile is the store's face of the configuration, with a demo shop's payee and
// contact in sandbox mode.
func initialProfile(cfg Config) brand.Profile {
	m := merchantProfile(cfg)
	return brand.Profile{Name: cfg.MerchantName, LegalName: m.LegalName, Document: m.Document,
		SupportEmail: m.SupportEmail, SupportPhone: m.SupportPhone, SupportURL: m.SupportURL}
}

// seller is the transactions' seller (the payee's legal name and document): the saved store's
// face, read for each new QR code, so that a save applies to the next one.
func (a *App) seller(ctx context.Context) *gatewayclient.Seller {
	p := initialProfile(a.cfg)
	if a.brand != nil {
		var err error
		if p, err = a.brand.Get(ctx); err != nil {
			a.log.WarnContext(ctx, "the store's profile could not be read: the seller sent is the last known", "err", err)
		}
	}
	s := p.Seller()
	if s == nil && p.Document != "" {
		a.log.WarnContext(ctx, "the store's payee name does not pass the gateway's rule: no seller is sent; fix it in the dashboard's store page")
	}
	return s
}

// supportEmail is the e-mails' Reply-To: the store's support e-mail in force.
func (a *App) supportEmail(ctx context.Context) (string, error) {
	if a.brand == nil {
		return initialProfile(a.cfg).SupportEmail, nil
	}
	p, err := a.brand.Get(ctx)
	return p.SupportEmail, err
}

// Brand returns the store's face (package brand): what the dashboard's "Loja" page saves and
// every shopper page reads.
func (a *App) Brand() *brand.Manager { return a.brand }
