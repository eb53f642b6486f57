package dashboard

import (
	"context"
	"net/http"
	"strings"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
	"github.com/pixcheckout/pixcheckout/checkout/team"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/brdoc"
)

// Personal data on the dashboard (LGPD). A shopper's or a payer's document (CPF, CNPJ) and
// phones are masked on every page, list and export (brdoc.MaskDocument, MaskPhone, MaskPixKey:
// "***.982.247-**", "(11) *****-4321"). Only a role with team.PermPersonalData (owners) sees
// them in full, and only where it asks each time: an order's page answers the POST of its
// "show" form (with the session's token) with the page unmasked, that answer only, and an
// export asked with personalData=full is unmasked and named so; both are recorded in the audit
// log with who and what.

// paramPersonalData asks an export for documents and phones in full (value personalDataFull).
const (
	paramPersonalData = "personalData"
	personalDataFull  = "full"
)

// maskingGateway is the gateway as every dashboard page reads it: the account holders'
// documents and PIX keys of its records masked.
type maskingGateway struct{ g Gateway }

func (m maskingGateway) ListDeposits(ctx context.Context, f gatewayclient.DepositFilter) (*gatewayclient.Page[gatewayclient.Deposit], error) {
	p, err := m.g.ListDeposits(ctx, f)
	if p != nil {
		for i := range p.Data {
			maskDeposit(&p.Data[i])
		}
	}
	return p, err
}

func (m maskingGateway) GetDeposit(ctx context.Context, id string) (*gatewayclient.Deposit, error) {
	d, err := m.g.GetDeposit(ctx, id)
	if d != nil {
		maskDeposit(d)
	}
	return d, err
}

func (m maskingGateway) ListWithdrawals(ctx context.Context, f gatewayclient.WithdrawalFilter) (*gatewayclient.Page[gatewayclient.Withdrawal], error) {
	p, err := m.g.ListWithdrawals(ctx, f)
	if p != nil {
		for i := range p.Data {
			maskWithdrawal(&p.Data[i])
		}
	}
	return p, err
}

func maskHolder(h *gatewayclient.AccountHolder) {
	if h == nil {
		return
	}
	h.Document = brdoc.MaskDocument(h.Document)
	h.Pix.Key = brdoc.MaskPixKey(h.Pix.Key, brdoc.PixKeyType(h.Pix.Type))
}

func maskDeposit(d *gatewayclient.Deposit) {
	maskHolder(d.Payer)
	maskHolder(d.Receiver)
}

func maskWithdrawal(w *gatewayclient.Withdrawal) {
	maskHolder(w.Payer)
	maskHolder(w.Receiver)
	if w.PixKey != nil {
		k := *w.PixKey
		k.Key = brdoc.MaskPixKey(k.Key, brdoc.PixKeyType(k.Type))
		w.PixKey = &k
	}
}

// maskCustomer returns c with its document and phone masked.
func maskCustomer(c checkout.Customer) checkout.Customer {
	c.Document, c.Phone = brdoc.MaskDocument(c.Document), brdoc.MaskPhone(c.Phone)
	return c
}

// unmaskedExport reports whether the export r asks is to hold documents and phones in full:
// asked with personalData=full by a role that may (others get 403 from the caller). It returns
// the query without that parameter, for the filters' strict parsing.
func unmaskedExport(r *http.Request) (full, allowed bool, rawQuery string) {
	q := r.URL.Query()
	if q.Get(paramPersonalData) == "" {
		return false, true, r.URL.RawQuery
	}
	full = q.Get(paramPersonalData) == personalDataFull
	q.Del(paramPersonalData)
	return full, !full || can(r, team.PermPersonalData), q.Encode()
}

// exportGateway is the gateway an export reads: unmasked only when full.
func (d *Dashboard) exportGateway(full bool) Gateway {
	if full {
		return d.fullGateway
	}
	return d.gateway
}

// unmaskedExportURL is csvURL (an export's link) asking documents and phones in full, for a
// role that may ask it ("" for the others, and without an export).
func unmaskedExportURL(r *http.Request, csvURL string) string {
	if csvURL == "" || !can(r, team.PermPersonalData) {
		return ""
	}
	sep := "?"
	if strings.Contains(csvURL, "?") {
		sep = "&"
	}
	return csvURL + sep + paramPersonalData + "=" + personalDataFull
}

// recordExport records an export in the audit log: an unmasked one as such.
func (d *Dashboard) recordExport(r *http.Request, full bool, name, query string) {
	action := audit.Export
	if full {
		action = audit.ExportUnmasked
	}
	d.record(r, action, name, query)
}

// exportSuffix ends the file name of an export holding documents and phones in full
// ("deposits-20260301-120000-unmasked.csv"), so that the file says so wherever it goes.
func exportSuffix(r *http.Request) string {
	if full, allowed, _ := unmaskedExport(r); full && allowed {
		return "-unmasked"
	}
	return ""
}
