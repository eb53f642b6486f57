package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/mail/shopper"
	"github.com/pixcheckout/pixcheckout/gatewayclient/outbox"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

// mailSide is the e-mail the app wires: the composer that turns drafts into outbox messages,
// the SMTP sender, the outbox's workers of the SMTP channel, the e-mail log, and the shopper's
// e-mails of an order's changes (one of the service's announcers).
type mailSide struct {
	composer *mail.Composer
	shopper  *shopper.Announcer
	sender   *mail.Sender
	outbox   *outbox.Outbox
	log      *mail.Log
	server   *mail.Server // nil without CHECKOUT_SMTP_URL
}

// setupMail builds the e-mail side on the app's store. Validate checked the configuration.
func (a *App) setupMail() error {
	m := &a.mail
	var (
		from mail.Address
		err  error
	)
	if a.cfg.SMTPURL != "" {
		if m.server, err = mail.ParseServer(a.cfg.SMTPURL); err != nil {
			return &ConfigError{"CHECKOUT_SMTP_URL", err.Error()}
		}
	}
	if a.cfg.MailFrom != "" {
		if from, err = mail.ParseFrom(a.cfg.MailFrom); err != nil {
			return &ConfigError{"CHECKOUT_MAIL_FROM", err.Error()}
		}
	}
	log := a.log.With("component", "mail")
	m.sender, err = mail.NewSender(mail.SenderOptions{Server: m.server, From: from, Suppressions: a.store, Clock: a.clock,
		ReplyTo: a.supportEmail, RootCAs: a.cfg.MailRootCAs, Logger: log})
	if err != nil {
		return fmt.Errorf("app: %w", err)
	}
	// A stored message is a copy of personal data: kept 90 days once finished, or less when
	// the personal data's retention is shorter.
	oo := mail.OutboxOptions(m.sender, a.cfg.MailSchedule, min(a.cfg.PersonalDataRetention, mail.DefaultRetention), log)
	oo.Clock = a.clock
	if m.outbox, err = a.store.Outbox(oo); err != nil {
		return fmt.Errorf("app: %w", err)
	}
	m.log = mail.NewLog(m.outbox, a.store)
	m.composer = &mail.Composer{PublicURL: a.cfg.PublicURL}
	profile := merchantProfile(a.cfg)
	m.shopper = &shopper.Announcer{Composer: m.composer, Payee: profile, Sends: a.merchant.settings.SendsShopper, Wake: m.outbox.Wake,
		Store: email.Frame{StoreName: a.cfg.MerchantName, PublicURL: a.cfg.PublicURL, SupportEmail: profile.SupportEmail},
		Face:  a.shopperFace}
	return nil
}

// runMail starts, until ctx ends, the e-mails' sending, after a check that the server answers:
// one that does not is a warning, not a refusal (the messages wait in the outbox).
func (a *App) runMail(ctx context.Context) {
	m := &a.mail
	a.bg.Go(func() {
		if m.server != nil {
			pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			if err := m.sender.Probe(pctx); err != nil && ctx.Err() == nil {
				a.log.Warn("mail: the SMTP server cannot be reached; e-mails wait in the outbox and are retried",
					"server", m.server.String(), "err", err)
			}
			cancel()
		}
		m.outbox.Run(ctx)
		m.sender.Close()
	})
}

// mailBanner says where e-mails go.
func (a *App) mailBanner(w io.Writer, public string) {
	if a.mail.server == nil {
		fmt.Fprintf(w, "  e-mail:          not sent (no CHECKOUT_SMTP_URL): every message is kept in %s/dashboard/mail\n", public)
		return
	}
	fmt.Fprintf(w, "  e-mail:          through %s; the log is at %s/dashboard/mail\n", a.mail.server, public)
}

// MailComposer returns the composer of the e-mails (what orders' and team's messages use).
func (a *App) MailComposer() *mail.Composer { return a.mail.composer }

// MailLog returns the e-mail log.
func (a *App) MailLog() *mail.Log { return a.mail.log }

// MailState is "ok", "failing" or "off", for /readyz.
func (a *App) MailState() string { return a.mail.sender.State() }

// shopperFace is the store as the shopper's e-mails show it: the dashboard's "Loja" settings.
func (a *App) shopperFace(ctx context.Context) (email.Frame, views.Merchant, error) {
	p, err := a.brand.Get(ctx)
	if err != nil {
		return email.Frame{}, views.Merchant{}, fmt.Errorf("app: %w", err)
	}
	return email.Frame{StoreName: p.Name, PublicURL: a.cfg.PublicURL, SupportEmail: p.SupportEmail, Logo: views.StoreLogo(p)},
		views.Merchant{LegalName: p.PayeeName(), Document: p.Document, SupportEmail: p.SupportEmail,
			SupportPhone: p.SupportPhone, SupportURL: p.SupportURL, Address: p.Address}, nil
}

// storeFrame is the store as the team's alerts show it: its saved name and support e-mail.
func (a *App) storeFrame(ctx context.Context) (email.Frame, error) {
	f, _, err := a.shopperFace(ctx)
	return f, err
}

// mailsShopper tells whether the shopper is sent the e-mail of kind: the merchant sends it
// and an SMTP server is configured (without one, messages stay in the e-mail log). A setting
// that cannot be read promises nothing.
func (a *App) mailsShopper(ctx context.Context, kind string) bool {
	if a.mail.server == nil {
		return false
	}
	on, err := a.merchant.settings.SendsShopper(ctx, kind)
	return err == nil && on
}
