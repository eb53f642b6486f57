// Package bulk imports charges from a spreadsheet (.csv, plain or as Excel in pt-BR saves it,
// or .xlsx): Read reads the file, Check reports on each line before anything is created (the
// same checks as a single charge's, charges.Input.Validate, and the lines imported already),
// and Import creates the valid lines through the one way charges are made
// (charges.Manager.CreateOnce), each line's idempotency key its external code or, without
// one, its content, so that importing a file again creates nothing twice.
package bulk

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Charges is what an import needs of the charges: charges.Manager.
type Charges interface {
	Today() charges.Date
	Made(ctx context.Context, key string, in charges.Input) (charges.Charge, bool, error)
	CreateOnce(ctx context.Context, actor, address, key string, in charges.Input) (charges.Charge, bool, error)
}

// The codes of a line's violations besides the charge's own (gatewayclient's).
const (
	// CodeRepeated: the line repeats an earlier line's external code, or its whole content.
	CodeRepeated = "repeated"
	// CodeImportedOther: the external code was imported before with other values.
	CodeImportedOther = string(checkout.CodeIdempotencyReused)
)

// Line is one line of a file as checked: its charge, its idempotency key, and either its
// violations (Errors, the one error shape of a charge) or whether it was imported already
// (Charge is then the charge it made).
type Line struct {
	Number int
	Input  charges.Input
	Key    string
	Errors *charges.ValidationError // nil: the line is valid
	// Repeats is the earlier line this one repeats (0: none).
	Repeats int
	Done    bool // imported already: nothing to create
	Charge  charges.Charge
}

// Report is a file's lines as checked, before anything is created.
type Report struct {
	Lines   []Line
	Ignored []string // the file's columns that are no field of a charge
}

// Counts are how many lines are to create, were imported already, and are invalid.
func (r *Report) Counts() (valid, done, invalid int) {
	for i := range r.Lines {
		switch l := &r.Lines[i]; {
		case l.Errors != nil:
			invalid++
		case l.Done:
			done++
		default:
			valid++
		}
	}
	return valid, done, invalid
}

// Check checks every line of s as a new charge on the charges' today, and looks up which were
// imported already; it creates nothing. An error is the store's: a line's problems are in its
// Errors.
func Check(ctx context.Context, ch Charges, s *Sheet) (*Report, error) {
	today := ch.Today()
	rep := &Report{Ignored: s.Ignored, Lines: make([]Line, 0, len(s.Rows))}
	first := map[string]int{} // key → the line that has it first
	for _, row := range s.Rows {
		l := Line{Number: row.Line}
		var ve charges.ValidationError
		l.Input = input(row.Cells, &ve)
		l.Key = key(l.Input)
		if prev, ok := first[l.Key]; ok {
			l.Repeats = prev
			field := FieldLine
			if l.Input.ExternalCode != "" {
				field = FieldExternalCode
			}
			ve.Add(field, CodeRepeated, fmt.Sprintf("repeats line %d", prev))
		} else {
			first[l.Key] = row.Line
		}
		if len(ve.Violations) == 0 {
			c, done, err := ch.Made(ctx, l.Key, l.Input)
			switch {
			case checkout.ErrorCode(err) == checkout.CodeIdempotencyReused:
				ve.Add(FieldExternalCode, CodeImportedOther, "was imported before with other values")
			case err != nil:
				return nil, fmt.Errorf("bulk: line %d: %w", row.Line, err)
			case done:
				l.Done, l.Charge = true, c
			}
		}
		if !l.Done {
			addRules(&ve, l.Input, today)
		}
		l.Errors = ve.OrNil()
		rep.Lines = append(rep.Lines, l)
	}
	return rep, nil
}

// addRules adds to ve the violations of the charge's own rules on today, for the fields that
// have none yet: what could not be read comes first, as in the API.
func addRules(ve *charges.ValidationError, in charges.Input, today charges.Date) {
	more := in.Validate(today)
	if more == nil {
		return
	}
	for _, v := range more.Violations {
		if !ve.Has(v.Field) {
			ve.Violations = append(ve.Violations, v)
		}
	}
}

// input reads a line's cells as a charge, adding to ve the cells that do not read: an amount
// in reais ("1.234,56" or "1234.56", as checkout.ParseReais reads a typed one) and a due date
// ("31/12/2026" or "2026-12-31"). The document keeps only its characters (no mask) and a
// valid phone is written in E.164, so that the same charge reads the same from any flavour of
// file.
func input(cells map[string]string, ve *charges.ValidationError) charges.Input {
	in := charges.Input{Customer: charges.Customer{Name: cells[FieldName], Email: cells[FieldEmail],
		Document: brdoc.NormalizeDocument(cells[FieldDocument]), Phone: cells[FieldPhone]},
		Description: cells[FieldDescription], ExternalCode: cells[FieldExternalCode]}
	if p := brdoc.NormalizePhone(in.Customer.Phone); p != "" {
		in.Customer.Phone = p
	}
	if s := cells[FieldAmount]; s != "" {
		c, err := checkout.ParseReais(s)
		if err != nil {
			ve.Add(FieldAmount, gatewayclient.CodeFormat, err.Error())
		}
		in.Terms.Amount = c
	}
	if s := cells[FieldDueDate]; s != "" {
		d, err := parseDay(s)
		if err != nil {
			ve.Add(FieldDueDate, gatewayclient.CodeFormat, err.Error())
		}
		in.Terms.Due = d
	}
	return in
}

// parseDay reads a day as Brazil writes it ("31/12/2026", "1/2/2027") or ISO 8601
// ("2026-12-31", a time after it ignored, as a spreadsheet may add one).
func parseDay(s string) (charges.Date, error) {
	if iso, _, _ := strings.Cut(s, "T"); len(iso) == len(time.DateOnly) && strings.Count(iso, "-") == 2 {
		return gatewayclient.ParseDate(iso)
	}
	day, _, _ := strings.Cut(s, " ")
	t, err := time.Parse("2/1/2006", day)
	if err != nil {
		return charges.Date{}, errors.New("must be a date such as 31/12/2026 or 2026-12-31")
	}
	return charges.Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}, nil
}

// key is a line's idempotency key (printable ASCII, as checkout.CreateOnce takes): its
// external code's, or without one its whole content's (every value, as read), so that a line
// imported again answers the charge it made.
func key(in charges.Input) string {
	if in.ExternalCode != "" {
		sum := sha256.Sum256([]byte(in.ExternalCode))
		return "import:code:" + hex.EncodeToString(sum[:])
	}
	c := in.Customer
	sum := sha256.Sum256([]byte(strings.Join([]string{c.Name, c.Document, c.Email, c.Phone,
		strconv.FormatInt(int64(in.Terms.Amount), 10), in.Terms.Due.String(), in.Description}, "\x00")))
	return "import:line:" + hex.EncodeToString(sum[:])
}

// Result is what an import did: the charges it created, the lines imported before (nothing
// created again), and the lines refused when their charge was made (the day changed since the
// report, or the same line was imported meanwhile with other values), with their violations.
type Result struct {
	Created, Done int
	Refused       []Line
}

// Import creates the charge of every valid line of rep not imported already, made by actor
// from address, through ch.CreateOnce with the line's key; progress is called with the lines
// handled so far every hundred lines. An error (the store's) stops it: what was created stays,
// and importing the file again creates the rest, nothing twice.
func Import(ctx context.Context, ch Charges, actor, address string, rep *Report, progress func(done int)) (Result, error) {
	var res Result
	for i := range rep.Lines {
		l := rep.Lines[i]
		if i%100 == 99 && progress != nil {
			progress(i + 1)
		}
		if l.Errors != nil {
			continue
		}
		if l.Done {
			res.Done++
			continue
		}
		_, created, err := ch.CreateOnce(ctx, actor, address, l.Key, l.Input)
		var ve *charges.ValidationError
		switch {
		case errors.As(err, &ve):
			l.Errors = ve
			res.Refused = append(res.Refused, l)
		case checkout.ErrorCode(err) == checkout.CodeIdempotencyReused:
			l.Errors = &charges.ValidationError{Kind: gatewayclient.KindValidation}
			l.Errors.Add(FieldExternalCode, CodeImportedOther, "was imported before with other values")
			res.Refused = append(res.Refused, l)
		case err != nil:
			return res, fmt.Errorf("bulk: line %d: %w", l.Number, err)
		case created:
			res.Created++
		default:
			res.Done++
		}
	}
	return res, nil
}
