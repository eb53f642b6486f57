package web

import (
	"errors"
	"net/http"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/gatewayclient/strictjson"
	"github.com/pixcheckout/pixcheckout/web/apijson"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Data subjects' requests (LGPD art. 18) through the merchant API: the person is named by their
// document or e-mail in the body of a POST, never in the URL, so that it stays out of access
// logs. A write key only (the scope's rule for every POST): finding a person's data is as
// sensitive as changing it. Each request is written in the audit log, the subject masked.

// readSubject reads {"document": "…"} or {"email": "…"}: exactly one, a valid CPF or CNPJ, or
// e-mail address. It answers the error itself and reports whether the handler may go on.
func (a *merchantAPI) readSubject(w http.ResponseWriter, r *http.Request) (checkout.Subject, bool) {
	doc, ok := readJSON(w, r)
	if !ok {
		return checkout.Subject{}, false
	}
	rd := &strictjson.Reader{}
	var subj checkout.Subject
	if doc.Kind() != strictjson.Object {
		rd.Add("body", checkout.CodeType, "must be an object")
	} else {
		top, _ := rd.Object("", doc, "document", "email")
		document, email := rd.String("document", top.Get("document")), rd.String("email", top.Get("email"))
		var err error
		if subj, err = subjectOf(rd, document, email); err != nil {
			a.site.FailJSON(w, r, err)
			return checkout.Subject{}, false
		}
	}
	if err := rd.Err(); err != nil {
		a.site.FailJSON(w, r, err)
		return checkout.Subject{}, false
	}
	return subj, true
}

// subjectOf is the subject given as document or email (one of them), its violations added
// to rd; an error is a failure other than the subject's.
func subjectOf(rd *strictjson.Reader, document, email string) (checkout.Subject, error) {
	field, typed := "document", document
	if email != "" {
		field, typed = "email", email
	}
	switch {
	case document != "" && email != "":
		rd.Add("email", checkout.CodeFormat, "give either document or email, not both")
		return checkout.Subject{}, nil
	case typed == "":
		if len(rd.Violations) == 0 {
			rd.Add("document", checkout.CodeRequired, "give the subject's document (CPF or CNPJ) or email")
		}
		return checkout.Subject{}, nil
	}
	s, err := checkout.ParseSubject(typed)
	var fe *checkout.ValidationError
	switch {
	case errors.As(err, &fe):
		for _, v := range fe.For(checkout.FieldSubject) {
			rd.Add(field, v.Code, v.Message)
		}
	case err != nil:
		return checkout.Subject{}, err
	case field == "email" && !s.IsEmail(), field == "document" && s.IsEmail():
		rd.Add(field, checkout.CodeFormat, "is not a valid "+field)
	}
	return s, nil
}

// apiActor is who the audit log says made a request of the API: its key.
func apiActor(r *http.Request) string {
	if k := apiKeyOf(r); k != nil {
		return "api:" + k.Name
	}
	return "api"
}

// auditSubject writes a data subject's request in the audit log, the API key as its actor.
func (a *merchantAPI) auditSubject(r *http.Request, action string, subj checkout.Subject, what string) {
	if a.audit == nil {
		return
	}
	err := a.audit.Record(r.Context(), audit.Entry{Actor: apiActor(r), Action: action, Object: subj.Masked(),
		Address: respond.ClientIP(r), Detail: apijson.SubjectAuditDetail(subj, what)})
	if err != nil {
		a.site.LogError(r, err, checkout.ErrorCode(err))
	}
}

// searchSubject is POST /api/v1/data-subjects/search: everything the shop holds about the
// person (apijson.SubjectReport), orders anonymised included.
func (a *merchantAPI) searchSubject(w http.ResponseWriter, r *http.Request) {
	subj, ok := a.readSubject(w, r)
	if !ok {
		return
	}
	recs, err := a.svc.SubjectRecords(r.Context(), subj)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out := apijson.SubjectReportOf(recs, a.svc.Now(), a.publicBase(r))
	a.auditSubject(r, audit.SubjectSearch, subj, out.Summary())
	respond.JSON(w, http.StatusOK, out)
}

// anonymiseSubject is POST /api/v1/data-subjects/anonymise: anonymises now every order of the
// person that may be, and says which stay until resolved and why.
func (a *merchantAPI) anonymiseSubject(w http.ResponseWriter, r *http.Request) {
	subj, ok := a.readSubject(w, r)
	if !ok {
		return
	}
	res, err := a.svc.AnonymiseSubject(r.Context(), subj)
	if err != nil {
		a.site.FailJSON(w, r, err)
		return
	}
	out := apijson.AnonymiseReportOf(subj, res)
	a.auditSubject(r, audit.SubjectAnonymise, subj, out.Summary())
	respond.JSON(w, http.StatusOK, out)
}
