package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/pixcheckout/pixcheckout/checkout"
)

// A checkout.Reason is stored in three columns: its code (reason_code, error_code), its
// parameters as a JSON object ("" when it has none: reason_params, error_params) and its Detail
// in the text column that held the whole English reason before codes (reason, error).

// reasonColumns returns the code, parameters and detail columns of r.
func reasonColumns(r checkout.Reason) (code, params, detail string) {
	b, err := json.Marshal(r)
	if err != nil || string(b) == "{}" {
		// A Reason of strings and integers always encodes; "{}" says no parameter.
		return string(r.Code), "", r.Detail
	}
	return string(r.Code), string(b), r.Detail
}

// readReason is the Reason of its stored columns.
func readReason(code, params, detail string) (checkout.Reason, error) {
	var r checkout.Reason
	if params != "" {
		if err := json.Unmarshal([]byte(params), &r); err != nil {
			return r, fmt.Errorf("the parameters of reason %q: %w", code, err)
		}
	}
	r.Code, r.Detail = checkout.ReasonCode(code), detail
	return r, nil
}

// reasonBatch is how many rows CodeReasons reads at a time.
const reasonBatch = 500

// CodeReasons is the Go step of migration 11 (both dialects): the reasons of the order history
// and the errors of the payment attempts stored before codes existed, as English text, become
// codes with their parameters (checkout.ParseReason). Text of no known form stays as it was, a
// note shown as it is.
func CodeReasons(ctx context.Context, tx *sql.Tx) error {
	history := reasonTable{
		query: `SELECT order_id, position, reason FROM order_history
			WHERE reason <> '' AND reason_code = '' AND (order_id > $1 OR (order_id = $1 AND position > $2))
			ORDER BY order_id, position LIMIT ` + strconv.Itoa(reasonBatch),
		args: func(key string, pos int) []any { return []any{key, pos} },
		update: `UPDATE order_history SET reason = $1, reason_code = $2, reason_params = $3
			WHERE order_id = $4 AND position = $5`,
		positioned: true,
	}
	if err := history.code(ctx, tx); err != nil {
		return fmt.Errorf("coding the order history's reasons: %w", err)
	}
	attempts := reasonTable{
		query: `SELECT id, 0, error FROM attempts WHERE error <> '' AND error_code = '' AND id > $1
			ORDER BY id LIMIT ` + strconv.Itoa(reasonBatch),
		args:   func(key string, _ int) []any { return []any{key} },
		update: `UPDATE attempts SET error = $1, error_code = $2, error_params = $3 WHERE id = $4`,
	}
	if err := attempts.code(ctx, tx); err != nil {
		return fmt.Errorf("coding the payment attempts' errors: %w", err)
	}
	return nil
}

// reasonTable is a table whose reasons CodeReasons codes: query reads (key, position, text)
// rows after the key and position args gives it, update writes detail, code, parameters to the
// row of a key (and position, when the query's has one).
type reasonTable struct {
	query  string
	args   func(key string, pos int) []any
	update string
	// positioned: rows are keyed by key and position (else by key alone).
	positioned bool
}

// code reads the rows by batches after the last one read, and writes the code of each text it
// knows. A batch is read whole before any row is written, so that no query is open while the
// same transaction writes.
func (t reasonTable) code(ctx context.Context, tx *sql.Tx) error {
	type row struct {
		key  string
		pos  int
		text string
	}
	lastKey, lastPos := "", -1
	for {
		rows, err := tx.QueryContext(ctx, t.query, t.args(lastKey, lastPos)...)
		if err != nil {
			return err
		}
		var batch []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.key, &r.pos, &r.text); err != nil {
				rows.Close()
				return err
			}
			batch = append(batch, r)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		for _, r := range batch {
			reason := checkout.ParseReason(r.text)
			if reason.Code == checkout.ReasonNone {
				continue
			}
			code, params, detail := reasonColumns(reason)
			args := []any{detail, code, params, r.key}
			if t.positioned {
				args = append(args, r.pos)
			}
			if _, err := tx.ExecContext(ctx, t.update, args...); err != nil {
				return err
			}
		}
		if len(batch) < reasonBatch {
			return nil
		}
		lastKey, lastPos = batch[len(batch)-1].key, batch[len(batch)-1].pos
	}
}
