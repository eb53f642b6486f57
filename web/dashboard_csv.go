package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
)

// csvPageSize is how many records an export asks the gateway for at a time: the most it
// serves per page, so the fewest requests.
const csvPageSize = dashMaxPerPage

// csvWriteWindow is how long the client may take to accept one page of an export: each page
// extends the write deadline, so a long export outlives the server's WriteTimeout while a
// stalled client does not hold the handler forever.
const csvWriteWindow = time.Minute

// depositsCSV is GET /dashboard/deposits.csv: every deposit matching the filters, across all
// the gateway's pages, as CSV (UTF-8, a header row, amounts in cents and in reais, dates ISO
// 8601 UTC, cells that a spreadsheet would take for a formula escaped). It streams: the header
// and the first page leave at once, the next page is fetched while the previous one is
// written, and memory stays at two pages however many rows. The filter's end is pinned to the
// moment the export starts, so that deposits made meanwhile do not shift the pages under it.
func (d *dashboard) depositsCSV(w http.ResponseWriter, r *http.Request) {
	_, f, errs := parseDepositQuery(r.URL.RawQuery)
	if len(errs) > 0 {
		d.deposits(w, r) // the form with its errors
		return
	}
	now := time.Now().UTC()
	if !f.StartDate.IsZero() && f.StartDate.After(now) {
		f.EndDate = f.StartDate // nothing can match yet; keep the range valid
	} else if f.EndDate.IsZero() || f.EndDate.After(now) {
		f.EndDate = now
	}
	f.PerPage = csvPageSize
	fetch := func(ctx context.Context, page int) ([]gatewayclient.Deposit, int, error) {
		f.Page = page
		p, err := d.gw.ListDeposits(ctx, f)
		if err != nil {
			return nil, 0, err
		}
		return p.Data, p.TotalPages, nil
	}
	streamCSV(d, w, r, "deposits", depositCSVHeader, fetch, depositCSVRow)
}

// withdrawalsCSV is GET /dashboard/withdrawals.csv, as depositsCSV.
func (d *dashboard) withdrawalsCSV(w http.ResponseWriter, r *http.Request) {
	_, f, errs := parseWithdrawalQuery(r.URL.RawQuery)
	if len(errs) > 0 {
		d.withdrawals(w, r)
		return
	}
	now := time.Now().UTC()
	if !f.StartDate.IsZero() && f.StartDate.After(now) {
		f.EndDate = f.StartDate
	} else if f.EndDate.IsZero() || f.EndDate.After(now) {
		f.EndDate = now
	}
	f.PerPage = csvPageSize
	fetch := func(ctx context.Context, page int) ([]gatewayclient.Withdrawal, int, error) {
		f.Page = page
		p, err := d.gw.ListWithdrawals(ctx, f)
		if err != nil {
			return nil, 0, err
		}
		return p.Data, p.TotalPages, nil
	}
	streamCSV(d, w, r, "withdrawals", withdrawalCSVHeader, fetch, withdrawalCSVRow)
}

// csvPage is one page fetched for an export.
type csvPage[T any] struct {
	items      []T
	totalPages int
	err        error
}

// streamCSV writes the records of every page as CSV. The first page is fetched before
// anything is written, so that a gateway failing at once gets a proper error page; a failure
// on a later page aborts the response, so that the download fails visibly instead of ending
// short (an export holds exactly the filtered rows or nothing).
func streamCSV[T any](d *dashboard, w http.ResponseWriter, r *http.Request, name string, header []string,
	fetch func(context.Context, int) ([]T, int, error), row func([]string, *T) []string) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	items, totalPages, err := fetch(ctx, 1)
	if err != nil {
		lang := d.s.pageLang(r)
		status, banner := d.gatewayTrouble(r, err, filterErrors{}, nil)
		msg := views.T(lang, "gateway.unavailable")
		if banner != nil {
			msg = banner.Message
		}
		d.errorPage(w, r, status, views.T(lang, "gateway.banner_title"), msg, "", d.link(r, DashboardPath+"/"+name))
		return
	}
	// The next pages are fetched one ahead of the writing.
	pages := make(chan csvPage[T], 1)
	go func() {
		defer close(pages)
		for page := 2; page <= totalPages; page++ {
			items, tp, err := fetch(ctx, page)
			select {
			case pages <- csvPage[T]{items, tp, err}:
			case <-ctx.Done():
				return
			}
			if err != nil || len(items) == 0 {
				return
			}
			totalPages = tp
		}
	}()

	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.csv"`, name, time.Now().UTC().Format("20060102-150405")))
	h.Set("X-Content-Type-Options", "nosniff")
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(csvWriteWindow))
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	_ = cw.Write(header)
	rec := make([]string, 0, len(header))
	write := func(items []T) error {
		_ = rc.SetWriteDeadline(time.Now().Add(csvWriteWindow))
		for i := range items {
			rec = row(rec[:0], &items[i])
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		_ = rc.Flush()
		return nil
	}
	rows := len(items)
	if err := write(items); err != nil {
		return // the client went away
	}
	for p := range pages {
		if p.err != nil {
			d.s.logError(r, fmt.Errorf("csv export of %s after %d rows: %w", name, rows, p.err), checkout.ErrorCode(p.err))
			panic(http.ErrAbortHandler)
		}
		if err := write(p.items); err != nil {
			return
		}
		rows += len(p.items)
	}
}

// Header rows of the exports.
var (
	depositCSVHeader = []string{"id", "createdAt", "updatedAt", "status", "depositOrigin", "paymentMethod",
		"amountCents", "amountBRL", "amountPaidCents", "amountPaidBRL", "feeAmountCents", "paymentDate",
		"refundAmountCents", "refundAmountBRL", "refundDate", "externalCode", "endToEnd", "endToEndRefund",
		"payerName", "payerDocument", "payerType", "payerIspb", "payerPixKey", "receiverName", "receiverDocument",
		"errorMessage", "errorMessageRefund", "acquirer", "acquirerCode"}
	withdrawalCSVHeader = []string{"id", "createdAt", "updatedAt", "status", "method",
		"amountCents", "amountBRL", "amountWithdrawnCents", "amountWithdrawnBRL", "feeAmountCents", "processedDate",
		"refundAmountCents", "refundAmountBRL", "refundDate", "externalCode", "endToEnd", "endToEndRefund",
		"pixKey", "pixKeyType", "receiverName", "receiverDocument", "receiverIspb", "payerName", "payerDocument",
		"errorMessage", "acquirer", "acquirerCode"}
)

// depositCSVRow appends one deposit's cells to rec.
func depositCSVRow(rec []string, d *gatewayclient.Deposit) []string {
	payer, receiver := holderCells(d.Payer), holderCells(d.Receiver)
	return append(rec, cell(d.ID), isoCell(d.CreatedAt), isoCell(d.UpdatedAt), cell(string(d.Status)),
		cell(string(d.DepositOrigin)), cell(string(d.PaymentMethod)),
		centsCell(d.Amount), reaisCell(d.Amount), optCents(d.AmountPaid), optReais(d.AmountPaid), optCents(d.FeeAmount),
		isoCell(d.PaymentDate), optCents(d.RefundAmount), optReais(d.RefundAmount), isoCell(d.RefundDate),
		cell(d.ExternalCode), cell(d.EndToEnd), cell(d.EndToEndRefund),
		payer.name, payer.document, payer.kind, payer.ispb, payer.pixKey, receiver.name, receiver.document,
		cell(d.ErrorMessage), cell(d.ErrorMessageRefund), cell(d.Acquirer), cell(d.AcquirerCode))
}

// withdrawalCSVRow appends one withdrawal's cells to rec.
func withdrawalCSVRow(rec []string, w *gatewayclient.Withdrawal) []string {
	payer, receiver := holderCells(w.Payer), holderCells(w.Receiver)
	var key, keyType string
	if w.PixKey != nil {
		key, keyType = cell(w.PixKey.Key), cell(string(w.PixKey.Type))
	}
	return append(rec, cell(w.ID), isoCell(w.CreatedAt), isoCell(w.UpdatedAt), cell(string(w.Status)), cell(string(w.Method)),
		centsCell(w.Amount), reaisCell(w.Amount), optCents(w.AmountWithdrawn), optReais(w.AmountWithdrawn), optCents(w.FeeAmount),
		isoCell(w.ProcessedDate), optCents(w.RefundAmount), optReais(w.RefundAmount), isoCell(w.RefundDate),
		cell(w.ExternalCode), cell(w.EndToEnd), cell(w.EndToEndRefund), key, keyType,
		receiver.name, receiver.document, receiver.ispb, payer.name, payer.document,
		cell(w.ErrorMessage), cell(w.Acquirer), cell(w.AcquirerCode))
}

// holderCSV is an account holder's cells.
type holderCSV struct{ name, document, kind, ispb, pixKey string }

func holderCells(h *gatewayclient.AccountHolder) holderCSV {
	if h == nil {
		return holderCSV{}
	}
	return holderCSV{cell(h.Name), cell(h.Document), cell(string(h.Type)), cell(h.BankAccount.ISPB), cell(h.Pix.Key)}
}

// cell escapes a text that a spreadsheet would read as a formula (=, +, -, @, a tab or a
// carriage return first) with a leading apostrophe, as OWASP recommends; the CSV writer does
// the quoting.
func cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// isoCell is a time in ISO 8601 UTC with milliseconds ("" for the zero time).
func isoCell(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return gatewayclient.FormatTime(t)
}

func centsCell(c gatewayclient.Cents) string { return strconv.FormatInt(int64(c), 10) }

// reaisCell is an amount in reais with a decimal point and two decimals ("1234.56"), computed
// in integers.
func reaisCell(c gatewayclient.Cents) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

func optCents(c *gatewayclient.Cents) string {
	if c == nil {
		return ""
	}
	return centsCell(*c)
}

func optReais(c *gatewayclient.Cents) string {
	if c == nil {
		return ""
	}
	return reaisCell(*c)
}
