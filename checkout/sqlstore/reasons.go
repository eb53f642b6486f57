package sqlstore

import (
	"encoding/json"
	"fmt"

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
