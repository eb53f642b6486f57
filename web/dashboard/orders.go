package dashboard

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
	"github.com/pixcheckout/pixcheckout/views"
	"github.com/pixcheckout/pixcheckout/web/respond"
)

// Parameters of the order list (the shop's own, so its own names where the gateway has none).
const (
	paramSearch = "q"
	paramFrom   = "from" // a São Paulo date: orders created from its first instant
	paramTo     = "to"   // a São Paulo date: orders created up to its last instant
	// paramCursor is where a page starts (checkout.Cursor): the list pages by key, not by page
	// number, so that a page stays the same while orders arrive and costs the same at any depth.
	paramCursor = "cursor"
	paramLink   = "link" // a payment link's id: the orders placed through it
	// paramFulfilment is a fulfilment state (checkout.Fulfilments): awaiting_shipment, …
	paramFulfilment = "fulfilment"
	// paramSort is the list's order (checkout.OrderSort: created_desc, the default,
	// created_asc, amount_desc, amount_asc); the cursor carries it too.
	paramSort = "sort"
	// paramMoney names one of the overview's figures (checkout.MoneyKind: received, refunded,
	// held, fees, fee_unknown): the list is of the orders behind it, and from and to are the
	// dates of that figure (paid, refund begun, under review) rather than of creation.
	paramMoney = "money"
	// paramChannel is a channel (checkout.Channels: shop, session, link, charge, pos), repeatable:
	// the orders started through any of them.
	paramChannel = "channel"
)

// maxSearch bounds the search box.
const maxSearch = 100

// orderParams are the parameters of the order list's form.
var orderParams = map[string]bool{paramSearch: true, paramStatus: true, paramFrom: true, paramTo: true,
	paramMinAmount: true, paramMaxAmount: true, paramCursor: true, paramPerPage: true, paramLink: true, paramFulfilment: true,
	paramSort: true, paramMoney: true, paramChannel: true}

// parseOrderQuery reads the order list's query, as strictly as the gateway lists'.
func parseOrderQuery(raw string) (url.Values, checkout.OrderFilter, int, *checkout.ValidationError) {
	q, errs := strictQuery(raw)
	r := &queryReader{q: q, errs: errs}
	search := r.single(paramSearch)
	if utf8.RuneCountInString(search) > maxSearch {
		addFilterError(errs, paramSearch, checkout.CodeMaxLength, "too long")
		search = ""
	}
	f := checkout.OrderFilter{
		Search:    search,
		Statuses:  list(r, paramStatus, checkout.OrderStatus.Valid),
		MinAmount: r.amount(paramMinAmount),
		MaxAmount: r.amount(paramMaxAmount),
		LinkID:    r.single(paramLink),
		Channels:  list(r, paramChannel, validChannel),
	}
	f.Fulfilment = fulfilmentParam(r)
	r.orderDates(&f)
	if f.MinAmount > 0 && f.MaxAmount > 0 && f.MaxAmount < f.MinAmount {
		addFilterError(errs, paramMaxAmount, checkout.CodeRange, "below minAmount")
	}
	perPage := r.integer(paramPerPage, 1, maxPerPage)
	if perPage == 0 {
		perPage = defaultPerPage
	}
	sort, err := checkout.ParseOrderSort(r.single(paramSort))
	if err != nil {
		addFilterError(errs, paramSort, checkout.CodeEnum, err.Error())
		sort = checkout.SortCreatedDesc
	}
	f.Sort, f.Page.Sort = sort, sort
	if c := r.single(paramCursor); c != "" {
		cur, err := checkout.ParseCursor(c)
		switch {
		case err != nil:
			addFilterError(errs, paramCursor, checkout.CodeFormat, "not a cursor")
		case cur.Sort != sort:
			// A key of another order means nothing in this one.
			addFilterError(errs, paramCursor, checkout.CodeFormat, "a cursor of sort "+string(cur.Sort))
		default:
			f.Page = cur
		}
	}
	// One more than a page tells whether another follows.
	f.Limit = perPage + 1
	return q, f, perPage, errs
}

// validChannel reports whether c is one of checkout.Channels.
func validChannel(c checkout.Channel) bool { return slices.Contains(checkout.Channels(), c) }

// orderDates reads the order list's dates (from, to: São Paulo dates, the last one whole)
// into f: the orders' creation, or with money the dates of that overview figure.
func (r *queryReader) orderDates(f *checkout.OrderFilter) {
	from, to := r.day(paramFrom), r.day(paramTo)
	if m := list(r, paramMoney, checkout.MoneyKind.Valid); len(m) > 0 {
		f.Money = m[0]
	}
	start, before := &f.CreatedFrom, &f.CreatedBefore
	if f.Money != "" {
		start, before = &f.MoneyFrom, &f.MoneyBefore
	}
	if !from.IsZero() {
		*start = from
	}
	if !to.IsZero() {
		*before = to.AddDate(0, 0, 1) // the whole last day
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		addFilterError(r.errs, paramTo, checkout.CodeRange, "before from")
	}
}

// day reads a date (YYYY-MM-DD, as a date input sends it) as the first instant of that day in
// São Paulo.
func (r *queryReader) day(name string) time.Time {
	s := r.single(name)
	if s == "" {
		return time.Time{}
	}
	d, err := time.ParseInLocation("2006-01-02", s, views.SaoPaulo())
	if err != nil {
		addFilterError(r.errs, name, checkout.CodeFormat, "must be a date such as 2026-03-01")
		return time.Time{}
	}
	return d
}

// orders is GET /dashboard/orders: a page of the shop's orders matching the filters, newest
// first, with links to the pages before and after it and the count of the matches (up to
// checkout.MaxCounted: past it, "more than 10,000").
func (d *Dashboard) orders(w http.ResponseWriter, r *http.Request) {
	q, f, perPage, errs := parseOrderQuery(r.URL.RawQuery)
	lang := respond.Lang(r)
	v := views.OrdersView{DashPage: d.page(r, "orders"), Searched: hasFilters(q)}
	status := http.StatusOK
	if errs.OrNil() == nil {
		res, err := d.svc.MerchantOrders(r.Context(), f)
		if err != nil {
			code := checkout.ErrorCode(err)
			d.site.LogError(r, err, code)
			status = respond.HTTPStatus(code)
			v.Failed = views.T(lang, "orders.failed", respond.RequestID(r.Context()))
		} else {
			d.orderRows(r, &v, res, q, f, perPage)
		}
	} else {
		status = http.StatusUnprocessableEntity
	}
	v.Filter = orderFilter(r, d.svc.Now(), q, f, perPage, errs)
	v.ByDate = columnSort(q, f.Sort, checkout.SortCreatedDesc, checkout.SortCreatedAsc)
	v.ByAmount = columnSort(q, f.Sort, checkout.SortAmountDesc, checkout.SortAmountAsc)
	d.site.Render(w, r, status, views.OrdersPage(v))
}

// orderRows fills v with the page of res that f asks (perPage rows), its pager and, for a role
// that may export, the export's links.
func (d *Dashboard) orderRows(r *http.Request, v *views.OrdersView, res *checkout.OrderPage, q url.Values, f checkout.OrderFilter, perPage int) {
	lang := respond.Lang(r)
	rows, next, prev := checkout.Paged(res.Orders, perPage, f.Page, func(o checkout.OrderSummary) checkout.OrderKey {
		return checkout.OrderKey{CreatedAt: o.CreatedAt, Amount: o.Amount, ID: o.ID}
	})
	for _, o := range rows {
		v.Rows = append(v.Rows, views.OrderRow{ID: o.ID, Number: o.Number,
			URL:       respond.Link(r, Path+"/orders/"+url.PathEscape(o.ID)),
			CreatedAt: o.CreatedAt, PaidAt: o.PaidAt, Customer: o.CustomerName, Email: o.CustomerEmail,
			Amount: o.Amount, Status: string(o.Status), StatusText: views.StatusText(lang, o.Status),
			LatePayment: o.LatePayment, RefundDue: o.RefundDue, Fulfilment: o.Fulfilment(),
			Channel: string(o.Channel), ChannelText: views.ChannelText(lang, o.Channel)})
	}
	d.tagLinks(r, rows, v.Rows)
	v.Pager = d.cursorPager(Path+"/orders", q, res.Total, perPage, !f.Page.Key.IsZero(), next, prev)
	if can(r, team.PermExport) {
		eq := cloneValues(q)
		eq.Del(paramCursor)
		v.CSVURL = exportURL(Path+"/orders.csv", eq)
		v.CSVFullURL = unmaskedExportURL(r, v.CSVURL)
		v.Exports = d.myExports(r)
	}
}

// orderFilter is the orders page's filter bar and form for the query q (read as f, with the
// violations errs), its date presets as of now.
func orderFilter(r *http.Request, now time.Time, q url.Values, f checkout.OrderFilter, perPage int, errs *checkout.ValidationError) views.OrderFilterView {
	lang := respond.Lang(r)
	filter := views.OrderFilterView{Action: Path + "/orders", ClearURL: respond.Link(r, Path+"/orders"),
		Values: map[string]string{}, PerPage: perPage,
		Bar: views.FilterBar{Presets: presetLinks(now, Path+"/orders", q, paramFrom, paramTo),
			Active: activeFilters(q, orderParams)}}
	chip := cloneValues(q)
	chip.Del(paramCursor)
	awaiting := firstValue(q, paramFulfilment) == checkout.FulfilmentAwaitingShipment
	if awaiting {
		chip.Del(paramFulfilment)
	} else {
		chip.Set(paramFulfilment, checkout.FulfilmentAwaitingShipment)
	}
	filter.AwaitingShipment = views.PresetLink{Key: checkout.FulfilmentAwaitingShipment,
		URL: respond.Link(r, withQuery(Path+"/orders", chip)), Current: awaiting}
	for _, s := range checkout.OrderSorts() {
		filter.Sorts = append(filter.Sorts, views.Option{Value: string(s), Label: views.T(lang, "sort."+string(s)),
			Checked: s == f.Sort})
	}
	for _, name := range []string{paramSearch, paramFrom, paramTo, paramMinAmount, paramMaxAmount, paramCursor, paramLink, paramFulfilment} {
		filter.Values[name] = firstValue(q, name)
	}
	filter.Errors = views.Localise(errs, func(viol checkout.Violation) string { return orderFilterMessage(lang, viol.Field, viol) })
	channels := listValues(q, paramChannel)
	for _, ch := range checkout.Channels() {
		filter.Channels = append(filter.Channels, views.Option{Value: string(ch), Label: views.ChannelText(lang, ch),
			Checked: channels[string(ch)]})
	}
	checked := listValues(q, paramStatus)
	for _, st := range checkout.OrderStatuses() {
		filter.Statuses = append(filter.Statuses, views.Option{Value: string(st),
			Label: views.StatusText(lang, st), Checked: checked[string(st)], Chip: orderChips[st]})
		if orderChips[st] {
			// The bar's chips say the state in a word (the full words are the checkbox's
			// label under "more filters" and in the rows).
			filter.Statuses[len(filter.Statuses)-1].Short = views.T(lang, "chip."+string(st))
		}
	}
	return filter
}

// orderChips are the order states the filter bar offers as chips; the others are under "more
// filters".
var orderChips = map[checkout.OrderStatus]bool{checkout.StatusAwaitingPayment: true, checkout.StatusPaid: true,
	checkout.StatusExpired: true}

// columnSort is the header of a column sorted by first (its first click) or second: a link
// to the list sorted by first, or by the other one when first is the current sort, from its
// first page.
func columnSort(q url.Values, current, first, second checkout.OrderSort) views.ColumnSort {
	c := views.ColumnSort{}
	to := first
	switch current {
	case first:
		to, c.Dir = second, direction(first)
	case second:
		c.Dir = direction(second)
	}
	v := cloneValues(q)
	v.Del(paramCursor)
	v.Del(paramSort)
	if to != checkout.SortCreatedDesc {
		v.Set(paramSort, string(to))
	}
	c.URL = withQuery(Path+"/orders", v)
	return c
}

// direction is aria-sort's word for s.
func direction(s checkout.OrderSort) string {
	if s.Descending() {
		return "descending"
	}
	return "ascending"
}

// tagLinks names, on the rows of orders placed through a payment link, that link (its title,
// a way to its page). A link that cannot be read leaves the rows untagged: the list still shows.
func (d *Dashboard) tagLinks(r *http.Request, orders []checkout.OrderSummary, rows []views.OrderRow) {
	titles := map[string]string{}
	for _, o := range orders {
		if o.LinkID != "" {
			titles[o.LinkID] = ""
		}
	}
	if len(titles) == 0 {
		return
	}
	links, err := d.svc.Links(r.Context())
	if err != nil {
		d.site.LogError(r, err, checkout.ErrorCode(err))
		return
	}
	for _, l := range links {
		if _, ok := titles[l.ID]; ok {
			titles[l.ID] = l.Title
		}
	}
	for i, o := range orders {
		if t := titles[o.LinkID]; t != "" {
			rows[i].LinkTitle, rows[i].LinkURL = t, respond.Link(r, linkPath(o.LinkID))
		}
	}
}

// cursorPager is the pagination of the list at path, paged by key: links to its first page (when this is
// not it), to the pages before and after it (next, prev: zero keys for none), the count of the
// matches (capped: checkout.MaxCounted+1 is "more than"), and the page-size form.
func (d *Dashboard) cursorPager(path string, q url.Values, total, perPage int, paged bool, next, prev checkout.Cursor) views.Pager {
	pg := views.Pager{Total: total, Capped: total > checkout.MaxCounted, PerPage: perPage, Keyset: true,
		SizeAction: path, Sizes: views.PerPageChoices()}
	link := func(c checkout.Cursor) string {
		v := cloneValues(q)
		v.Del(paramCursor)
		if !c.Key.IsZero() {
			v.Set(paramCursor, c.String())
		}
		return withQuery(path, v)
	}
	if paged {
		pg.First = link(checkout.Cursor{})
	}
	if !prev.Key.IsZero() {
		pg.Prev = link(prev)
	}
	if !next.Key.IsZero() {
		pg.Next = link(next)
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if k == paramCursor || k == paramPerPage {
			continue
		}
		for _, v := range q[k] {
			pg.SizeHidden = append(pg.SizeHidden, views.Hidden{Name: k, Value: v})
		}
	}
	return pg
}

// orderFilterWords are the words of the order filter's violations without parameters: the
// first rule naming the parameter with the code ("" any) gives the message's key.
var orderFilterWords = []struct {
	params    []string
	code, key string
}{
	{[]string{paramSearch}, "", "filter.err.search"},
	{[]string{paramCursor}, "", "filter.err.cursor"},
	{[]string{paramSort}, "", "filter.err.sort"},
	{[]string{paramFrom, paramTo}, checkout.CodeRange, "filter.err.day_range"},
	{[]string{paramFrom, paramTo}, checkout.CodeDuplicate, "filter.err.duplicate"},
	{[]string{paramFrom, paramTo}, "", "filter.err.day"},
}

// orderFilterMessage is the localised message of an order filter's violation.
func orderFilterMessage(lang views.Lang, param string, v checkout.Violation) string {
	if v.Code == codeUnreadable {
		return views.T(lang, "filter.err.unreadable", param)
	}
	for _, w := range orderFilterWords {
		if slices.Contains(w.params, param) && (w.code == "" || w.code == v.Code) {
			return views.T(lang, w.key)
		}
	}
	switch {
	case (param == paramStatus || param == paramChannel) && v.Code == checkout.CodeEnum:
		return views.T(lang, "filter.err.enum", quoted(v.Message))
	case (param == paramMinAmount || param == paramMaxAmount) && v.Code == checkout.CodeMin:
		return views.T(lang, "filter.err.amount_min", views.FormatMoney(lang, 1))
	}
	return filterMessage(lang, param, v, 1)
}

// order is GET /dashboard/orders/{id}: everything known of one order and the actions its state
// allows, the shopper's document and phone masked (an owner has the form that shows them:
// showPersonalData).
func (d *Dashboard) order(w http.ResponseWriter, r *http.Request) { d.orderPage(w, r, false) }

// showPersonalData is POST /dashboard/orders/{id}/personal-data (team.PermPersonalData):
// the order's page with the shopper's document and phone in full, in this answer only, which
// the audit log records with the order.
func (d *Dashboard) showPersonalData(w http.ResponseWriter, r *http.Request) {
	d.orderPage(w, r, true)
}

// orderPage answers the page of the order of the URL, the shopper's document and phone in
// full when full (and recorded so in the audit log), else masked.
func (d *Dashboard) orderPage(w http.ResponseWriter, r *http.Request, full bool) {
	lang := respond.Lang(r)
	o, err := d.svc.Order(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		if checkout.ErrorCode(err) == checkout.CodeNotFound {
			d.errorPage(w, r, http.StatusNotFound, views.T(lang, "notfound.title"), views.T(lang, "notfound.text"), "",
				respond.Link(r, Path+"/orders"))
			return
		}
		d.site.Fail(w, r, err)
		return
	}
	var sent views.OrderActions
	if key := actionNotices[r.URL.Query().Get("done")]; key != "" {
		sent.Notice = views.T(lang, key)
	}
	if full {
		d.record(r, audit.PersonalShown, o.Number+" ("+o.ID+")", "")
	}
	d.renderOrder(w, r, http.StatusOK, o, sent, full)
}

// renderOrder renders the page of o with status; sent is the action form just sent (its
// values and errors) or the notice of what was just done; the shopper's document and phone in
// full when full, else masked.
func (d *Dashboard) renderOrder(w http.ResponseWriter, r *http.Request, status int, o *checkout.Order, sent views.OrderActions, full bool) {
	lang := respond.Lang(r)
	back := respond.Link(r, Path+"/orders")
	v := views.OrderView{DashPage: d.page(r, "orders"), BackURL: back, PersonalShown: full}
	v.Actions = d.orderActions(r, o)
	v.Actions.Form, v.Actions.Values, v.Actions.Errors = sent.Form, sent.Values, sent.Errors
	v.Actions.Failed, v.Actions.Notice = sent.Failed, sent.Notice
	customer := o.Customer
	if !full {
		customer = maskCustomer(customer)
		if can(r, team.PermPersonalData) && (customer.Document != o.Customer.Document || customer.Phone != o.Customer.Phone) {
			v.PersonalAction = respond.Link(r, Path+"/orders/"+url.PathEscape(o.ID)+"/personal-data")
		}
	}
	v.Order = views.OrderDetail{ID: o.ID, Number: o.Number, ExternalCode: o.ExternalCode, MerchantReference: o.MerchantReference,
		SessionID: o.SessionID, Status: string(o.Status), StatusText: views.StatusText(lang, o.Status), Amount: o.Amount,
		ChannelText: views.ChannelText(lang, o.Channel),
		RefundDue:   o.RefundDue, LatePayment: o.LatePayment, Physical: o.Physical, CreatedAt: o.CreatedAt,
		UpdatedAt: o.UpdatedAt, PaidAt: o.PaidAt, PayBy: o.PayBy, Lang: o.Lang, ShopperIP: o.ShopperIP,
		CustomerName: o.Customer.Name, CustomerDocument: customer.Document, CustomerEmail: o.Customer.Email,
		CustomerPhone: customer.Phone, Shipping: views.ShippingOf(o)}
	// A paid order on its way says so in its badge (its state stays paid).
	if f := o.Fulfilment(); o.Status == checkout.StatusPaid && (f == checkout.FulfilmentShipped || f == checkout.FulfilmentDelivered) {
		v.Order.StatusText = views.T(lang, "fulfilment."+f)
	}
	d.orderLink(r, o, &v.Order)
	if o.ChargeID != "" && can(r, team.PermChargesRead) {
		v.Order.ChargeURL = respond.Link(r, chargePath(o.ChargeID))
	}
	v.Order.Address = addressLines(o.Address)
	for _, l := range o.Lines {
		v.Lines = append(v.Lines, views.OrderLineView{Title: l.Title, Quantity: l.Quantity, UnitPrice: l.UnitPrice,
			Subtotal: l.Subtotal(), Physical: l.Physical})
	}
	v.Attempts = attemptViews(r, o.Attempts)
	v.History = historyViews(lang, o.History)
	d.site.Render(w, r, status, views.OrderPage(v))
}

// orderLink names the payment link o was sold by, if any, by its title; a link that cannot be
// read is still linked, by its id.
func (d *Dashboard) orderLink(r *http.Request, o *checkout.Order, od *views.OrderDetail) {
	if o.LinkID == "" {
		return
	}
	od.LinkTitle, od.LinkURL = o.LinkID, respond.Link(r, linkPath(o.LinkID))
	if l, err := d.svc.Link(r.Context(), o.LinkID); err == nil {
		od.LinkTitle = l.Title
	} else {
		d.site.LogError(r, err, checkout.ErrorCode(err))
	}
}

// addressLines are the lines of an order's address as its page shows them (none without one).
func addressLines(a *checkout.Address) []string {
	if a == nil {
		return nil
	}
	street := a.Street + ", " + views.AddressNumber(a.Number)
	if a.Complement != "" {
		street += " — " + a.Complement
	}
	return []string{street, a.Neighborhood, a.City + " — " + a.State, brdoc.FormatCEP(a.ZipCode) + " · " + a.Country}
}

// attemptViews are an order's payment attempts, each linked to its deposit.
func attemptViews(r *http.Request, attempts []checkout.Attempt) []views.AttemptView {
	var out []views.AttemptView
	for _, a := range attempts {
		av := views.AttemptView{N: a.N, IdempotencyKey: a.IdempotencyKey, DepositID: a.TransactionID, State: string(a.State),
			DepositStatus: string(a.DepositStatus), ExpiresAt: a.ExpiresAt, Error: a.Error, CreatedAt: a.CreatedAt}
		if a.TransactionID != "" {
			av.DepositURL = respond.Link(r, Path+"/deposits/"+url.PathEscape(a.TransactionID))
		}
		out = append(out, av)
	}
	return out
}

// historyViews are an order's changes of state, in words.
func historyViews(lang views.Lang, history []checkout.StatusChange) []views.HistoryView {
	var out []views.HistoryView
	for _, h := range history {
		hv := views.HistoryView{From: string(h.From), To: string(h.To),
			FromText: views.StatusText(lang, h.From), ToText: views.StatusText(lang, h.To), At: h.At, Reason: h.Reason}
		// Shipping and delivery leave the order paid: their entries say what happened.
		switch h.Reason.Code {
		case checkout.ReasonShipped:
			hv.ToText = views.T(lang, "fulfilment."+checkout.FulfilmentShipped)
		case checkout.ReasonDelivered:
			hv.ToText = views.T(lang, "fulfilment."+checkout.FulfilmentDelivered)
		}
		out = append(out, hv)
	}
	return out
}

// overview is GET /dashboard: the figures of today, 7 and 30 days, and the daily chart, of
// every channel or of those of the query's channel parameters (repeatable); the charges' figures
// for a role that reads charges.
func (d *Dashboard) overview(w http.ResponseWriter, r *http.Request) {
	q, errs := strictQuery(r.URL.RawQuery)
	qr := &queryReader{q: q, errs: errs}
	channels := list(qr, paramChannel, validChannel)
	terminal := qr.single(paramTerminal)
	if err := errs.OrNil(); err != nil {
		d.site.Fail(w, r, err)
		return
	}
	ov, err := d.svc.Overview(r.Context(), views.SaoPaulo(), checkout.OverviewFilter{Channels: channels, TerminalID: terminal})
	if err != nil {
		d.site.Fail(w, r, err)
		return
	}
	due := func(*http.Request) int { return ov.RefundsDue }
	awaiting := url.Values{paramStatus: {string(checkout.StatusPending), string(checkout.StatusAwaitingPayment)}}
	withChannels(awaiting, channels)
	v := views.OverviewView{DashPage: d.pageCounting(r, "overview", due),
		Today:       views.PaidFigure(ov.Today.Received),
		Week:        views.PaidFigure(ov.Week.Received),
		Month:       views.PaidFigure(ov.Month.Received),
		Money:       moneyColumns(r, ov),
		Awaiting:    ov.Awaiting,
		AwaitingURL: respond.Link(r, withQuery(Path+"/orders", awaiting)),
		Placed:      ov.Placed, PlacedPaid: ov.PlacedPaid, Conversion: ov.ConversionPermille(),
		Chart:     chart(ov.Days, ov.Previous),
		Top:       topProducts(ov.Top),
		OrdersURL: respond.Link(r, Path+"/orders"),
		Attention: attention(r, ov),
		Channels:  channelLinks(r, channels),
		ByChannel: channelRows(r, ov),
	}
	if d.charges != nil && can(r, team.PermChargesRead) {
		if v.Charges, err = d.chargeFigures(r, ov); err != nil {
			d.site.Fail(w, r, err)
			return
		}
	}
	d.site.Render(w, r, http.StatusOK, views.OverviewPage(v))
}
