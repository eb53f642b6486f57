package dashboard

import (
	"errors"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The point of sale's terminals and settings (/dashboard/pos/terminals, team.PermStore:
// owners): terminals made, renamed and archived; the QR code's life and the cashiers' idle
// limit; which terminals each cashier may use. Every change is in the audit log.

const terminalsPath = posPath + "/terminals"

// terminalsPage is GET /dashboard/pos/terminals.
func (d *Dashboard) terminalsPage(w http.ResponseWriter, r *http.Request) {
	d.renderTerminals(w, r, http.StatusOK, r.URL.Query().Get("done"), "")
}

func (d *Dashboard) renderTerminals(w http.ResponseWriter, r *http.Request, status int, notice, problem string) {
	ctx := r.Context()
	ts, err := d.pos.Terminals(ctx)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	st, err := d.pos.Settings(ctx)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	lang := respond.Lang(r)
	v := views.POSTerminalsView{DashPage: d.page(r, "pos"), Action: respond.Link(r, terminalsPath),
		SettingsAction: respond.Link(r, posPath+"/settings"), Problem: problem, ClosingURL: respond.Link(r, closingPath),
		QRMinutes: strconv.Itoa(int(st.QRLifetime / time.Minute)), IdleHours: hoursText(st.IdleLimit)}
	if notice != "" {
		v.Notice = views.T(lang, "pos.saved")
	}
	for _, t := range ts {
		v.Terminals = append(v.Terminals, views.POSTerminalRow{ID: t.ID, Name: t.Name, Active: t.Active(),
			RenameURL: respond.Link(r, terminalsPath+"/"+t.ID), ArchiveURL: respond.Link(r, terminalsPath+"/"+t.ID+"/archive"),
			ClosingURL: respond.Link(r, closingPath+"?"+paramTerminal+"="+url.QueryEscape(t.ID))})
	}
	users, err := d.accounts.Users(ctx)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	for _, u := range users {
		if u.Role != team.RoleCashier {
			continue
		}
		given, err := d.pos.CashierTerminals(ctx, u.ID)
		if err != nil {
			d.site.Fail(w, r, err)
			return
		}
		v.Cashiers = append(v.Cashiers, views.POSCashier{Email: u.Email, Action: respond.Link(r, posPath+"/cashiers/"+u.ID), Given: given})
	}
	d.site.Render(w, r, status, views.POSTerminalsPage(v))
}

// hoursText is a duration in hours as typed in the settings (12, 0,5).
func hoursText(h time.Duration) string {
	return strings.Replace(strconv.FormatFloat(h.Hours(), 'f', -1, 64), ".", ",", 1)
}

// terminalDone answers a terminal form: back to the page, or the page again with the problem.
func (d *Dashboard) terminalDone(w http.ResponseWriter, r *http.Request, err error, object, detail string) {
	lang := respond.Lang(r)
	var ve *checkout.ValidationError
	switch {
	case errors.Is(err, pos.ErrLastTerminal):
		d.renderTerminals(w, r, http.StatusConflict, "", views.T(lang, "pos.last_terminal"))
	case errors.As(err, &ve):
		d.renderTerminals(w, r, http.StatusUnprocessableEntity, "", views.T(lang, "pos.name_error"))
	case err != nil:
		d.site.Fail(w, r, err)
	default:
		d.record(r, audit.POSChanged, object, detail)
		respond.Redirect(w, r, terminalsPath+"?done=1")
	}
}

// createTerminal is POST /dashboard/pos/terminals: name.
func (d *Dashboard) createTerminal(w http.ResponseWriter, r *http.Request) {
	t, err := d.pos.CreateTerminal(r.Context(), r.PostForm.Get(pos.FieldName))
	name := ""
	if t != nil {
		name = t.Name
	}
	d.terminalDone(w, r, err, name, "created")
}

// renameTerminal is POST /dashboard/pos/terminals/{id}: name.
func (d *Dashboard) renameTerminal(w http.ResponseWriter, r *http.Request) {
	_, err := d.pos.RenameTerminal(r.Context(), chi.URLParam(r, "id"), r.PostForm.Get(pos.FieldName))
	d.terminalDone(w, r, err, chi.URLParam(r, "id"), "renamed: "+r.PostForm.Get(pos.FieldName))
}

// archiveTerminal is POST /dashboard/pos/terminals/{id}/archive.
func (d *Dashboard) archiveTerminal(w http.ResponseWriter, r *http.Request) {
	_, err := d.pos.ArchiveTerminal(r.Context(), chi.URLParam(r, "id"))
	d.terminalDone(w, r, err, chi.URLParam(r, "id"), "archived")
}

// savePOSSettings is POST /dashboard/pos/settings: qr_minutes, idle_hours (0,5 allowed).
func (d *Dashboard) savePOSSettings(w http.ResponseWriter, r *http.Request) {
	mins, err1 := strconv.Atoi(strings.TrimSpace(r.PostForm.Get(pos.FieldQRMinutes)))
	hours, err2 := strconv.ParseFloat(strings.Replace(strings.TrimSpace(r.PostForm.Get(pos.FieldIdleHours)), ",", ".", 1), 64)
	st := pos.Settings{QRLifetime: time.Duration(mins) * time.Minute, IdleLimit: time.Duration(math.Round(hours*60)) * time.Minute}
	if err1 != nil || err2 != nil || d.pos.SaveSettings(r.Context(), st) != nil {
		d.renderTerminals(w, r, http.StatusUnprocessableEntity, "", views.T(respond.Lang(r), "pos.settings_error"))
		return
	}
	d.record(r, audit.POSChanged, "settings", "qr "+strconv.Itoa(mins)+" min, idle "+hoursText(st.IdleLimit)+" h")
	respond.Redirect(w, r, terminalsPath+"?done=1")
}

// saveCashierTerminals is POST /dashboard/pos/cashiers/{id}: terminal (repeated), the
// terminals the cashier may use (every one: not narrowed).
func (d *Dashboard) saveCashierTerminals(w http.ResponseWriter, r *http.Request) {
	u, err := d.accounts.User(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	ids := slices.Clone(r.PostForm[fieldTerminal])
	if u.Role != team.RoleCashier || len(ids) == 0 {
		d.renderTerminals(w, r, http.StatusUnprocessableEntity, "", views.T(respond.Lang(r), "pos.err_terminal"))
		return
	}
	if err := d.pos.SetCashierTerminals(r.Context(), u.ID, ids); err != nil {
		d.renderTerminals(w, r, http.StatusUnprocessableEntity, "", views.T(respond.Lang(r), "pos.err_terminal"))
		return
	}
	d.record(r, audit.POSChanged, u.Email, "terminals: "+strings.Join(ids, ", "))
	respond.Redirect(w, r, terminalsPath+"?done=1")
}
