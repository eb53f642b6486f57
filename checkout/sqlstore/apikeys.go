package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/apikeys"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/settings"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

var (
	_ apikeys.Store  = (*Store)(nil)
	_ settings.Store = (*Store)(nil)
)

const apiKeyColumns = `id, name, hint, hash, created_at, last_used_at, revoked_at, scope, created_by, last_used_address, personal_data`

// CreateAPIKey stores a new key. A taken id or hash is an error.
func (s *Store) CreateAPIKey(ctx context.Context, k apikeys.Key) error {
	err := s.db.Write(ctx, Stmt{SQL: `INSERT INTO api_keys (` + apiKeyColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		Args: []any{k.ID, k.Name, k.Hint, k.Hash, ms(k.CreatedAt), ms(k.LastUsedAt), ms(k.RevokedAt), string(k.Scope), k.CreatedBy, k.LastUsedAddress, k.PersonalData}})
	if err != nil {
		return s.errorf("storing an API key: %w", err)
	}
	return nil
}

// APIKeyByHash returns the key with that hash, revoked or not, or checkout.ErrNotFound.
func (s *Store) APIKeyByHash(ctx context.Context, hash []byte) (*apikeys.Key, error) {
	var ks []apikeys.Key
	if err := s.db.Read(ctx, readAPIKeys(`WHERE hash = $1`, []any{hash}, &ks)); err != nil {
		return nil, s.errorf("reading an API key: %w", err)
	}
	if len(ks) == 0 {
		return nil, checkout.ErrNotFound
	}
	return &ks[0], nil
}

// APIKeys lists every key, revoked ones included, newest first.
func (s *Store) APIKeys(ctx context.Context) ([]apikeys.Key, error) {
	var ks []apikeys.Key
	if err := s.db.Read(ctx, readAPIKeys(`ORDER BY created_at DESC, id DESC`, nil, &ks)); err != nil {
		return nil, s.errorf("listing API keys: %w", err)
	}
	return ks, nil
}

// RevokeAPIKey marks a key revoked at at; a revoked key keeps its first revocation time.
func (s *Store) RevokeAPIKey(ctx context.Context, id string, at time.Time) error {
	if !s.storable(id) {
		return checkout.ErrNotFound
	}
	found := false
	err := s.db.Write(ctx, Stmt{SQL: `UPDATE api_keys SET revoked_at = CASE WHEN revoked_at = 0 THEN $1 ELSE revoked_at END
		WHERE id = $2`, Args: []any{ms(at), id}, Affected: func(n int64) error { found = n == 1; return nil }})
	if err != nil {
		return s.errorf("revoking an API key: %w", err)
	}
	if !found {
		return checkout.ErrNotFound
	}
	return nil
}

// TouchAPIKey records that a key was used at at from addr (never moving the time back).
func (s *Store) TouchAPIKey(ctx context.Context, id string, at time.Time, addr string) error {
	if err := s.db.Write(ctx, Stmt{SQL: `UPDATE api_keys SET last_used_at = $1, last_used_address = $3 WHERE id = $2 AND last_used_at < $1`,
		Args: []any{ms(at), id, addr}}); err != nil {
		return s.errorf("noting the use of an API key: %w", err)
	}
	return nil
}

// SetMakerKeysPersonalData gives or takes the personal-data right of the active keys made by
// createdBy, and returns the keys it changed.
func (s *Store) SetMakerKeysPersonalData(ctx context.Context, createdBy string, on bool) ([]apikeys.Key, error) {
	var ks []apikeys.Key
	st := readAPIKeys("", nil, &ks)
	st.SQL = `UPDATE api_keys SET personal_data = $1 WHERE created_by = $2 AND revoked_at = 0 AND personal_data <> $1
		RETURNING ` + apiKeyColumns
	st.Args = []any{on, createdBy}
	if err := s.db.Write(ctx, st); err != nil {
		return nil, s.errorf("changing the rights of API keys: %w", err)
	}
	return ks, nil
}

// RevokeMakerKeys revokes at at the active keys made by createdBy, and returns them.
func (s *Store) RevokeMakerKeys(ctx context.Context, createdBy string, at time.Time) ([]apikeys.Key, error) {
	var ks []apikeys.Key
	st := readAPIKeys("", nil, &ks)
	st.SQL = `UPDATE api_keys SET revoked_at = $1 WHERE created_by = $2 AND revoked_at = 0 RETURNING ` + apiKeyColumns
	st.Args = []any{ms(at), createdBy}
	if err := s.db.Write(ctx, st); err != nil {
		return nil, s.errorf("revoking API keys: %w", err)
	}
	return ks, nil
}

func readAPIKeys(tail string, args []any, out *[]apikeys.Key) Stmt {
	return Stmt{SQL: `SELECT ` + apiKeyColumns + ` FROM api_keys ` + tail, Args: args, Rows: each(func(r Rows) error {
		var k apikeys.Key
		var created, used, revoked int64
		var scope string
		if err := r.Scan(&k.ID, &k.Name, &k.Hint, &k.Hash, &created, &used, &revoked, &scope, &k.CreatedBy, &k.LastUsedAddress, &k.PersonalData); err != nil {
			return fmt.Errorf("reading API keys: %w", err)
		}
		k.CreatedAt, k.LastUsedAt, k.RevokedAt, k.Scope = fromMS(created), fromMS(used), fromMS(revoked), apikeys.Scope(scope)
		*out = append(*out, k)
		return nil
	})}
}

// MerchantSettings returns the stored settings, or the zero Settings when none were saved.
func (s *Store) MerchantSettings(ctx context.Context) (settings.Settings, error) {
	var set settings.Settings
	err := s.db.Read(ctx, Stmt{SQL: `SELECT webhook_url, webhook_secret, frame_origins, updated_at, previous_secret, previous_until,
		shipping_flat_rate, shipping_free_above, shipping_delivery_days, notify_personal_data, shopper_mail, subscription_lead_days,
		charge_reminders FROM merchant_settings WHERE id = 1`,
		Rows: each(func(r Rows) error {
			var origins, shopperMail, reminders string
			var updated, until, flat, free int64
			if err := r.Scan(&set.WebhookURL, &set.WebhookSecret, &origins, &updated, &set.PreviousSecret, &until,
				&flat, &free, &set.Shipping.DeliveryDays, &set.NotifyPersonalData, &shopperMail, &set.SubscriptionLeadDays, &reminders); err != nil {
				return err
			}
			if reminders != "" {
				set.ChargeReminders = new(charges.Reminders)
				if err := json.Unmarshal([]byte(reminders), set.ChargeReminders); err != nil {
					return err
				}
			}
			if err := json.Unmarshal([]byte(shopperMail), &set.ShopperMail); err != nil {
				return err
			}
			if len(set.ShopperMail) == 0 {
				set.ShopperMail = nil
			}
			set.UpdatedAt, set.PreviousUntil = fromMS(updated), fromMS(until)
			set.Shipping.FlatRate, set.Shipping.FreeAbove = gatewayclient.Cents(flat), gatewayclient.Cents(free)
			return json.Unmarshal([]byte(origins), &set.FrameOrigins)
		})})
	if err == nil {
		set.WebhookSecret, err = s.open(set.WebhookSecret)
	}
	if err == nil {
		set.PreviousSecret, err = s.open(set.PreviousSecret)
	}
	if err != nil {
		return settings.Settings{}, s.errorf("reading the merchant settings: %w", err)
	}
	if len(set.FrameOrigins) == 0 {
		set.FrameOrigins = nil
	}
	return set, nil
}

// SaveMerchantSettings replaces the stored settings.
func (s *Store) SaveMerchantSettings(ctx context.Context, set settings.Settings) error {
	origins := set.FrameOrigins
	if origins == nil {
		origins = []string{}
	}
	b, err := json.Marshal(origins)
	if err != nil {
		return s.errorf("encoding the frame origins: %w", err)
	}
	shopperMail := []byte("{}")
	if len(set.ShopperMail) > 0 {
		if shopperMail, err = json.Marshal(set.ShopperMail); err != nil {
			return s.errorf("encoding the shopper's e-mails: %w", err)
		}
	}
	var reminders []byte
	if set.ChargeReminders != nil {
		if reminders, err = json.Marshal(set.ChargeReminders); err != nil {
			return s.errorf("encoding the charges' reminders: %w", err)
		}
	}
	if set.WebhookSecret, err = s.seal(set.WebhookSecret); err != nil {
		return s.errorf("sealing the merchant settings: %w", err)
	}
	if set.PreviousSecret, err = s.seal(set.PreviousSecret); err != nil {
		return s.errorf("sealing the merchant settings: %w", err)
	}
	err = s.db.Write(ctx, Stmt{SQL: `INSERT INTO merchant_settings (id, webhook_url, webhook_secret, frame_origins, updated_at,
			previous_secret, previous_until, shipping_flat_rate, shipping_free_above, shipping_delivery_days, notify_personal_data,
			shopper_mail, subscription_lead_days, charge_reminders)
		VALUES (1, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
		ON CONFLICT (id) DO UPDATE SET webhook_url = excluded.webhook_url, webhook_secret = excluded.webhook_secret,
			frame_origins = excluded.frame_origins, updated_at = excluded.updated_at,
			previous_secret = excluded.previous_secret, previous_until = excluded.previous_until,
			shipping_flat_rate = excluded.shipping_flat_rate, shipping_free_above = excluded.shipping_free_above,
			shipping_delivery_days = excluded.shipping_delivery_days, notify_personal_data = excluded.notify_personal_data,
			shopper_mail = excluded.shopper_mail, subscription_lead_days = excluded.subscription_lead_days,
			charge_reminders = excluded.charge_reminders`,
		Args: []any{set.WebhookURL, set.WebhookSecret, string(b), ms(set.UpdatedAt), set.PreviousSecret, ms(set.PreviousUntil),
			int64(set.Shipping.FlatRate), int64(set.Shipping.FreeAbove), set.Shipping.DeliveryDays, set.NotifyPersonalData,
			string(shopperMail), set.SubscriptionLeadDays, string(reminders)}})
	if err != nil {
		return s.errorf("saving the merchant settings: %w", err)
	}
	return nil
}
