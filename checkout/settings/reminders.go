package settings

import (
	"context"
	"fmt"

	"github.com/pixcheckout/pixcheckout/checkout/charges"
)

// Reminders is the schedule of the charges' e-mail reminders in force: as the merchant set
// it, else charges.DefaultReminders.
func (s Settings) Reminders() charges.Reminders {
	if s.ChargeReminders == nil {
		return charges.DefaultReminders()
	}
	return *s.ChargeReminders
}

// ChargeReminders returns the reminders' schedule in force (Settings.Reminders), read at most
// every few seconds as FrameOrigins: it is asked at every charge made. A change made through
// this manager applies at once.
func (m *Manager) ChargeReminders(ctx context.Context) (charges.Reminders, error) {
	s, err := m.recent(ctx)
	if err != nil {
		return charges.Reminders{}, err
	}
	return s.Reminders(), nil
}

// UpdateChargeReminders checks r and stores it as the reminders' schedule of the charges made
// from now on (those made before keep theirs); a bad schedule is a *checkout.ValidationError
// naming charges.FieldReminderBefore or charges.FieldReminderAfter. The other settings are
// kept.
func (m *Manager) UpdateChargeReminders(ctx context.Context, r charges.Reminders) error {
	if ve := r.Validate(); ve != nil {
		return ve
	}
	if r.Lang != "en" {
		r.Lang = "pt-BR"
	}
	cur, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return fmt.Errorf("settings: reading settings: %w", err)
	}
	cur.ChargeReminders = &r
	cur.UpdatedAt = m.now().UTC()
	if err := m.store.SaveMerchantSettings(ctx, cur); err != nil {
		return fmt.Errorf("settings: saving settings: %w", err)
	}
	m.forget()
	return nil
}
