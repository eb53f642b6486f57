// Package chargemail makes the e-mail reminders of a charge with a due date: its Announcer is
// one of the charges' Manager's announcers, so that when a charge is made (from the dashboard,
// the API or any later path that goes through charges.Manager) every step of the merchant's
// schedule is written, in the charge's creation transaction, as an outbox message due at its
// moment (the outbox's NotBefore: 09:00 São Paulo time of its day, on the injected clock). A
// partial payment writes the pending ones again with the balance (Announcer.Announce).
//
// Each reminder is once per charge and step: its Message-ID comes from the charge's id and the
// step's name, and the outbox stores a Message-ID once. None is sent once the charge is paid or
// canceled: the store gives up the charge's pending e-mails in the transaction that makes it
// final (sqlstore.Store.UpdateCharge), so no instance claims one afterwards.
package chargemail

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
)

// Type is the outbox type of a charge's reminders.
const Type = "charge.reminder"

// Cause is the cause of the reminder of step of charge chargeID: "{chargeID}.{step}", so that
// each step of a charge has one Message-ID.
func Cause(chargeID, step string) string { return chargeID + "." + step }

// Announcer makes the reminders of a charge when it is made (a charges.Announcer).
type Announcer struct {
	// Composer turns the drafts into outbox messages.
	Composer *mail.Composer
	// Schedule gives the merchant's schedule (settings.Manager.ChargeReminders); nil: the
	// default (charges.DefaultReminders).
	Schedule func(ctx context.Context) (charges.Reminders, error)
	// Face gives the store and its payee as the merchant last saved them (the dashboard's
	// "Loja"), as the shopper's e-mails show them.
	Face func(ctx context.Context) (store email.Frame, payee views.Merchant, err error)
	// Wake, when set, is called once messages are stored (the e-mails' outbox's Wake): the
	// issue's reminder goes at once.
	Wake func()
}

var _ charges.Announcer = (*Announcer)(nil)

// Announce returns the reminders of c when e is its creation (its first event), and their new
// contents when e is a partial payment; nothing for any other change.
//
// A reminder tells the balance of its day, so a partial payment (an expired QR code paid on a
// later day, short of that day's amount) would leave the reminders written at the creation
// asking the whole amount. They are written again, in the payment's transaction, each in place
// of the pending one with its Message-ID (checkout.OutboxMessage.Replace): what the e-mail log
// keeps stays what is sent, and a reminder already sent or given up is left as it was. The
// steps are those of the merchant's schedule from the charge's creation, which are the steps
// written then unless the schedule changed since: a step only an earlier schedule had keeps
// the amount it was written with.
func (a *Announcer) Announce(ctx context.Context, c *charges.Charge, e charges.Event) ([]checkout.OutboxMessage, error) {
	replace := e.Reason == charges.ReasonPartiallyPaid
	if (e.Version != 1 && !replace) || a.Composer == nil || c.Status.Final() {
		return nil, nil
	}
	to, err := mail.ParseAddress(c.Customer.Email)
	if err != nil || to.Name != "" {
		// charges.Input.Validate requires an address; one the mail's stricter reader refuses
		// gets no reminder rather than no charge.
		return nil, nil //nolint:nilerr // a charge without a usable address has no reminders
	}
	sched := charges.DefaultReminders()
	if a.Schedule != nil {
		if sched, err = a.Schedule(ctx); err != nil {
			return nil, fmt.Errorf("chargemail: reading the reminders' schedule: %w", err)
		}
	}
	var f email.Frame
	var payee views.Merchant
	if a.Face != nil {
		if f, payee, err = a.Face(ctx); err != nil {
			return nil, fmt.Errorf("chargemail: reading the store's face: %w", err)
		}
	}
	f.Lang = views.PtBR
	if l, ok := views.ParseLang(sched.Lang); ok {
		f.Lang = l
	}
	steps := sched.Steps(c.Terms.Due, c.CreatedAt)
	out := make([]checkout.OutboxMessage, 0, len(steps))
	for _, s := range steps {
		m := Reminder(f, payee, c, s)
		f.Subject = m.Subject
		msg, err := a.Composer.Compose(ctx, mail.Draft{Type: Type, Cause: Cause(c.ID, s.Name),
			To: mail.Address{Name: c.Customer.Name, Email: to.Email}, Lang: string(f.Lang), Subject: m.Subject,
			HTML: email.News(f, m.NewsMail), Text: email.NewsText(f, m.NewsMail), ChargeID: c.ID, At: e.At, NotBefore: s.At})
		if err != nil {
			return nil, fmt.Errorf("chargemail: charge %s, step %s: %w", c.ID, s.Name, err)
		}
		msg.Replace = replace
		out = append(out, msg)
	}
	return out, nil
}

// Announced wakes the e-mails' outbox.
func (a *Announcer) Announced() {
	if a.Wake != nil {
		a.Wake()
	}
}

// Message is a reminder's subject and content.
type Message struct {
	Subject string
	email.NewsMail
}

// Reminder is the reminder of step s of c, in f's language and name, from payee: what c asks
// on the step's day, line by line (the principal, the discount, the fine, the interest), its
// total, the due date, the terms still ahead, and the link to the charge's page (/c/{id}),
// which asks the amount of the day it is opened (a QR code could not stay valid until then).
func Reminder(f email.Frame, payee views.Merchant, c *charges.Charge, s charges.ReminderStep) Message {
	money := func(v charges.Cents) string { return views.FormatMoney(f.Lang, v) }
	day := func(d charges.Date) string { return views.FormatDay(f.Lang, d.String()) }
	due := c.Terms.On(s.Day)
	balance := max(due.Total-c.Paid, 0)
	who := cmp.Or(strings.TrimSpace(payee.LegalName), f.StoreName)
	kind := "before"
	switch {
	case s.Name == charges.StepIssued:
		kind = "issued"
	case s.Day == c.Terms.Due:
		kind = "due"
	case s.DaysToDue(c.Terms.Due) < 0:
		kind = "overdue"
	}
	var subject string
	switch kind {
	case "issued":
		subject = f.T("email.charge.subject.issued", f.StoreName, money(balance), day(c.Terms.Due))
	case "due":
		subject = f.T("email.charge.subject.due", f.StoreName, money(balance))
	case "overdue":
		subject = f.T("email.charge.subject.overdue", f.StoreName, day(c.Terms.Due))
	default:
		subject = f.T("email.charge.subject.before", f.StoreName, day(c.Terms.Due))
	}
	m := Message{Subject: subject}
	m.Heading, m.Name = f.T("email.charge.heading."+kind), c.Customer.Name
	m.Paragraphs = []string{f.T("email.charge.body", who, c.Description)}
	m.Facts = []email.Fact{{Label: f.T("email.charge.due_date"), Value: day(c.Terms.Due)},
		{Label: f.T("charge.amount"), Value: money(due.Amount)}}
	if due.Discount > 0 {
		m.Facts = append(m.Facts, email.Fact{Label: f.T("charge.discount", day(c.Terms.Discount.Until)), Value: "− " + money(due.Discount)})
	}
	if due.Fine > 0 {
		m.Facts = append(m.Facts, email.Fact{Label: f.T("charge.fine"), Value: money(due.Fine)})
	}
	if due.Interest > 0 {
		key := "charge.interest_other"
		if due.DaysLate == 1 {
			key = "charge.interest_one"
		}
		m.Facts = append(m.Facts, email.Fact{Label: f.T(key, due.DaysLate), Value: money(due.Interest)})
	}
	if c.Paid > 0 {
		m.Facts = append(m.Facts, email.Fact{Label: f.T("charge.paid"), Value: "− " + money(c.Paid)})
	}
	m.Facts = append(m.Facts, email.Fact{Label: f.T("email.charge.total_on", day(s.Day)), Value: money(balance)})
	m.Paragraphs = append(m.Paragraphs, terms(f, c, s)...)
	m.Paragraphs = append(m.Paragraphs, f.T("email.charge.page_hint"))
	m.Links = []email.Link{{URL: f.URL("/c/" + c.ID), Text: f.T("email.charge.pay_link")}}
	return m
}

// terms says the discount still ahead on the step's day, and the fine and interest of paying
// late, when the step is on or before the due date.
func terms(f email.Frame, c *charges.Charge, s charges.ReminderStep) []string {
	t := c.Terms
	var out []string
	if !t.Discount.IsZero() && charges.DaysBetween(s.Day, t.Discount.Until) >= 0 {
		off := views.FormatMoney(f.Lang, t.Discount.Amount)
		if t.Discount.Bps > 0 {
			off = views.FormatRate(f.Lang, t.Discount.Bps)
		}
		out = append(out, f.T("email.charge.discount_terms", views.FormatDay(f.Lang, t.Discount.Until.String()), off))
	}
	if s.DaysToDue(t.Due) < 0 {
		return out
	}
	switch {
	case t.FineBps > 0 && t.InterestBpsPerMonth > 0:
		out = append(out, f.T("email.charge.late_terms", views.FormatRate(f.Lang, t.FineBps), views.FormatRate(f.Lang, t.InterestBpsPerMonth)))
	case t.FineBps > 0:
		out = append(out, f.T("email.charge.fine_terms", views.FormatRate(f.Lang, t.FineBps)))
	case t.InterestBpsPerMonth > 0:
		out = append(out, f.T("email.charge.interest_terms", views.FormatRate(f.Lang, t.InterestBpsPerMonth)))
	}
	return out
}
