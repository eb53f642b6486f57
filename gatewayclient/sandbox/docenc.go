package sandbox

import (
	"encoding/json"
	"fmt"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// storedDeposit is the JSON a deposit is stored as. It reads back into gc.Deposit, but holds
// its times as ready-made strings and no type with its own MarshalJSON: gc.Deposit's
// marshalers re-encode and re-compact every nested time, which made encoding the largest
// cost of seeding a million deposits.
type storedDeposit struct {
	ID                 string            `json:"id"`
	AcquirerCode       string            `json:"acquirerCode,omitempty"`
	Acquirer           string            `json:"acquirer"`
	Amount             gc.Cents          `json:"amount"`
	PaymentMethod      gc.PaymentMethod  `json:"paymentMethod"`
	WebhookURL         string            `json:"webhookUrl,omitempty"`
	ExternalCode       string            `json:"externalCode,omitempty"`
	PaymentReceipt     *storedReceipt    `json:"paymentReceipt,omitempty"`
	RefundReceipt      *storedReceipt    `json:"refundReceipt,omitempty"`
	CreatedAt          string            `json:"createdAt"`
	Status             gc.DepositStatus  `json:"status"`
	StatusHistory      []storedHistory   `json:"statusHistory"`
	UpdatedAt          string            `json:"updatedAt"`
	AmountPaid         *gc.Cents         `json:"amountPaid,omitempty"`
	PaymentDate        string            `json:"paymentDate,omitempty"`
	RefundDate         string            `json:"refundDate,omitempty"`
	RefundAmount       *gc.Cents         `json:"refundAmount,omitempty"`
	PixResponse        *storedPix        `json:"pixResponse,omitempty"`
	ErrorMessage       string            `json:"errorMessage,omitempty"`
	ErrorMessageRefund string            `json:"errorMessageRefund,omitempty"`
	EndToEnd           string            `json:"endToEnd,omitempty"`
	EndToEndRefund     string            `json:"endToEndRefund,omitempty"`
	Payer              *gc.AccountHolder `json:"payer,omitempty"`
	Receiver           *gc.AccountHolder `json:"receiver,omitempty"`
	FeeAmount          *gc.Cents         `json:"feeAmount,omitempty"`
	DepositOrigin      gc.DepositOrigin  `json:"depositOrigin"`
}

type storedReceipt struct {
	URL            string `json:"url"`
	ExpirationDate string `json:"expirationDate"`
}

type storedHistory struct {
	Status                 string `json:"status"`
	DurationInMilliseconds int64  `json:"durationInMilliseconds"` // filled in when served
	Date                   string `json:"date"`
}

type storedPix struct {
	URI            string `json:"uri"`
	QRCodeBase64   string `json:"qrCodeBase64"`
	ExpirationDate string `json:"expirationDate"`
}

// optTime formats t, or "" for the zero time (then omitted).
func optTime(t interface{ IsZero() bool }, s func() string) string {
	if t.IsZero() {
		return ""
	}
	return s()
}

func storedReceiptOf(p *gc.PaymentReceipt) *storedReceipt {
	if p == nil {
		return nil
	}
	return &storedReceipt{URL: p.URL, ExpirationDate: gc.FormatTime(p.ExpirationDate)}
}

// encodeDeposit returns the stored JSON of d.
func encodeDeposit(d *gc.Deposit) ([]byte, error) {
	sd := storedDeposit{
		ID: d.ID, AcquirerCode: d.AcquirerCode, Acquirer: d.Acquirer, Amount: d.Amount, PaymentMethod: d.PaymentMethod,
		WebhookURL: d.WebhookURL, ExternalCode: d.ExternalCode,
		PaymentReceipt: storedReceiptOf(d.PaymentReceipt), RefundReceipt: storedReceiptOf(d.RefundReceipt),
		CreatedAt: gc.FormatTime(d.CreatedAt), Status: d.Status, UpdatedAt: gc.FormatTime(d.UpdatedAt),
		AmountPaid: d.AmountPaid, RefundAmount: d.RefundAmount,
		PaymentDate:  optTime(d.PaymentDate, func() string { return gc.FormatTime(d.PaymentDate) }),
		RefundDate:   optTime(d.RefundDate, func() string { return gc.FormatTime(d.RefundDate) }),
		ErrorMessage: d.ErrorMessage, ErrorMessageRefund: d.ErrorMessageRefund, EndToEnd: d.EndToEnd,
		EndToEndRefund: d.EndToEndRefund, Payer: d.Payer, Receiver: d.Receiver, FeeAmount: d.FeeAmount,
		DepositOrigin: d.DepositOrigin,
		StatusHistory: make([]storedHistory, len(d.StatusHistory)),
	}
	for i, h := range d.StatusHistory {
		sd.StatusHistory[i] = storedHistory{Status: h.Status, Date: gc.FormatTime(h.Date)}
	}
	if p := d.PixResponse; p != nil {
		sd.PixResponse = &storedPix{URI: p.URI, QRCodeBase64: p.QRCodeBase64, ExpirationDate: gc.FormatTime(p.ExpirationDate)}
	}
	b, err := json.Marshal(sd)
	if err != nil {
		return nil, fmt.Errorf("sandbox: encode deposit: %w", err)
	}
	return b, nil
}
