package dashboard

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// csvPageSize is how many records an export asks the gateway for at a time: the most it
// serves per page, so the fewest requests.
const csvPageSize = maxPerPage

// csvWriteWindow is how long the client may take to accept one page of an export: each page
// extends the write deadline, so a long export outlives the server's WriteTimeout while a
// stalled client does not hold the handler forever.
const csvWriteWindow = time.Minute

// depositsCSV is GET /dashboard/deposits.csv: every deposit matching the filters, across all
// the gateway's pages, as CSV (format=excel: for Excel, see exportFormat): a header row,
// amounts in cents and in reais, dates, cells that a spreadsheet would take for a formula
// escaped. Up to exportThreshold records it streams: the header and the first page leave at
// once, the next page is fetched while the previous one is written, and memory stays at two
// pages however many rows; more run in the background (see exports.go). The filter's end is
// pinned to the moment the export starts (the shop's clock, which is the sandbox's when it is
// embedded), so that deposits made meanwhile are left out; the pages are read by keyset (see
// csvCursor).
func (d *Dashboard) depositsCSV(w http.ResponseWriter, r *http.Request) {
	exportList(d, w, r, depositList)
}

// withdrawalsCSV is GET /dashboard/withdrawals.csv, as depositsCSV.
func (d *Dashboard) withdrawalsCSV(w http.ResponseWriter, r *http.Request) {
	exportList(d, w, r, withdrawalList)
}

// gatewayList is what an export needs to know of one of the gateway's lists: records T read
// with filters F.
type gatewayList[F, T any] struct {
	name   string                                               // "deposits": the page's path and the file's name
	page   func(*Dashboard, http.ResponseWriter, *http.Request) // the list page, which shows a filter's errors
	parse  func(raw string) (url.Values, F, *checkout.ValidationError)
	window func(*F) (start, end *time.Time, page, perPage *int)
	list   func(Gateway, context.Context, F) (*gatewayclient.Page[T], error)
	key    func(*T) (time.Time, string) // createdAt and id, the keyset
	cols   []sheetCol
	row    func(*T) sheetRow
}

var (
	depositList = gatewayList[gatewayclient.DepositFilter, gatewayclient.Deposit]{name: "deposits",
		page: (*Dashboard).deposits, parse: parseDepositQuery, window: depositWindow, list: Gateway.ListDeposits,
		key: depositKey, cols: depositCols, row: depositRow}
	withdrawalList = gatewayList[gatewayclient.WithdrawalFilter, gatewayclient.Withdrawal]{name: "withdrawals",
		page: (*Dashboard).withdrawals, parse: parseWithdrawalQuery, window: withdrawalWindow, list: Gateway.ListWithdrawals,
		key: withdrawalKey, cols: withdrawalCols, row: withdrawalRow}
)

// depositWindow and withdrawalWindow are the fields of a filter an export sets as it reads.
func depositWindow(f *gatewayclient.DepositFilter) (start, end *time.Time, page, perPage *int) {
	return &f.StartDate, &f.EndDate, &f.Page, &f.PerPage
}

func withdrawalWindow(f *gatewayclient.WithdrawalFilter) (start, end *time.Time, page, perPage *int) {
	return &f.StartDate, &f.EndDate, &f.Page, &f.PerPage
}

// depositKey and withdrawalKey are a record's keyset (see csvCursor).
func depositKey(d *gatewayclient.Deposit) (time.Time, string)       { return d.CreatedAt, d.ID }
func withdrawalKey(w *gatewayclient.Withdrawal) (time.Time, string) { return w.CreatedAt, w.ID }

// exportList is the export of one of the gateway's lists (see depositsCSV).
func exportList[F, T any](d *Dashboard, w http.ResponseWriter, r *http.Request, l gatewayList[F, T]) {
	full, allowed, raw := unmaskedExport(r)
	if !allowed {
		d.forbidden(w, r)
		return
	}
	q, f, errs := l.parse(raw)
	if errs.OrNil() != nil {
		l.page(d, w, r) // the form with its errors
		return
	}
	format, err := d.exportFormatOf(r, q)
	if err != nil {
		d.badExport(w, r, l.name, err)
		return
	}
	start, end, page, perPage := l.window(&f)
	*end = d.exportEnd(*start, *end)
	*perPage = csvPageSize
	total := -1
	fetch := func(ctx context.Context, at time.Time, n int) ([]T, int, error) {
		*end, *page = at, n
		p, err := l.list(d.exportGateway(full), ctx, f)
		if err != nil {
			return nil, 0, err
		}
		if total < 0 {
			total = p.Total // the first page's count is the whole filter's
		}
		return p.Data, p.TotalPages, nil
	}
	cur := &csvCursor[T]{fetch: fetch, end: *end, key: l.key}
	src := &gatewayRows[T]{cols: l.cols, row: l.row, cur: cur}
	gatewayExport(d, w, r, exportAsked{name: l.name, format: format, full: full, query: raw}, src, &total)
}

// gatewayExport reads the first page of src before anything is written, so that a gateway
// failing at once gets a proper error page, and delivers the export: at once, or in the
// background when the gateway counts more than exportThreshold records (total, which the
// first page sets).
func gatewayExport[T any](d *Dashboard, w http.ResponseWriter, r *http.Request, ask exportAsked,
	src *gatewayRows[T], total *int) {
	first, err := src.cur.next(r.Context())
	if err != nil {
		lang := respond.Lang(r)
		status, banner := d.gatewayTrouble(r, err, &checkout.ValidationError{}, nil)
		msg := views.T(lang, "gateway.unavailable")
		if banner != nil {
			msg = banner.Message
		}
		d.errorPage(w, r, status, views.T(lang, "gateway.banner_title"), msg, "", respond.Link(r, Path+"/"+ask.name))
		return
	}
	src.first = first
	d.deliverExport(w, r, ask, src, *total)
}

// exportEnd is the endDate of an export: the filter's, or now when it has none or a later one,
// so that records made during the export are left out. Now is the shop's clock, the one the
// gateway's records are dated by (the sandbox's, advanced or not, when it is embedded).
func (d *Dashboard) exportEnd(start, end time.Time) time.Time {
	now := d.svc.Now().UTC()
	switch {
	case !start.IsZero() && start.After(now):
		return start // nothing can match yet; keep the range valid
	case end.IsZero() || end.After(now):
		return now
	}
	return end
}

// errCSVKeyset is an export stopped because the gateway's pages did not come as the keyset
// reading needs them (newest first, none after endDate, endDate inclusive): carrying on could
// leave records out silently.
var errCSVKeyset = errors.New("the gateway's list is not in the order the export relies on")

// csvCursor reads every record of an export's filter by keyset, not by page number: a page
// number is an OFFSET for the gateway, which reads and skips every record before the page,
// so that an export of n records would cost n²/perPage reads. The list is newest first and
// endDate is inclusive to the millisecond (the sandbox's reading of the spec): after a page,
// page 1 is asked again with endDate at the page's last createdAt, and the records already
// written that share that exact createdAt are skipped by id. When a whole page shares one
// createdAt, moving endDate would not advance, so the next page number of the same query is
// asked instead: the reading never loops. The rows the gateway returns are checked against
// these rules, and the export fails rather than risk a missing row when they break.
type csvCursor[T any] struct {
	// fetch asks for one page of the filter with endDate end; it returns the page's records
	// and the number of pages.
	fetch func(ctx context.Context, end time.Time, page int) ([]T, int, error)
	// key is a record's createdAt and id.
	key func(*T) (time.Time, string)
	// end and page are the next request's; seen holds the ids already written whose
	// createdAt is end's millisecond.
	end  time.Time
	page int
	seen map[string]bool
	done bool
}

// next fetches the next page and returns its records not written yet.
func (c *csvCursor[T]) next(ctx context.Context) ([]T, error) {
	if c.page == 0 {
		c.page = 1
	}
	items, totalPages, err := c.fetch(ctx, c.end, c.page)
	if err != nil {
		return nil, err
	}
	out, err := c.unseen(items)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 || c.page >= totalPages {
		c.done = true
		return out, nil
	}
	c.advance(items)
	return out, nil
}

// unseen checks a page against the keyset's rules and returns its records not written yet.
func (c *csvCursor[T]) unseen(items []T) ([]T, error) {
	endMs := c.end.UnixMilli()
	if c.page == 1 && len(c.seen) > 0 {
		// The records at endDate were written from the previous page: an inclusive endDate
		// returns them first.
		if len(items) == 0 {
			return nil, fmt.Errorf("%w: nothing at or before endDate %s", errCSVKeyset, gatewayclient.FormatTime(c.end))
		}
		if at, _ := c.key(&items[0]); at.UnixMilli() != endMs {
			return nil, fmt.Errorf("%w: endDate %s did not return the records it names", errCSVKeyset, gatewayclient.FormatTime(c.end))
		}
	}
	out := items[:0]
	prev := endMs
	for i := range items {
		at, id := c.key(&items[i])
		ms := at.UnixMilli()
		if ms > prev {
			return nil, fmt.Errorf("%w: %s dated %s after %s", errCSVKeyset, id, gatewayclient.FormatTime(at),
				gatewayclient.FormatTime(time.UnixMilli(prev)))
		}
		prev = ms
		if ms == endMs && c.seen[id] {
			continue
		}
		out = append(out, items[i])
	}
	return out, nil
}

// advance sets the next request after a full page of items: endDate moved to the page's last
// createdAt, or the next page number when the whole page shares endDate; seen holds the ids
// of the page at the next endDate.
func (c *csvCursor[T]) advance(items []T) {
	last, _ := c.key(&items[len(items)-1])
	if last.UnixMilli() != c.end.UnixMilli() {
		c.end, c.page, c.seen = time.UnixMilli(last.UnixMilli()).UTC(), 1, map[string]bool{}
	} else {
		c.page++ // the whole page shares endDate: on to the next page of the same query
	}
	at := c.end.UnixMilli()
	for i := range items {
		if t, id := c.key(&items[i]); t.UnixMilli() == at {
			if c.seen == nil {
				c.seen = map[string]bool{}
			}
			c.seen[id] = true
		}
	}
}

// csvPage is one page fetched for an export.
type csvPage[T any] struct {
	items []T
	err   error
}

// gatewayRows are the rows of an export of one of the gateway's lists: the first page,
// already read, and the cursor that reads the others.
type gatewayRows[T any] struct {
	cols  []sheetCol
	row   func(*T) sheetRow
	cur   *csvCursor[T]
	first []T
}

// writeRows writes the header and every record of the cursor to out, the next page fetched
// while the last one is written; page is called after each page with the rows written so
// far. An error of the gateway is a *sourceError.
func (g *gatewayRows[T]) writeRows(ctx context.Context, out sheetWriter, page func(rows int) error) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pages := make(chan csvPage[T], 1)
	go func() {
		defer close(pages)
		for !g.cur.done {
			items, err := g.cur.next(ctx)
			select {
			case pages <- csvPage[T]{items, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	if err := out.header(g.cols); err != nil {
		return 0, err
	}
	rows := 0
	write := func(items []T) error {
		for i := range items {
			if err := out.row(g.cols, g.row(&items[i])); err != nil {
				return err
			}
		}
		rows += len(items)
		if err := out.flush(); err != nil {
			return err
		}
		return page(rows)
	}
	if err := write(g.first); err != nil {
		return rows, err
	}
	g.first = nil
	for p := range pages {
		if p.err != nil {
			return rows, &sourceError{p.err}
		}
		if err := write(p.items); err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// The columns of the exports of deposits and withdrawals: in CSV, the gateway's field names
// and values (amounts in cents and in reais); in .xlsx, the reader's language.
var (
	depositCols = []sheetCol{{key: "id", kind: colCode}, {key: "createdAt", kind: colTime}, {key: "updatedAt", kind: colTime},
		{key: "status", kind: colEnum, enum: "dstatus."}, {key: "depositOrigin", kind: colEnum, enum: "origin."},
		{key: "paymentMethod", kind: colText, width: 10},
		{key: "amountCents", kind: colCents}, {key: "amountBRL", kind: colReais}, {key: "amountPaidCents", kind: colCents},
		{key: "amountPaidBRL", kind: colReais}, {key: "feeAmountCents", kind: colFee}, {key: "paymentDate", kind: colTime},
		{key: "refundAmountCents", kind: colCents}, {key: "refundAmountBRL", kind: colReais}, {key: "refundDate", kind: colTime},
		{key: "externalCode", kind: colCode}, {key: "endToEnd", kind: colCode, width: 34}, {key: "endToEndRefund", kind: colCode, width: 34},
		{key: "payerName", kind: colText}, {key: "payerDocument", kind: colCode}, {key: "payerType", kind: colEnum, enum: "holder."},
		{key: "payerIspb", kind: colCode, width: 12}, {key: "payerPixKey", kind: colCode}, {key: "receiverName", kind: colText},
		{key: "receiverDocument", kind: colCode}, {key: "errorMessage", kind: colText}, {key: "errorMessageRefund", kind: colText},
		{key: "acquirer", kind: colText}, {key: "acquirerCode", kind: colCode}}
	withdrawalCols = []sheetCol{{key: "id", kind: colCode}, {key: "createdAt", kind: colTime}, {key: "updatedAt", kind: colTime},
		{key: "status", kind: colEnum, enum: "wstatus."}, {key: "method", kind: colText, width: 10},
		{key: "amountCents", kind: colCents}, {key: "amountBRL", kind: colReais}, {key: "amountWithdrawnCents", kind: colCents},
		{key: "amountWithdrawnBRL", kind: colReais}, {key: "feeAmountCents", kind: colFee}, {key: "processedDate", kind: colTime},
		{key: "refundAmountCents", kind: colCents}, {key: "refundAmountBRL", kind: colReais}, {key: "refundDate", kind: colTime},
		{key: "externalCode", kind: colCode}, {key: "endToEnd", kind: colCode, width: 34}, {key: "endToEndRefund", kind: colCode, width: 34},
		{key: "pixKey", kind: colCode}, {key: "pixKeyType", kind: colText, width: 10}, {key: "receiverName", kind: colText},
		{key: "receiverDocument", kind: colCode}, {key: "receiverIspb", kind: colCode, width: 12}, {key: "payerName", kind: colText},
		{key: "payerDocument", kind: colCode}, {key: "errorMessage", kind: colText}, {key: "acquirer", kind: colText},
		{key: "acquirerCode", kind: colCode}}
)

// depositRow is one deposit's values.
func depositRow(d *gatewayclient.Deposit) sheetRow {
	payer, receiver := holderValues(d.Payer), holderValues(d.Receiver)
	return sheetRow{d.ID, d.CreatedAt, d.UpdatedAt, string(d.Status), string(d.DepositOrigin), string(d.PaymentMethod),
		d.Amount, d.Amount, d.AmountPaid, d.AmountPaid, d.FeeAmount, d.PaymentDate, d.RefundAmount, d.RefundAmount, d.RefundDate,
		d.ExternalCode, d.EndToEnd, d.EndToEndRefund,
		payer.name, payer.document, payer.kind, payer.ispb, payer.pixKey, receiver.name, receiver.document,
		d.ErrorMessage, d.ErrorMessageRefund, d.Acquirer, d.AcquirerCode}
}

// withdrawalRow is one withdrawal's values.
func withdrawalRow(w *gatewayclient.Withdrawal) sheetRow {
	payer, receiver := holderValues(w.Payer), holderValues(w.Receiver)
	var key, keyType string
	if w.PixKey != nil {
		key, keyType = w.PixKey.Key, string(w.PixKey.Type)
	}
	return sheetRow{w.ID, w.CreatedAt, w.UpdatedAt, string(w.Status), string(w.Method),
		w.Amount, w.Amount, w.AmountWithdrawn, w.AmountWithdrawn, w.FeeAmount, w.ProcessedDate, w.RefundAmount, w.RefundAmount,
		w.RefundDate, w.ExternalCode, w.EndToEnd, w.EndToEndRefund, key, keyType,
		receiver.name, receiver.document, receiver.ispb, payer.name, payer.document,
		w.ErrorMessage, w.Acquirer, w.AcquirerCode}
}

// holderCells are an account holder's values.
type holderCells struct{ name, document, kind, ispb, pixKey string }

func holderValues(h *gatewayclient.AccountHolder) holderCells {
	if h == nil {
		return holderCells{}
	}
	return holderCells{h.Name, h.Document, string(h.Type), h.BankAccount.ISPB, h.Pix.Key}
}
