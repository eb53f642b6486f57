package sqlstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixcheckout/pixcheckout/checkout/sealed"
)

// Secrets at rest. The secrets the store keeps (the merchant's notification signing secrets,
// the users' TOTP secrets, the key of the personal data's hashes) are sealed (package
// checkout/sealed) with the keys given to UseKeys, so that a dump of the database alone does not
// reveal them: every column in sealedColumns is sealed when written and opened when read. A
// value sealed with an older key still opens; ResealSecrets, run by the program at every
// start, moves those to the current key (a rotation).

// sealedColumn is a column holding a sealed secret, in a table whose rows are named by key.
type sealedColumn struct{ table, key, column string }

// sealedColumns are every column of the store that holds a secret. A new one is added here.
var sealedColumns = []sealedColumn{
	{"merchant_settings", "id", "webhook_secret"},
	{"merchant_settings", "id", "previous_secret"},
	{"dashboard_users", "id", "totp_secret"},
	{"personal_data_key", "id", "key_text"},
	{"secret_key_check", "id", "sealed"},
}

// keyCheck is what the row of secret_key_check seals: any instance opens it, or refuses to start.
const keyCheck = "pix-checkout secret key check"

// UseKeys makes the store seal the secrets it writes with k and open those it reads. Call it
// once, before the store is used. Without keys the store writes secrets as they are (tests)
// and cannot read a sealed one.
func (s *Store) UseKeys(k *sealed.Keys) { s.keys = k }

// errNoKeys is the error of reading a sealed secret without keys.
var errNoKeys = errors.New("a secret in the database is sealed, and no secret key was given (CHECKOUT_SECRET_KEY or the key file of the data dir)")

// seal returns v as it is to be stored: sealed when the store has keys.
func (s *Store) seal(v string) (string, error) {
	if s.keys == nil || v == "" {
		return v, nil
	}
	return s.keys.SealString(v)
}

// open returns the secret a stored value holds: a clear value (written by a store without keys,
// in tests) as it is.
func (s *Store) open(v string) (string, error) {
	if !sealed.IsSealed(v) {
		return v, nil
	}
	if s.keys == nil {
		return "", errNoKeys
	}
	return s.keys.OpenString(v)
}

// CheckSecrets reads every sealed secret of the store, changing nothing, and fails when one
// does not open with the keys given: the error wraps the value's *sealed.KeyError (its key
// id), so that the program can refuse to start, and say which key is missing, before it
// writes anything with keys the database does not know.
func (s *Store) CheckSecrets(ctx context.Context) error {
	if s.keys == nil {
		return s.errorf("checking the secrets: %w", errors.New("no secret key"))
	}
	for _, c := range sealedColumns {
		var bad error
		err := s.db.Read(ctx, Stmt{SQL: `SELECT ` + c.column + ` FROM ` + c.table + ` WHERE ` + c.column + ` <> ''`,
			Rows: each(func(r Rows) error {
				var v string
				if err := r.Scan(&v); err != nil {
					return err
				}
				if _, err := s.open(v); err != nil && bad == nil {
					bad = fmt.Errorf("%s.%s: %w", c.table, c.column, err)
				}
				return nil
			})})
		if err == nil {
			err = bad
		}
		if err != nil {
			return s.errorf("checking the secrets: %w", err)
		}
	}
	return nil
}

// resealColumn seals with the first key the values of column c sealed with another one, and
// returns how many.
func (s *Store) resealColumn(ctx context.Context, tx Runner, c sealedColumn) (int, error) {
	type row struct{ key, value string }
	var rows []row
	if err := tx.Run(ctx, Stmt{SQL: `SELECT CAST(` + c.key + ` AS TEXT), ` + c.column + ` FROM ` + c.table +
		` WHERE ` + c.column + ` <> ''`, Rows: each(func(r Rows) error {
		var x row
		if err := r.Scan(&x.key, &x.value); err != nil {
			return err
		}
		if sealed.IsSealed(x.value) && s.keys.Stale(x.value) {
			rows = append(rows, x)
		}
		return nil
	})}); err != nil {
		return 0, err
	}
	var updates []Stmt
	for _, x := range rows {
		plain, err := s.open(x.value)
		if err != nil {
			return 0, fmt.Errorf("%s.%s: %w", c.table, c.column, err)
		}
		v, err := s.keys.SealString(plain)
		if err != nil {
			return 0, err
		}
		updates = append(updates, Stmt{SQL: `UPDATE ` + c.table + ` SET ` + c.column + ` = $2 WHERE CAST(` + c.key +
			` AS TEXT) = $1 AND ` + c.column + ` = $3`, Args: []any{x.key, v, x.value}})
	}
	return len(updates), tx.Run(ctx, updates...)
}

// ResealSecrets seals again every secret of the store sealed with another key than the current
// one (after a rotation), in one transaction, and returns how many it sealed. A value it
// cannot open (sealed with a key that is not given) fails it, saying which
// key id is missing: the program refuses to start rather than lose the secret. The first run
// seals a check value (secret_key_check), so that an instance started with another key than
// the first one's refuses to start even before any secret is stored.
func (s *Store) ResealSecrets(ctx context.Context) (int, error) {
	if s.keys == nil {
		return 0, s.errorf("resealing the secrets: %w", errors.New("no secret key"))
	}
	n := 0
	err := s.db.WriteTx(ctx, func(tx Runner) error {
		n = 0
		for _, c := range sealedColumns {
			resealed, err := s.resealColumn(ctx, tx, c)
			if err != nil {
				return err
			}
			n += resealed
		}
		check, err := s.keys.SealString(keyCheck)
		if err != nil {
			return err
		}
		return tx.Run(ctx, Stmt{SQL: `INSERT INTO secret_key_check (id, sealed) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`,
			Args: []any{check}})
	})
	if err == nil {
		// Another instance may have sealed the check value at the same moment, with its key.
		err = s.db.Read(ctx, Stmt{SQL: `SELECT sealed FROM secret_key_check WHERE id = 1`, Rows: each(func(r Rows) error {
			var v string
			if err := r.Scan(&v); err != nil {
				return err
			}
			if _, err := s.open(v); err != nil {
				return fmt.Errorf("the database's secrets are sealed with another key than the one given (ids %v): %w", s.keys.IDs(), err)
			}
			return nil
		})})
	}
	if err != nil {
		return 0, s.errorf("resealing the secrets: %w", err)
	}
	return n, nil
}
