package brcode

import "strings"

// validate applies the field rules of the package doc to p, empty fixed fields standing for
// their defaults. Decode and Encode share it, so that whatever one accepts the other does too.
// Fields are checked in ID order, so the error reported is the first broken field.
func (p *Payload) validate() error {
	for _, check := range []func() error{p.validateHeader, p.validateAccount, p.validateTerms, p.validateMerchant, p.validateTxID} {
		if err := check(); err != nil {
			return err
		}
	}
	if err := checkExtra("62", p.AdditionalExtra, "05"); err != nil {
		return err
	}
	return checkExtra("", p.Extra, "00", "01", "26", "52", "53", "54", "58", "59", "60", "61", "62", "63")
}

// validateHeader checks the payload format (00) and the point of initiation (01).
func (p *Payload) validateHeader() error {
	if p.PayloadFormat != "" && p.PayloadFormat != "01" {
		return invalidErr("00", "%q, must be \"01\"", p.PayloadFormat)
	}
	switch p.PointOfInitiation {
	case "", InitiationStatic, InitiationDynamic:
		return nil
	}
	return invalidErr("01", "%q, must be %q (static) or %q (dynamic) or absent", p.PointOfInitiation, InitiationStatic, InitiationDynamic)
}

// validateTerms checks the merchant category (52), currency (53), amount (54) and country (58).
func (p *Payload) validateTerms() error {
	if p.MerchantCategoryCode != "" && (len(p.MerchantCategoryCode) != 4 || !isDigits(p.MerchantCategoryCode)) {
		return invalidErr("52", "%q, must be four digits", p.MerchantCategoryCode)
	}
	if p.Currency != "" && p.Currency != "986" {
		return invalidErr("53", "%q, must be \"986\" (BRL)", p.Currency)
	}
	if p.Amount < 0 || p.Amount > MaxAmount {
		return invalidErr("54", "%d cents, must be between 0 (omitted) and %d (9999999999.99)", p.Amount, MaxAmount)
	}
	if p.CountryCode != "" && p.CountryCode != "BR" {
		return invalidErr("58", "%q, must be \"BR\"", p.CountryCode)
	}
	return nil
}

// validateMerchant checks the merchant's name (59), city (60) and postal code (61).
func (p *Payload) validateMerchant() error {
	if err := checkText("59", p.MerchantName, 1, MaxNameLength); err != nil {
		return err
	}
	if err := checkText("60", p.MerchantCity, 1, MaxCityLength); err != nil {
		return err
	}
	return checkText("61", p.PostalCode, 0, 99)
}

func (p *Payload) validateAccount() error {
	if p.GUI != "" && !strings.EqualFold(p.GUI, PixGUI) {
		return invalidErr("26.00", "%q, must be %s", p.GUI, PixGUI)
	}
	switch {
	case p.Key == "" && p.URL == "":
		return invalidErr("26", "needs a PIX key (26.01) or a location URL (26.25)")
	case p.Key != "" && p.URL != "":
		return invalidErr("26", "has both a PIX key (26.01) and a location URL (26.25): a code carries one of them")
	}
	if err := checkText("26.01", p.Key, 0, MaxKeyLength); err != nil {
		return err
	}
	if err := checkText("26.02", p.Description, 0, 99); err != nil {
		return err
	}
	if err := checkText("26.25", p.URL, 0, MaxURLLength); err != nil {
		return err
	}
	if strings.Contains(p.URL, "://") {
		return invalidErr("26.25", "%q includes a scheme: the location is written without https://", p.URL)
	}
	if strings.ContainsRune(p.URL, ' ') {
		return invalidErr("26.25", "%q contains a space", p.URL)
	}
	return checkExtra("26", p.AccountExtra, "00", "01", "02", "25")
}

func (p *Payload) validateTxID() error {
	if p.TxID == "" || p.TxID == NoTxID {
		return nil
	}
	if p.URL != "" {
		return invalidErr("62.05", "%q in a dynamic code: it must be %s, the txid being known from the location", p.TxID, NoTxID)
	}
	if len(p.TxID) > MaxTxIDLength {
		return invalidErr("62.05", "%d characters, at most %d", len(p.TxID), MaxTxIDLength)
	}
	for i := 0; i < len(p.TxID); i++ {
		if c := p.TxID[i]; !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return invalidErr("62.05", "character %q at position %d: a txid has only letters and digits (or is %s)", c, i, NoTxID)
		}
	}
	return nil
}

// checkText checks that v has between min and max characters, all printable ASCII (so that
// bytes and characters count alike).
func checkText(field, v string, min, max int) error {
	if v == "" && min > 0 {
		return invalidErr(field, "is required")
	}
	if i := nonPrintable(v); i >= 0 {
		return invalidErr(field, "character %q at position %d is not printable ASCII (see Sanitize)", v[i], i)
	}
	switch {
	case len(v) < min:
		return invalidErr(field, "%d characters, at least %d", len(v), min)
	case len(v) > max:
		return invalidErr(field, "%d characters, at most %d", len(v), max)
	}
	return nil
}

// checkExtra checks the unmodelled fields of one level: two-digit IDs, none of the modelled
// ones, no repeats, values of 1 to 99 printable ASCII characters.
func checkExtra(parent string, fs []Field, modelled ...string) error {
	var seen [100]bool
	for _, f := range fs {
		if len(f.ID) != 2 || !isDigits(f.ID) {
			return invalidErr(parent, "extra field ID %q is not two digits", f.ID)
		}
		path := join(parent, f.ID)
		for _, m := range modelled {
			if f.ID == m {
				return invalidErr(path, "is modelled by a Payload field: set that field rather than an extra one")
			}
		}
		id := twoDigits(f.ID)
		if seen[id] {
			return invalidErr(path, "appears twice")
		}
		seen[id] = true
		if err := checkText(path, f.Value, 1, 99); err != nil {
			return err
		}
	}
	return nil
}
