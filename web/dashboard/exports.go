package dashboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/exports"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// rowSource is an export's rows: every export (deposits, withdrawals, the audit log) is one,
// written by the same code to a response or to a background job's file.
type rowSource interface {
	// writeRows writes the header and every row to out, calling page after each page of
	// rows with the rows written so far (a page's error stops the export). A failure of where
	// the rows come from is a *sourceError; any other error is the writing's.
	writeRows(ctx context.Context, out sheetWriter, page func(rows int) error) (int, error)
}

// sourceError is an export stopped by where its rows come from (the gateway, the store), not
// by the writing.
type sourceError struct{ err error }

func (e *sourceError) Error() string { return e.err.Error() }
func (e *sourceError) Unwrap() error { return e.err }

// badExport answers an export asked with a parameter of its own that cannot be read.
func (d *Dashboard) badExport(w http.ResponseWriter, r *http.Request, name string, err error) {
	lang := respond.Lang(r)
	d.errorPage(w, r, http.StatusBadRequest, views.T(lang, "export.bad_title"), views.T(lang, "export.bad_format"),
		err.Error(), respond.Link(r, Path+"/"+name))
}

// DefaultExportThreshold is the most rows an export streams at once: a larger one runs in the
// background.
const DefaultExportThreshold = 100_000

// maxRunningExports is how many background exports a user may have running at once.
const maxRunningExports = 3

// maxRunningExportsAll is how many background exports may run at once across all users and
// instances (counted in the store): each worker reads the gateway and writes the database
// as fast as it can, and many at once slowed shoppers' orders.
const maxRunningExportsAll = 4

// maxExportBytesKept is how many compressed bytes the files of all background exports may
// keep in the database (they are removed a day after they end): past it a new export is
// refused rather than let the database grow without bound.
const maxExportBytesKept = 256 << 20

// exportRefresh is how often, in seconds, a running export's page refreshes itself.
const exportRefresh = 2

// exportAsked is an export as the request asked it: the list's name (deposits, withdrawals,
// audit), the format, whether it holds documents and phones in full (personalData=full, for
// a role that may), and the query without that parameter.
type exportAsked struct {
	name   string
	format exportFormat
	full   bool
	query  string
}

// deliverExport records the export in the audit log (an unmasked one as such) and writes it:
// as the response when the list counts at most the threshold's rows (or cannot count them,
// total < 0, or there is no store of background exports), else in the background
// (startExport).
func (d *Dashboard) deliverExport(w http.ResponseWriter, r *http.Request, ask exportAsked, src rowSource, total int) {
	if d.exports != nil && total > d.exportThreshold {
		d.startExport(w, r, ask, src, total)
		return
	}
	d.recordExport(r, ask.full, ask.name+ask.format.ext(), ask.query)
	d.streamExport(w, r, ask, src)
}

// startExport records a background export for the user, starts its worker, and sends the
// browser to its page.
func (d *Dashboard) startExport(w http.ResponseWriter, r *http.Request, ask exportAsked, src rowSource, total int) {
	ctx := r.Context()
	u := userOf(r)
	// The job keeps the query as asked (personalData=full included): its file is named by it,
	// and asking it again asks the same. The store decides the limits as it creates the job.
	job, err := d.exports.Create(ctx, exports.Job{UserID: u.ID, Kind: ask.name, Format: ask.format.String(),
		Query: r.URL.RawQuery, Total: total},
		exports.Limits{PerUser: maxRunningExports, Running: d.exportsRunningCap, Kept: d.exportBytesCap})
	lang := respond.Lang(r)
	switch {
	case errors.Is(err, exports.ErrExportsOfUser):
		d.errorPage(w, r, http.StatusTooManyRequests, views.T(lang, "exports.too_many_title"),
			views.T(lang, "exports.too_many", maxRunningExports), "", respond.Link(r, Path+"/exports"))
		return
	case errors.Is(err, exports.ErrExportsBusy):
		d.errorPage(w, r, http.StatusTooManyRequests, views.T(lang, "exports.too_many_title"),
			views.T(lang, "exports.busy"), "", respond.Link(r, Path+"/exports"))
		return
	case err != nil:
		d.site.Fail(w, r, err)
		return
	}
	d.recordExport(r, ask.full, ask.name+ask.format.ext(), ask.query)
	d.workers.Add(1)
	go func() {
		defer d.workers.Done()
		d.runExport(job, ask.format, src)
	}()
	http.Redirect(w, r, respond.Link(r, Path+"/exports/"+job.ID), http.StatusSeeOther)
}

// runExport is the worker of a background export: it writes the rows into the job's file,
// noting its progress (the heartbeat) at most every exports.ExportHeartbeat, and ends the
// job ready or failed. It runs until the export ends or the dashboard's context (the
// server's life) is done; a job whose server stopped without ending it reads as interrupted
// (exports.Job.Stale) and the sweep stores it so.
func (d *Dashboard) runExport(job *exports.Job, f exportFormat, src rowSource) {
	ctx := d.background
	log := d.site.Log.With("export", job.ID, "kind", job.Kind)
	fw := d.exports.Writer(ctx, job.ID)
	last := time.Now()
	rows := 0
	out, end, err := f.open(fw)
	if err == nil {
		rows, err = src.writeRows(ctx, out, func(rows int) error {
			if time.Since(last) < exports.Heartbeat {
				return nil
			}
			last = time.Now()
			// A heartbeat lost (a busy database) is no reason to stop: the next one comes in
			// a second, and only a minute without any makes the job read as interrupted.
			if err := d.exports.Progress(ctx, job.ID, rows); err != nil && ctx.Err() == nil {
				log.Warn("noting a background export's progress", "rows", rows, "err", err)
			}
			return nil
		})
		if err == nil {
			err = end()
		}
	}
	if err == nil {
		err = fw.Close()
	}
	code := ""
	var se *sourceError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		code = exports.ErrInterrupted
	case errors.As(err, &se):
		code = exports.ErrSource
	default:
		code = exports.ErrStore
	}
	if err != nil {
		log.Error("background export failed", "rows", rows, "err", err)
	}
	d.finishExport(ctx, log, job, rows, fw.Size(), code)
}

// finishExport ends a background export's job: ready (with the user's alert, written with
// it) or failed with code.
func (d *Dashboard) finishExport(ctx context.Context, log *slog.Logger, job *exports.Job, rows int, size int64, code string) {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var alert []checkout.OutboxMessage
	if code == "" && d.exportReady != nil {
		// A failure to make the alert is logged, and the export, which is the user's work,
		// still ends ready.
		var err error
		if alert, err = d.exportReady(fctx, job, rows); err != nil {
			log.Error("making a background export's alert", "err", err)
		}
	}
	if err := d.exports.Finish(fctx, job, rows, size, code, alert...); err != nil {
		log.Error("ending a background export", "err", err)
		return
	}
	if len(alert) > 0 {
		d.wakeMail()
	}
	log.Info("background export ended", "rows", rows, "bytes", size, "error", code)
}

// WaitExports waits for the workers of the background exports to end: after Options.Context
// is done, each ends its job (failed: the server stopped) and returns, so that a graceful
// shutdown leaves no job running.
func (d *Dashboard) WaitExports() { d.workers.Wait() }

// exportOf returns the job of the request's {id} if the user may see it (the one who asked,
// or an owner); anything else is the 404 page, so that a job's existence tells nothing.
func (d *Dashboard) exportOf(w http.ResponseWriter, r *http.Request) *exports.Job {
	job, err := d.exports.Job(r.Context(), chi.URLParam(r, "id"))
	u := userOf(r)
	switch {
	case errors.Is(err, checkout.ErrNotFound) || err == nil && job.UserID != u.ID && u.Role != team.RoleOwner:
		d.notFound(w, r)
		return nil
	case err != nil:
		d.site.Fail(w, r, err)
		return nil
	}
	return job
}

// myExports leads a list page to the user's background exports: the page of all of them
// and those running or ready now (nothing when there is no store of them, and no link to a
// role that may not export). A failure to read them leaves only the link: the list still shows.
func (d *Dashboard) myExports(r *http.Request) views.MyExports {
	if d.exports == nil || !can(r, team.PermExport) {
		return views.MyExports{}
	}
	m := views.MyExports{URL: respond.Link(r, Path+"/exports")}
	jobs, err := d.exports.Jobs(r.Context(), userOf(r).ID)
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
	for i := range jobs {
		if jobs[i].State != exports.Failed {
			m.Jobs = append(m.Jobs, d.jobView(r, &jobs[i]))
		}
	}
	return m
}

// jobView is a job as the pages show it.
func (d *Dashboard) jobView(r *http.Request, j *exports.Job) views.ExportJobView {
	v := views.ExportJobView{URL: respond.Link(r, Path+"/exports/"+j.ID), Kind: j.Kind, Format: j.Format, State: string(j.State),
		Error: j.Error, Rows: j.Rows, Total: j.Total, Size: j.Size, CreatedAt: j.CreatedAt}
	if j.State == exports.Ready {
		v.DownloadURL = respond.Link(r, Path+"/exports/"+j.ID+"/download")
		v.ExpiresAt = j.FinishedAt.Add(exports.Retention)
	}
	return v
}

// exportPage is GET /dashboard/exports/{id}: a background export's progress (the page asks
// the browser to refresh it while the export runs), its download when ready, or why it failed.
// Its address is the job's, so a reload or a return later finds it.
func (d *Dashboard) exportPage(w http.ResponseWriter, r *http.Request) {
	job := d.exportOf(w, r)
	if job == nil {
		return
	}
	q, _ := url.ParseQuery(job.Query)
	q.Del(paramFormat)
	q.Del(paramPersonalData)
	v := views.ExportJobPage{DashPage: d.page(r, job.Kind), Job: d.jobView(r, job), ListURL: respond.Link(r, Path+"/exports"),
		BackURL: respond.Link(r, withQuery(Path+"/"+job.Kind, q)), Threshold: d.exportThreshold,
		AgainURL: respond.Link(r, Path+"/"+job.Kind+jobFormat(job).ext()+queryPart(job.Query))}
	if job.State == exports.Running {
		v.Refresh = exportRefresh
		// The Refresh header, not a meta element: the page works without script, and a
		// refresh announced by the page itself would be an axe violation (meta-refresh).
		w.Header().Set("Refresh", strconv.Itoa(exportRefresh))
	}
	d.site.Render(w, r, http.StatusOK, views.ExportPage(v))
}

// jobFormat is the format a background export was written in.
func jobFormat(job *exports.Job) exportFormat {
	return exportFormat{excel: job.Format == formatExcel, xlsx: job.Format == formatXLSX}
}

// queryPart is "?query", or "" for an empty query.
func queryPart(query string) string {
	if query == "" {
		return ""
	}
	return "?" + query
}

// exportsPage is GET /dashboard/exports: the user's background exports of the last day.
func (d *Dashboard) exportsPage(w http.ResponseWriter, r *http.Request) {
	v := views.ExportsView{DashPage: d.page(r, ""), Threshold: d.exportThreshold}
	jobs, err := d.exports.Jobs(r.Context(), userOf(r).ID)
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(r.Context()))
	}
	for i := range jobs {
		v.Jobs = append(v.Jobs, d.jobView(r, &jobs[i]))
	}
	d.site.Render(w, r, http.StatusOK, views.ExportsPage(v))
}

// exportDownload is GET /dashboard/exports/{id}/download: a ready export's file, read from
// the store a piece at a time; before it is ready, its page.
func (d *Dashboard) exportDownload(w http.ResponseWriter, r *http.Request) {
	job := d.exportOf(w, r)
	if job == nil {
		return
	}
	if job.State != exports.Ready {
		http.Redirect(w, r, respond.Link(r, Path+"/exports/"+job.ID), http.StatusSeeOther)
		return
	}
	file, err := d.exports.Open(r.Context(), job.ID)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	defer file.Close()
	f := jobFormat(job)
	q, _ := url.ParseQuery(job.Query)
	unmasked := q.Get(paramPersonalData) == personalDataFull
	h := w.Header()
	h.Set("Content-Type", f.contentType())
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, f.filename(job.Kind, job.CreatedAt, unmasked)))
	h.Set("Content-Length", strconv.FormatInt(job.Size, 10))
	h.Set("X-Content-Type-Options", "nosniff")
	rc := http.NewResponseController(w)
	buf := make([]byte, 256<<10)
	for {
		_ = rc.SetWriteDeadline(time.Now().Add(csvWriteWindow))
		n, err := file.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return // the client went away
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			// Half-way: abort rather than end the file short.
			d.site.LogError(r, fmt.Errorf("reading the background export %s: %w", job.ID, err), checkout.ErrorCode(err))
			panic(http.ErrAbortHandler)
		}
	}
}

// streamExport writes the export as the response. Each page extends the write deadline, so
// a long export outlives the server's WriteTimeout while a stalled client does not hold the
// handler forever. A failure of the source half-way aborts the response, so that the download
// fails visibly instead of ending short (an export holds exactly the filtered rows or
// nothing).
func (d *Dashboard) streamExport(w http.ResponseWriter, r *http.Request, ask exportAsked, src rowSource) {
	name, f := ask.name, ask.format
	h := w.Header()
	h.Set("Content-Type", f.contentType())
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, f.filename(name, time.Now(), ask.full)))
	h.Set("X-Content-Type-Options", "nosniff")
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Now().Add(csvWriteWindow))
	w.WriteHeader(http.StatusOK)
	out, end, err := f.open(w)
	if err != nil {
		d.site.LogError(r, fmt.Errorf("export of %s: %w", name, err), checkout.ErrorCode(err))
		panic(http.ErrAbortHandler)
	}
	rows, err := src.writeRows(r.Context(), out, func(int) error {
		_ = rc.SetWriteDeadline(time.Now().Add(csvWriteWindow))
		_ = rc.Flush()
		return nil
	})
	if err == nil {
		_ = rc.SetWriteDeadline(time.Now().Add(csvWriteWindow))
		err = end()
	}
	var se *sourceError
	if errors.As(err, &se) {
		d.site.LogError(r, fmt.Errorf("export of %s after %d rows: %w", name, rows, se.err), checkout.ErrorCode(se.err))
		panic(http.ErrAbortHandler)
	}
}
