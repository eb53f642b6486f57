package dashboard

import (
	"errors"
	"net/http"
	"slices"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// The customers' displays of the point of sale: a terminal's pairing code, shown to whoever
// may sell at it, and the owners' list of paired displays with their revocation. The display's
// own pages are the checkout's (/pos/display, package web).

// displayPath is the address a customer's display opens (web.DisplayPath; package web
// imports this one).
const displayPath = "/pos/display"

// displaysPage is GET /pos/displays: the paired displays, and a terminal's pairing code to ask.
func (d *Dashboard) displaysPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	list, err := d.displays.List(ctx)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	all, err := d.displays.Terminals(ctx)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	mine, err := d.displays.TerminalsOf(ctx, userOf(r))
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	lang := respond.Lang(r)
	v := views.PosDisplaysView{DashPage: d.page(r, "pos"), CodeAction: respond.Link(r, Path+"/pos/displays/code"),
		DisplayURL: d.publicURL + displayPath, Done: r.URL.Query().Get("done")}
	for _, t := range mine {
		v.Terminals = append(v.Terminals, views.PosTerminalOption{ID: t.ID, Name: t.Name})
	}
	for _, disp := range list {
		row := views.PosDisplayRow{ID: disp.ID, Terminal: disp.TerminalID, Paired: views.FormatDateTime(lang, disp.CreatedAt),
			RevokeAction: respond.Link(r, Path+"/pos/displays/"+disp.ID+"/revoke")}
		if i := slices.IndexFunc(all, func(t pos.Terminal) bool { return t.ID == disp.TerminalID }); i >= 0 {
			row.Terminal = all[i].Name
		}
		if !disp.Active() {
			row.Revoked = views.FormatDateTime(lang, disp.RevokedAt)
		}
		v.Displays = append(v.Displays, row)
	}
	d.site.Render(w, r, http.StatusOK, views.PosDisplaysPage(v))
}

// newDisplayCode is POST /pos/displays/code: a pairing code for the terminal of the form's
// "terminal" (one the user may sell at), shown large.
func (d *Dashboard) newDisplayCode(w http.ResponseWriter, r *http.Request) {
	id := r.PostForm.Get(pos.FieldTerminalID)
	code, expires, err := d.displays.NewCode(r.Context(), userOf(r), id)
	if errors.Is(err, pos.ErrNotAllowed) {
		d.site.Fail(w, r, &checkout.ValidationError{Kind: "validation",
			Violations: []checkout.Violation{{Field: pos.FieldTerminalID, Code: string(checkout.CodeEnum), Message: "is not a terminal you may use"}}})
		return
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	t, err := d.displays.TerminalsOf(r.Context(), userOf(r))
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	name := id
	if i := slices.IndexFunc(t, func(t pos.Terminal) bool { return t.ID == id }); i >= 0 {
		name = t[i].Name
	}
	w.Header().Set("Cache-Control", "no-store")
	d.site.Render(w, r, http.StatusOK, views.PosDisplayCodePage(views.PosDisplayCodeView{DashPage: d.page(r, "pos"),
		Terminal: name, Code: code, Expires: expires.In(views.SaoPaulo()).Format("15:04"),
		DisplayURL: d.publicURL + displayPath, BackURL: respond.Link(r, Path+"/pos")}))
}

// revokeDisplay is POST /pos/displays/{id}/revoke: the display's token shows nothing from now
// on: its open stream ends at once (pos.Displays.OnRevoke), its page asks for a code.
func (d *Dashboard) revokeDisplay(w http.ResponseWriter, r *http.Request) {
	if err := d.displays.Revoke(r.Context(), chi.URLParam(r, "id")); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	respond.Redirect(w, r, Path+"/pos/displays?done=revoked")
}
