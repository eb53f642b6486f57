package dashboard

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/mail"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/views/email"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// mailPageSize is how many messages a page of the e-mail log shows.
const mailPageSize = 50

// mailNotices are the notices of the e-mail log after an action (?done=…).
var mailNotices = map[string]string{"test": "mail.test_sent", "cleared": "mail.cleared", "resent": "mail.resent"}

// mailPage is GET /dashboard/mail: the e-mail log, newest first, paged by key (?before=,
// ?after=), filtered by state and recipient. Recipients and bodies are masked for users
// without the personal-data right.
func (d *Dashboard) mailPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	personal := can(r, team.PermPersonalData)
	v := views.MailView{DashPage: d.page(r, "mail"), State: q.Get("state"), To: strings.TrimSpace(q.Get("to")),
		FilterAction: respond.Link(r, Path+"/mail"), NoServer: !d.mailConfigured, PersonalData: personal,
		TestAction: respond.Link(r, Path+"/mail/test"), TestTo: userOf(r).Email}
	for _, s := range mail.States() {
		v.States = append(v.States, string(s))
	}
	if key := mailNotices[q.Get("done")]; key != "" {
		v.Notice = views.T(v.Lang, key)
	}
	if personal {
		v.ClearAction = respond.Link(r, Path+"/mail/suppressions/clear")
	}
	f := mail.Filter{State: mail.State(v.State), Limit: mailPageSize + 1}
	if personal {
		f.To = v.To // a filter by address is a search of personal data
	}
	f.BeforeID, _ = strconv.ParseInt(q.Get("before"), 10, 64)
	f.AfterID, _ = strconv.ParseInt(q.Get("after"), 10, 64)
	entries, err := d.mail.List(ctx, f)
	sup, err2 := d.mail.Suppressions(ctx)
	if err := errors.Join(err, err2); err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		v.Failed = views.T(v.Lang, "orders.failed", respond.RequestID(ctx))
	}
	more := len(entries) > mailPageSize
	if more {
		if f.AfterID > 0 {
			entries = entries[1:] // newest first: the extra one is the newest
		} else {
			entries = entries[:mailPageSize]
		}
	}
	for _, e := range entries {
		v.Rows = append(v.Rows, d.mailRow(r, e, personal))
	}
	d.mailPager(r, &v, f, more)
	for _, s := range sup {
		addr := s.Address
		if !personal {
			addr = mail.MaskAddress(addr)
		}
		v.Suppressed = append(v.Suppressed, views.SuppressedRow{Address: addr, Reply: s.Reply, At: s.At})
	}
	d.site.Render(w, r, http.StatusOK, views.MailPage(v))
}

// mailPager sets the links to the newer and older pages of v.
func (d *Dashboard) mailPager(r *http.Request, v *views.MailView, f mail.Filter, more bool) {
	if len(v.Rows) == 0 {
		return
	}
	q := url.Values{}
	if v.State != "" {
		q.Set("state", v.State)
	}
	if v.To != "" {
		q.Set("to", v.To)
	}
	link := func(key string, id int64) string {
		qq := url.Values{}
		for k, vs := range q {
			qq[k] = vs
		}
		qq.Set(key, strconv.FormatInt(id, 10))
		return respond.Link(r, Path+"/mail?"+qq.Encode())
	}
	if f.BeforeID > 0 || (f.AfterID > 0 && more) {
		v.NewerURL = link("after", v.Rows[0].ID)
	}
	if f.AfterID > 0 || more {
		v.OlderURL = link("before", v.Rows[len(v.Rows)-1].ID)
	}
}

// mailRow is an entry as the log lists it.
func (d *Dashboard) mailRow(r *http.Request, e mail.Entry, personal bool) views.MailRow {
	to := e.To
	if !personal {
		to = mail.MaskAddress(to)
	}
	return views.MailRow{ID: e.ID, URL: respond.Link(r, Path+"/mail/"+strconv.FormatInt(e.ID, 10)), To: to,
		Subject: e.Content.Subject, Type: e.Type, State: string(e.State), Reason: e.Reason, CreatedAt: e.CreatedAt,
		UpdatedAt: e.UpdatedAt}
}

// mailEntry reads the message of the route's {id}, answering 404 itself when there is none.
func (d *Dashboard) mailEntry(w http.ResponseWriter, r *http.Request) (mail.Entry, bool) {
	lang := respond.Lang(r)
	id, err := strconv.ParseInt(chi.URLParam(r, "id"), 10, 64)
	if err == nil {
		var e mail.Entry
		if e, err = d.mail.Entry(r.Context(), id); err == nil {
			return e, true
		}
	}
	if err != nil && !errors.Is(err, mail.ErrNotFound) && !errors.Is(err, strconv.ErrSyntax) && !errors.Is(err, strconv.ErrRange) {
		d.site.Fail(w, r, err)
		return mail.Entry{}, false
	}
	d.errorPage(w, r, http.StatusNotFound, views.T(lang, "notfound.title"), views.T(lang, "detail.not_found"), "",
		respond.Link(r, Path+"/mail"))
	return mail.Entry{}, false
}

// mailMessage is GET /dashboard/mail/{id}: one message, its text in full for users with the
// personal-data right.
func (d *Dashboard) mailMessage(w http.ResponseWriter, r *http.Request) {
	e, ok := d.mailEntry(w, r)
	if !ok {
		return
	}
	personal := can(r, team.PermPersonalData)
	id := strconv.FormatInt(e.ID, 10)
	v := views.MailMessageView{DashPage: d.page(r, "mail"), MailRow: d.mailRow(r, e, personal), MessageID: e.MessageID,
		MessageLang: e.Content.Lang, Attempts: e.Attempts, BackURL: respond.Link(r, Path+"/mail"), Masked: !personal,
		SecretLink: holdsSecretLink(e)}
	if personal && !v.SecretLink {
		v.Text, v.HTMLURL = e.Content.Text, respond.Link(r, Path+"/mail/"+id+"/html")
	}
	if e.State == mail.Failed || e.State == mail.NotSent {
		v.ResendAction = respond.Link(r, Path+"/mail/"+id+"/resend")
	}
	if r.URL.Query().Get("done") == "resent" {
		v.Notice = views.T(v.Lang, "mail.resent")
	}
	d.site.Render(w, r, http.StatusOK, views.MailMessagePage(v))
}

// holdsSecretLink reports whether e's body carries a live bearer secret: a password reset's
// link signs in as its recipient for an hour, so no reader of the log, an owner included, may
// see it (the recipient has it; a lost one is asked for again).
func holdsSecretLink(e mail.Entry) bool { return e.Type == mailReset }

// mailHTMLPolicy is the Content-Security-Policy of a message's HTML: a sandboxed document (a
// unique origin, no script, no form, no navigation of the dashboard), no style, and images
// from the store's public URL only, as the message was made.
func (d *Dashboard) mailHTMLPolicy() string {
	img := "'none'"
	if d.publicURL != "" {
		img = d.publicURL + "/"
	}
	return "sandbox; default-src 'none'; img-src " + img + "; style-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

// mailHTML is GET /dashboard/mail/{id}/html: the message's HTML as a sandboxed document of its
// own, for users with the personal-data right (its route's permission).
func (d *Dashboard) mailHTML(w http.ResponseWriter, r *http.Request) {
	e, ok := d.mailEntry(w, r)
	if !ok {
		return
	}
	if holdsSecretLink(e) {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", d.mailHTMLPolicy())
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(e.Content.HTML))
}

// resendMail is POST /dashboard/mail/{id}/resend: a failed (or unsent) message is queued
// again, with the same Message-ID.
func (d *Dashboard) resendMail(w http.ResponseWriter, r *http.Request) {
	e, ok := d.mailEntry(w, r)
	if !ok {
		return
	}
	if err := d.mail.Resend(r.Context(), e.ID); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.MailResent, e.MessageID, e.Type)
	respond.Redirect(w, r, Path+"/mail/"+strconv.FormatInt(e.ID, 10)+"?done=resent")
}

// testMail is POST /dashboard/mail/test: a test e-mail to the signed-in user, in their
// language, through the same outbox as every message.
func (d *Dashboard) testMail(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	u := userOf(r)
	lang := respond.Lang(r)
	store := d.site.Profile(ctx)
	f := email.Frame{Lang: lang, StoreName: store.Name, PublicURL: d.mailComposer.PublicURL,
		SupportEmail: store.SupportEmail, Subject: views.T(lang, "email.test.subject", store.Name), Logo: views.StoreLogo(store)}
	// Each click is its own message: the cause is the click's moment.
	cause := u.ID + "/" + strconv.FormatInt(d.svc.Now().UnixNano(), 36)
	m, err := d.mailComposer.Compose(ctx, mail.Draft{Type: "mail.test", Cause: cause, To: mail.Address{Email: u.Email},
		Lang: string(lang), Subject: f.Subject, HTML: email.Test(f), Text: email.TestText(f), UserID: u.ID, At: d.svc.Now()})
	if err == nil {
		err = d.mail.Enqueue(ctx, m)
	}
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.MailTest, u.Email, "")
	respond.Redirect(w, r, Path+"/mail?done=test")
}

// clearSuppression is POST /dashboard/mail/suppressions/clear (field address): the address
// may receive e-mail again. Seeing and clearing addresses needs the personal-data right.
func (d *Dashboard) clearSuppression(w http.ResponseWriter, r *http.Request) {
	addr := strings.TrimSpace(r.PostForm.Get("address"))
	if addr == "" {
		respond.Redirect(w, r, Path+"/mail")
		return
	}
	if err := d.mail.Unsuppress(r.Context(), addr); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	d.record(r, audit.MailUnsuppressed, addr, "")
	respond.Redirect(w, r, Path+"/mail?done=cleared")
}
