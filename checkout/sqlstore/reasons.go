package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

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

// reasonBatch is how many texts one statement of CodeReasons codes.
const reasonBatch = 200

// CodeReasons is the Go step of migration 11 (both dialects): the reasons of the order history
// and the errors of the payment attempts stored before codes existed, as English text, become
// codes with their parameters (checkout.ParseReason). Text of no known form stays as it was, a
// note shown as it is.
//
// The same few texts fill most rows ("order placed", "deposit PAID"), so the step reads each
// distinct text once and updates every row holding it by a join on a VALUES list of texts: a
// scan of the table per 200 texts, not a statement per row.
func CodeReasons(ctx context.Context, tx *sql.Tx) error {
	for _, t := range []struct{ table, text, code, params string }{
		{"order_history", "reason", "reason_code", "reason_params"},
		{"attempts", "error", "error_code", "error_params"},
	} {
		if err := codeTexts(ctx, tx, t.table, t.text, t.code, t.params); err != nil {
			return fmt.Errorf("coding the %s of %s: %w", t.text, t.table, err)
		}
	}
	return nil
}

// codeTexts codes the column text of table, writing code and params.
func codeTexts(ctx context.Context, tx *sql.Tx, table, text, code, params string) error {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT `+text+` FROM `+table+` WHERE `+text+` <> '' AND `+code+` = ''`)
	if err != nil {
		return err
	}
	var coded []any // old text, detail, code, parameters; four by four
	for rows.Next() {
		var old string
		if err := rows.Scan(&old); err != nil {
			rows.Close()
			return err
		}
		if r := checkout.ParseReason(old); r.Code != checkout.ReasonNone {
			c, p, d := reasonColumns(r)
			coded = append(coded, old, d, c, p)
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for len(coded) > 0 {
		n := min(len(coded), 4*reasonBatch)
		batch := coded[:n]
		coded = coded[n:]
		values := make([]string, 0, len(batch)/4)
		for i := 0; i < len(batch); i += 4 {
			values = append(values, fmt.Sprintf("(CAST($%d AS TEXT), CAST($%d AS TEXT), CAST($%d AS TEXT), CAST($%d AS TEXT))",
				i+1, i+2, i+3, i+4))
		}
		// VALUES names its columns column1… in both dialects.
		q := `UPDATE ` + table + ` SET ` + text + ` = v.column2, ` + code + ` = v.column3, ` + params + ` = v.column4
			FROM (VALUES ` + strings.Join(values, ", ") + `) AS v
			WHERE ` + table + `.` + text + ` = v.column1 AND ` + table + `.` + code + ` = ''`
		if _, err := tx.ExecContext(ctx, q, batch...); err != nil {
			return err
		}
	}
	return nil
}
