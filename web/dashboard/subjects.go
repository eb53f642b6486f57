package dashboard

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/charges"
	"github.com/pixcheckout/pixcheckout/checkout/subscriptions"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Data subjects' requests (LGPD art. 18), owners only (team.PermPersonalData): find
// everything held about a person by CPF, CNPJ or e-mail, export it (JSON, or a page to print)
// and anonymise it. The person travels in POST bodies only, never in a URL (access logs,
// history, Referer). Each request is in the audit log with the person masked.

// subjectsView is the page's frame.
func (d *Dashboard) subjectsView(r *http.Request) views.SubjectsView {
	return views.SubjectsView{DashPage: d.page(r, "personal-data"), Action: respond.Link(r, Path+"/personal-data"),
		ExportAction: respond.Link(r, Path+"/personal-data/export"), AnonymiseAction: respond.Link(r, Path+"/personal-data/anonymise")}
}

// subjectsPage is GET /dashboard/personal-data: the search form.
func (d *Dashboard) subjectsPage(w http.ResponseWriter, r *http.Request) {
	d.site.Render(w, r, http.StatusOK, views.SubjectsPage(d.subjectsView(r)))
}

// findSubject reads the posted subject and what the shop holds about them. On a wrong subject
// it renders the form with the error beside the field and returns nil.
func (d *Dashboard) findSubject(w http.ResponseWriter, r *http.Request, v *views.SubjectsView) (*checkout.SubjectRecords, checkout.Subject) {
	v.Subject = strings.TrimSpace(r.PostForm.Get("subject"))
	subj, err := checkout.ParseSubject(v.Subject)
	var fe *checkout.ValidationError
	if errors.As(err, &fe) {
		code := "format"
		if fe.Code(checkout.FieldSubject) == checkout.CodeRequired {
			code = "required"
		}
		v.Errors.Add("subject", code, views.T(v.Lang, "subjects.err_"+code))
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.SubjectsPage(*v))
		return nil, subj
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return nil, subj
	}
	recs, err := d.svc.SubjectRecords(r.Context(), subj)
	if err != nil {
		d.site.Fail(w, r, err)
		return nil, subj
	}
	return recs, subj
}

// searchSubject is POST /dashboard/personal-data: what the shop holds about the person.
func (d *Dashboard) searchSubject(w http.ResponseWriter, r *http.Request) {
	v := d.subjectsView(r)
	recs, subj := d.findSubject(w, r, &v)
	if recs == nil {
		return
	}
	rep := d.subjectReport(r, recs)
	d.record(r, audit.SubjectSearch, subj.Masked(), apijson.SubjectAuditDetail(subj,
		apijson.SubjectReportOf(recs, d.svc.Now(), d.publicURL).Summary()))
	v.Report = &rep
	d.site.Render(w, r, http.StatusOK, views.SubjectsPage(v))
}

// exportSubject is POST /dashboard/personal-data/export: the report as a JSON file
// (format=json) or as a page to print (format=html).
func (d *Dashboard) exportSubject(w http.ResponseWriter, r *http.Request) {
	v := d.subjectsView(r)
	recs, subj := d.findSubject(w, r, &v)
	if recs == nil {
		return
	}
	out := apijson.SubjectReportOf(recs, d.svc.Now(), d.publicURL)
	format := r.PostForm.Get("format")
	if format != "html" {
		format = "json"
	}
	d.record(r, audit.SubjectExport, subj.Masked(), apijson.SubjectAuditDetail(subj, format+": "+out.Summary()))
	if format == "html" {
		d.site.Render(w, r, http.StatusOK, views.SubjectsPrintPage(d.page(r, "personal-data"), d.subjectReport(r, recs)))
		return
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="dados-pessoais.json"`)
	_, _ = w.Write(b)
}

// anonymiseSubject is POST /dashboard/personal-data/anonymise: with the confirmation ticked,
// anonymises every order of the person that may be, and says which stay and why.
func (d *Dashboard) anonymiseSubject(w http.ResponseWriter, r *http.Request) {
	v := d.subjectsView(r)
	recs, subj := d.findSubject(w, r, &v)
	if recs == nil {
		return
	}
	if r.PostForm.Get("confirm") != "yes" {
		rep := d.subjectReport(r, recs)
		v.Report = &rep
		v.Errors.Add("confirm", checkout.CodeRequired, views.T(v.Lang, "subjects.err_confirm"))
		d.site.Render(w, r, http.StatusUnprocessableEntity, views.SubjectsPage(v))
		return
	}
	res, err := d.svc.AnonymiseSubject(r.Context(), subj)
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	out := apijson.AnonymiseReportOf(subj, res)
	d.record(r, audit.SubjectAnonymise, subj.Masked(), apijson.SubjectAuditDetail(subj, out.Summary()))
	v.Notice = views.T(v.Lang, "subjects.done", views.FormatCount(v.Lang, len(out.Anonymised)+len(out.AnonymisedRecords)),
		views.FormatCount(v.Lang, len(out.AlreadyAnonymised)+len(out.AlreadyAnonymisedRecords)),
		views.FormatCount(v.Lang, len(out.Refused)+len(out.RefusedRecords)))
	if recs, err = d.svc.SubjectRecords(r.Context(), subj); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	rep := d.subjectReport(r, recs)
	v.Report = &rep
	d.site.Render(w, r, http.StatusOK, views.SubjectsPage(v))
}

// subjectReport is the page's view of recs.
func (d *Dashboard) subjectReport(r *http.Request, recs *checkout.SubjectRecords) views.SubjectReport {
	rep := views.SubjectReport{Masked: recs.Subject.Masked(), GeneratedAt: d.svc.Now(), Notifications: len(recs.Notifications),
		Kept: apijson.KeptForFiscalReasons}
	for _, o := range recs.Orders {
		row := views.SubjectOrder{ID: o.ID, Number: o.Number, Status: string(o.Status), Amount: o.Amount, CreatedAt: o.CreatedAt,
			Name: o.Customer.Name, Document: brdoc.FormatDocument(o.Customer.Document), Email: o.Customer.Email,
			Phone: brdoc.FormatPhone(o.Customer.Phone), LinkID: o.LinkID, AnonymisedAt: recs.AnonymisedAt[o.ID],
			URL: respond.Link(r, Path+"/orders/"+o.ID)}
		if a := o.Address; a != nil {
			row.Address = strings.Join(nonEmpty(a.Street, a.Number, a.Complement, a.Neighborhood, a.City, a.State,
				brdoc.FormatCEP(a.ZipCode)), ", ")
		}
		for _, l := range o.Lines {
			row.Items = append(row.Items, l.Title)
		}
		for _, a := range o.Attempts {
			if a.EndToEnd != "" {
				row.EndToEnd = append(row.EndToEnd, a.EndToEnd)
			}
		}
		if row.AnonymisedAt.IsZero() {
			if row.Blocker = checkout.AnonymiseBlocker(o); row.Blocker == "" {
				rep.Anonymisable++
			}
		}
		rep.Orders = append(rep.Orders, row)
	}
	lang := respond.Lang(r)
	for _, h := range recs.Held {
		rep.Notifications += len(h.Notifications)
		row := views.SubjectRecord{Kind: h.Kind, ID: h.ID, KindText: views.T(lang, "subjects.kind_"+h.Kind),
			StatusText: heldStatusText(lang, h), Description: h.Description, Amount: h.Amount,
			CreatedAt: h.CreatedAt, Name: h.Customer.Name, Document: brdoc.FormatDocument(h.Customer.Document),
			Email: h.Customer.Email, Phone: brdoc.FormatPhone(h.Customer.Phone), AnonymisedAt: h.AnonymisedAt,
			Blocker: h.Blocker}
		switch h.Kind {
		case charges.HeldKind:
			row.URL = respond.Link(r, chargePath(h.ID))
		case subscriptions.HeldKind:
			row.URL = respond.Link(r, subscriptionPath(h.ID))
		}
		if row.AnonymisedAt.IsZero() && row.Blocker == "" {
			rep.Anonymisable++
		}
		rep.Records = append(rep.Records, row)
	}
	for _, s := range recs.Sessions {
		rep.Sessions = append(rep.Sessions, views.SubjectSession{ID: s.ID, CreatedAt: s.CreatedAt, Name: s.Customer.Name,
			Document: brdoc.FormatDocument(s.Customer.Document), Email: s.Customer.Email})
	}
	return rep
}

// nonEmpty returns the values that are not empty.
func nonEmpty(vs ...string) []string {
	out := vs[:0:0]
	for _, v := range vs {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// heldStatusText is the status of a record beside the orders in words, as its kind says it.
func heldStatusText(lang views.Lang, h checkout.HeldRecord) string {
	if h.Kind == subscriptions.HeldKind {
		return views.SubscriptionStatusText(lang, h.Status)
	}
	return views.ChargeStatusText(lang, h.Status)
}
