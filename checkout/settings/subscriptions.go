package settings

import (
	"context"
	"fmt"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

// FieldSubscriptionLeadDays names the days before its due date a subscription's charge is
// issued, in the settings form.
const FieldSubscriptionLeadDays = "subscription_lead_days"

// SubscriptionLeadDays is how many days before its due date a subscription's charge is
// issued: the merchant's setting, or subscriptions.DefaultLeadDays.
func (m *Manager) SubscriptionLeadDays(ctx context.Context) (int, error) {
	s, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return 0, fmt.Errorf("settings: reading settings: %w", err)
	}
	if s.SubscriptionLeadDays <= 0 {
		return subscriptions.DefaultLeadDays, nil
	}
	return s.SubscriptionLeadDays, nil
}

// UpdateSubscriptionLeadDays sets how many days before its due date a subscription's charge is
// issued (1 to subscriptions.MaxLeadDays); a charge issued already keeps its day.
func (m *Manager) UpdateSubscriptionLeadDays(ctx context.Context, days int) error {
	if days < 1 || days > subscriptions.MaxLeadDays {
		fe := &checkout.ValidationError{}
		fe.Add(FieldSubscriptionLeadDays, gatewayclient.CodeMax, fmt.Sprintf("must be between 1 and %d days", subscriptions.MaxLeadDays))
		return fe.Err()
	}
	cur, err := m.store.MerchantSettings(ctx)
	if err != nil {
		return fmt.Errorf("settings: reading settings: %w", err)
	}
	cur.SubscriptionLeadDays = days
	cur.UpdatedAt = m.now().UTC()
	if err := m.store.SaveMerchantSettings(ctx, cur); err != nil {
		return fmt.Errorf("settings: saving settings: %w", err)
	}
	m.forget()
	return nil
}
