package gatewayclient

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Cents is an amount of money in integer cents of BRL: R$ 100,50 is Cents(10050).
// The gateway rejects decimals and negative values; so does UnmarshalJSON for decimals.
type Cents int64

// UnmarshalJSON accepts only JSON integers (no fractions, no exponents, no strings), so that
// a value such as 1.5 is reported instead of being silently truncated.
func (c *Cents) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("gatewayclient: amount %s is not an integer number of cents", s)
	}
	*c = Cents(v)
	return nil
}

// PaymentMethod is the method of a transaction or deposit. PIX is the only one.
type PaymentMethod string

// PaymentMethodPIX is the only payment method of the gateway.
const PaymentMethodPIX PaymentMethod = "PIX"

// TransactionType is the record type returned by POST /transaction.
type TransactionType string

// TransactionTypeTransaction is the only record type of a transaction creation response.
const TransactionTypeTransaction TransactionType = "TRANSACTION"

// DepositStatus is the state of a deposit (field status, statusHistory[].status and the
// status filter of GET /deposit).
type DepositStatus string

// Deposit states, exactly as the gateway spells them.
const (
	DepositPending              DepositStatus = "PENDING"                  // created, awaiting processing
	DepositPixQRCodeGenerated   DepositStatus = "PIX_QRCODE_GENERATED"     // QR code generated, awaiting payment
	DepositPaid                 DepositStatus = "PAID"                     // paid
	DepositProcessingRefund     DepositStatus = "PROCESSING_REFUND"        // refund in processing
	DepositProcessingInfraction DepositStatus = "PROCESSING_INFRACTION"    // infraction in processing
	DepositRefunded             DepositStatus = "REFUNDED"                 // refunded
	DepositInfraction           DepositStatus = "INFRACTION"               // refunded through MED
	DepositFailed               DepositStatus = "FAILED"                   // processing error
	DepositBlocked              DepositStatus = "BLOCKED"                  // blocked because a MED was opened
	DepositPixKeyGenerated      DepositStatus = "DEPOSIT_PIXKEY_GENERATED" // generated through a PIX key
	DepositPendingCompliance    DepositStatus = "PENDING_COMPLIANCE"       // awaiting compliance review
)

// DepositStatuses lists every deposit state of the spec, in the spec's order.
func DepositStatuses() []DepositStatus {
	return []DepositStatus{DepositPending, DepositPixQRCodeGenerated, DepositPaid, DepositProcessingRefund,
		DepositProcessingInfraction, DepositRefunded, DepositInfraction, DepositFailed, DepositBlocked,
		DepositPixKeyGenerated, DepositPendingCompliance}
}

// Valid reports whether s is one of the deposit states of the spec.
func (s DepositStatus) Valid() bool {
	for _, v := range DepositStatuses() {
		if v == s {
			return true
		}
	}
	return false
}

// WithdrawalStatus is the state of a withdrawal.
type WithdrawalStatus string

// Withdrawal states, exactly as the gateway spells them.
const (
	WithdrawalPending           WithdrawalStatus = "PENDING"            // created, awaiting processing
	WithdrawalProcessing        WithdrawalStatus = "PROCESSING"         // in processing
	WithdrawalProcessed         WithdrawalStatus = "PROCESSED"          // processed successfully
	WithdrawalFailed            WithdrawalStatus = "FAILED"             // processing error
	WithdrawalCanceled          WithdrawalStatus = "CANCELED"           // canceled
	WithdrawalRefunded          WithdrawalStatus = "REFUNDED"           // refunded
	WithdrawalRejected          WithdrawalStatus = "REJECTED"           // rejected by the gateway
	WithdrawalPendingCompliance WithdrawalStatus = "PENDING_COMPLIANCE" // awaiting compliance review
)

// WithdrawalStatuses lists every withdrawal state of the spec, in the spec's order.
func WithdrawalStatuses() []WithdrawalStatus {
	return []WithdrawalStatus{WithdrawalPending, WithdrawalProcessing, WithdrawalProcessed, WithdrawalFailed,
		WithdrawalCanceled, WithdrawalRefunded, WithdrawalRejected, WithdrawalPendingCompliance}
}

// Valid reports whether s is one of the withdrawal states of the spec.
func (s WithdrawalStatus) Valid() bool {
	for _, v := range WithdrawalStatuses() {
		if v == s {
			return true
		}
	}
	return false
}

// DepositOrigin tells how a deposit was made: by paying a QR code or by a transfer to a PIX key.
type DepositOrigin string

// Deposit origins.
const (
	OriginQRCode DepositOrigin = "QRCODE"
	OriginPixKey DepositOrigin = "PIX_KEY"
)

// Valid reports whether o is one of the deposit origins of the spec.
func (o DepositOrigin) Valid() bool { return o == OriginQRCode || o == OriginPixKey }

// HolderType is the kind of an account holder: a person (PF) or a company (PJ).
type HolderType string

// Account holder types.
const (
	HolderPF HolderType = "PF"
	HolderPJ HolderType = "PJ"
)

// PixKeyType is the kind of a PIX key.
type PixKeyType string

// PIX key types.
const (
	PixKeyCPF   PixKeyType = "CPF"
	PixKeyCNPJ  PixKeyType = "CNPJ"
	PixKeyEmail PixKeyType = "EMAIL"
	PixKeyPhone PixKeyType = "PHONE"
	PixKeyEVP   PixKeyType = "EVP"
)

// Ptr returns a pointer to v; handy for the optional fields whose zero value is meaningful
// (Item.Quantity, PixRequest.ExpirationSeconds, CreateTransactionRequest.IsInfoProduct).
func Ptr[T any](v T) *T { return &v }

// Defaults of the spec for omitted request fields.
const (
	DefaultQuantity          = 1
	DefaultExpirationSeconds = 1800
)

// Token is the token endpoint's answer. The numbers are kept as the gateway sent them;
// the client derives the expiry from them (see the package doc).
type Token struct {
	AccessToken      string      `json:"access_token"`       // the JWT sent as bearer token; a secret
	ExpiresIn        json.Number `json:"expires_in"`         // Unix timestamp of expiry (some providers send a lifetime)
	RefreshExpiresIn json.Number `json:"refresh_expires_in"` // expiry of the refresh token
	TokenType        string      `json:"token_type"`         // always Bearer
	NotBeforePolicy  json.Number `json:"not-before-policy"`  // not-before policy value
	Scope            string      `json:"scope"`              // comma-separated scopes
	ExpiresInSec     json.Number `json:"expires_in_sec"`     // lifetime in seconds
}

// CreateTransactionRequest is the body of POST /transaction.
type CreateTransactionRequest struct {
	Amount         Cents          `json:"amount"`                  // required; 1..10000000
	PaymentMethod  PaymentMethod  `json:"paymentMethod"`           // required; PIX
	WebhookURL     string         `json:"webhookUrl,omitempty"`    // https URL with host and TLD, no fragment
	ExternalCode   string         `json:"externalCode,omitempty"`  // 8..255 characters
	IdempotencyKey string         `json:"idempotencyKey"`          // required; 8..255 characters
	Customer       *Customer      `json:"customer,omitempty"`      // optional
	Seller         *Seller        `json:"seller,omitempty"`        // optional
	IsInfoProduct  *bool          `json:"isInfoProduct,omitempty"` // default true (digital product)
	Address        *Address       `json:"address,omitempty"`       // required when IsInfoProduct is false
	Items          []Item         `json:"items,omitempty"`         // optional
	Metadata       map[string]any `json:"metadata,omitempty"`      // free metadata
	Pix            *PixRequest    `json:"pix,omitempty"`           // required when PaymentMethod is PIX
}

// InfoProduct reports the effective value of IsInfoProduct (true when omitted).
func (r *CreateTransactionRequest) InfoProduct() bool {
	return r.IsInfoProduct == nil || *r.IsInfoProduct
}

// Customer is the buyer. Email, Landline, MobilePhone and Birthdate are declared as objects in
// the spec but validated (and sent) as text.
type Customer struct {
	IP          string `json:"ip,omitempty"`          // IPv4 or IPv6
	Name        string `json:"name"`                  // required
	Document    string `json:"document"`              // required; CPF or CNPJ, masked or not
	Email       string `json:"email,omitempty"`       // e-mail address
	Landline    string `json:"landline,omitempty"`    // Brazilian landline
	MobilePhone string `json:"mobilePhone,omitempty"` // Brazilian mobile
	Birthdate   Date   `json:"birthdate,omitzero"`    // ISO date without time
}

// Seller is the merchant selling the product.
type Seller struct {
	Name     string `json:"name"`     // required
	Document string `json:"document"` // required; CPF or CNPJ
}

// Address is the customer's address, required for physical products.
type Address struct {
	ZipCode      string `json:"zipCode"`              // CEP
	Complement   string `json:"complement,omitempty"` // 2..150
	Number       string `json:"number"`               // 1..10 digits
	Street       string `json:"street"`               // 2..200
	Neighborhood string `json:"neighborhood"`         // 2..100
	City         string `json:"city"`                 // 2..100
	State        string `json:"state"`                // name or abbreviation; 2..50
	Country      string `json:"country"`              // 2..60
}

// Item is one product line of a transaction.
type Item struct {
	Title       string `json:"title"`                 // 2..150
	Description string `json:"description,omitempty"` // 2..255
	UnitPrice   Cents  `json:"unitPrice"`             // 1..10000000
	Quantity    *int   `json:"quantity,omitempty"`    // 1..100, default 1
}

// PixRequest holds the PIX settings of a transaction.
type PixRequest struct {
	ExpirationSeconds *int `json:"expirationSeconds,omitempty"` // 60..86400, default 1800
}

// Transaction is the answer of POST /transaction.
type Transaction struct {
	ID           string          `json:"id"`                     // UUID (the sandbox gives the payment's deposit the same id)
	ExternalCode string          `json:"externalCode,omitempty"` // the caller's reference code, if it sent one
	Amount       Cents           `json:"amount"`                 // amount charged
	Type         TransactionType `json:"type"`                   // always TRANSACTION
	Status       DepositStatus   `json:"status"`                 // PIX_QRCODE_GENERATED: awaiting payment
	PixResponse  *PixResponse    `json:"pixResponse,omitempty"`  // the QR code; present for PIX
}

// PixResponse is the PIX data of a transaction or deposit.
type PixResponse struct {
	URI            string    `json:"uri"`            // the BR Code ("copy and paste")
	QRCodeBase64   string    `json:"qrCodeBase64"`   // QR code image, base64
	ExpirationDate time.Time `json:"expirationDate"` // when the QR code expires
}

// MarshalJSON writes the expiration date as UTC with millisecond precision and a trailing Z.
func (p PixResponse) MarshalJSON() ([]byte, error) {
	type alias PixResponse
	return json.Marshal(struct {
		alias
		ExpirationDate wireTime `json:"expirationDate"`
	}{alias(p), wireTime(p.ExpirationDate)})
}

// Deposit is a deposit record (GET /deposit, GET /deposit/{id}).
//
// Optional fields the gateway leaves out or sends as null decode as their zero value: ""
// for texts, a zero time.Time (IsZero) for dates, nil for pointers.
type Deposit struct {
	ID                 string          `json:"id"`                           // UUID
	AcquirerCode       string          `json:"acquirerCode,omitempty"`       // acquirer's code; optional
	Acquirer           string          `json:"acquirer"`                     // acquirer of the deposit
	Amount             Cents           `json:"amount"`                       // amount charged
	PaymentMethod      PaymentMethod   `json:"paymentMethod"`                // always PIX
	WebhookURL         string          `json:"webhookUrl,omitempty"`         // configured webhook URL; optional
	ExternalCode       string          `json:"externalCode,omitempty"`       // caller's reference code; optional
	PaymentReceipt     *PaymentReceipt `json:"paymentReceipt,omitempty"`     // payment receipt; optional
	RefundReceipt      *PaymentReceipt `json:"refundReceipt,omitempty"`      // refund receipt; optional
	CreatedAt          time.Time       `json:"createdAt"`                    // creation date
	Status             DepositStatus   `json:"status"`                       // current state
	StatusHistory      []StatusHistory `json:"statusHistory"`                // history of states
	UpdatedAt          time.Time       `json:"updatedAt"`                    // last update
	AmountPaid         *Cents          `json:"amountPaid,omitempty"`         // amount actually paid; nil until paid
	PaymentDate        time.Time       `json:"paymentDate,omitzero"`         // payment date; zero until paid
	RefundDate         time.Time       `json:"refundDate,omitzero"`          // refund date; zero unless refunded
	RefundAmount       *Cents          `json:"refundAmount,omitempty"`       // refunded amount; nil unless refunded
	PixResponse        *PixResponse    `json:"pixResponse,omitempty"`        // the QR code; present for PIX
	ErrorMessage       string          `json:"errorMessage,omitempty"`       // error message; may be null
	ErrorMessageRefund string          `json:"errorMessageRefund,omitempty"` // refund error message; may be null
	EndToEnd           string          `json:"endToEnd,omitempty"`           // PIX end-to-end id of the payment; optional
	EndToEndRefund     string          `json:"endToEndRefund,omitempty"`     // PIX end-to-end id of the refund; optional
	Payer              *AccountHolder  `json:"payer,omitempty"`              // who paid; optional
	Receiver           *AccountHolder  `json:"receiver,omitempty"`           // who received; optional
	FeeAmount          *Cents          `json:"feeAmount,omitempty"`          // fee; unit not shown by the spec, read as cents
	DepositOrigin      DepositOrigin   `json:"depositOrigin"`                // QRCODE or PIX_KEY
}

// MarshalJSON writes every time as UTC with millisecond precision and a trailing Z, and a
// nil StatusHistory as [] (the spec makes it a required array).
func (d Deposit) MarshalJSON() ([]byte, error) {
	type alias Deposit
	if d.StatusHistory == nil {
		d.StatusHistory = []StatusHistory{}
	}
	return json.Marshal(struct {
		alias
		CreatedAt   wireTime `json:"createdAt"`
		UpdatedAt   wireTime `json:"updatedAt"`
		PaymentDate wireTime `json:"paymentDate,omitzero"`
		RefundDate  wireTime `json:"refundDate,omitzero"`
	}{alias(d), wireTime(d.CreatedAt), wireTime(d.UpdatedAt), wireTime(d.PaymentDate), wireTime(d.RefundDate)})
}

// Withdrawal is a withdrawal record (GET /withdrawal).
//
// Optional fields decode from absence or null as their zero value, as in Deposit.
type Withdrawal struct {
	ID              string           `json:"id"`                        // UUID
	AcquirerCode    string           `json:"acquirerCode,omitempty"`    // acquirer's code; optional
	Acquirer        string           `json:"acquirer"`                  // acquirer of the withdrawal
	Amount          Cents            `json:"amount"`                    // amount requested
	Method          PaymentMethod    `json:"method"`                    // always PIX
	WebhookURL      string           `json:"webhookUrl,omitempty"`      // configured webhook URL; optional
	ExternalCode    string           `json:"externalCode,omitempty"`    // caller's reference code; optional
	PaymentReceipt  *PaymentReceipt  `json:"paymentReceipt,omitempty"`  // payment receipt; optional
	RefundReceipt   *PaymentReceipt  `json:"refundReceipt,omitempty"`   // refund receipt; optional
	CreatedAt       time.Time        `json:"createdAt"`                 // creation date
	Status          WithdrawalStatus `json:"status"`                    // current state
	StatusHistory   []StatusHistory  `json:"statusHistory"`             // history of states
	UpdatedAt       time.Time        `json:"updatedAt"`                 // last update
	AmountWithdrawn *Cents           `json:"amountWithdrawn,omitempty"` // amount withdrawn; unit not shown by the spec, read as cents
	ProcessedDate   time.Time        `json:"processedDate,omitzero"`    // processing date; zero until processed
	ErrorMessage    string           `json:"errorMessage,omitempty"`    // error message; may be null
	EndToEnd        string           `json:"endToEnd,omitempty"`        // PIX end-to-end id of the transfer; optional
	EndToEndRefund  string           `json:"endToEndRefund,omitempty"`  // PIX end-to-end id of the refund; optional
	RefundDate      time.Time        `json:"refundDate,omitzero"`       // refund date; zero unless refunded
	RefundAmount    *Cents           `json:"refundAmount,omitempty"`    // refunded amount; nil unless refunded
	Payer           *AccountHolder   `json:"payer,omitempty"`           // who paid; optional
	Receiver        *AccountHolder   `json:"receiver,omitempty"`        // who received; optional
	PixKey          *PixKey          `json:"pixKey,omitempty"`          // the PIX key paid to; optional
	FeeAmount       *Cents           `json:"feeAmount,omitempty"`       // fee; unit not shown by the spec, read as cents
}

// MarshalJSON writes every time as UTC with millisecond precision and a trailing Z, and a
// nil StatusHistory as [] (the spec makes it a required array).
func (w Withdrawal) MarshalJSON() ([]byte, error) {
	type alias Withdrawal
	if w.StatusHistory == nil {
		w.StatusHistory = []StatusHistory{}
	}
	return json.Marshal(struct {
		alias
		CreatedAt     wireTime `json:"createdAt"`
		UpdatedAt     wireTime `json:"updatedAt"`
		ProcessedDate wireTime `json:"processedDate,omitzero"`
		RefundDate    wireTime `json:"refundDate,omitzero"`
	}{alias(w), wireTime(w.CreatedAt), wireTime(w.UpdatedAt), wireTime(w.ProcessedDate), wireTime(w.RefundDate)})
}

// StatusHistory is one entry of a record's history of states. Status holds a DepositStatus
// or a WithdrawalStatus value, depending on the record.
type StatusHistory struct {
	Status                 string    `json:"status"`                 // the state entered
	Date                   time.Time `json:"date"`                   // when it was entered
	DurationInMilliseconds int64     `json:"durationInMilliseconds"` // how long the record stayed in this state
}

// MarshalJSON writes the date as UTC with millisecond precision and a trailing Z.
func (h StatusHistory) MarshalJSON() ([]byte, error) {
	type alias StatusHistory
	return json.Marshal(struct {
		alias
		Date wireTime `json:"date"`
	}{alias(h), wireTime(h.Date)})
}

// AccountHolder is the payer or the receiver of a deposit or withdrawal.
type AccountHolder struct {
	Type        HolderType  `json:"type"`        // PF (person) or PJ (company)
	Name        string      `json:"name"`        // holder name
	Document    string      `json:"document"`    // CPF or CNPJ; may be masked with ***
	BankAccount BankAccount `json:"bankAccount"` // bank data
	Pix         PixKey      `json:"pix"`         // the holder's PIX key
}

// BankAccount is the bank data of an account holder.
type BankAccount struct {
	Type  string `json:"type"`  // allowed values not shown by the spec
	Digit string `json:"digit"` // account digit
	ISPB  string `json:"ispb"`  // ISPB code of the bank
}

// PixKey is a PIX key and its kind (PixKeyVo in the spec).
type PixKey struct {
	Key  string     `json:"key"`  // the key itself
	Type PixKeyType `json:"type"` // CPF, CNPJ, EMAIL, PHONE or EVP
}

// PaymentReceipt is a link to a payment or refund receipt (PaymentReceiptUrl in the spec).
type PaymentReceipt struct {
	URL            string    `json:"url"`            // where the receipt is
	ExpirationDate time.Time `json:"expirationDate"` // until when the URL works
}

// MarshalJSON writes the expiration date as UTC with millisecond precision and a trailing Z.
func (p PaymentReceipt) MarshalJSON() ([]byte, error) {
	type alias PaymentReceipt
	return json.Marshal(struct {
		alias
		ExpirationDate wireTime `json:"expirationDate"`
	}{alias(p), wireTime(p.ExpirationDate)})
}

// Page is the list envelope of GET /deposit and GET /withdrawal.
type Page[T any] struct {
	Total       int `json:"total"`       // items matching the filter, in all pages
	TotalPages  int `json:"totalPages"`  // number of pages
	CurrentPage int `json:"currentPage"` // this page's number, from 1
	PerPage     int `json:"perPage"`     // page size
	Data        []T `json:"data"`        // this page's records
}

// MarshalJSON writes the envelope with a nil Data as [] (the spec makes it a required array).
func (p Page[T]) MarshalJSON() ([]byte, error) {
	data := p.Data
	if data == nil {
		data = []T{}
	}
	return json.Marshal(struct {
		Total       int `json:"total"`
		TotalPages  int `json:"totalPages"`
		CurrentPage int `json:"currentPage"`
		PerPage     int `json:"perPage"`
		Data        []T `json:"data"`
	}{p.Total, p.TotalPages, p.CurrentPage, p.PerPage, data})
}

// DepositFilter holds the query parameters of GET /deposit. Zero values are not sent.
type DepositFilter struct {
	StartDate     time.Time       // startDate
	EndDate       time.Time       // endDate
	Status        []DepositStatus // status, repeated; no duplicates
	MinAmount     Cents           // minAmount, 1..10000000 (0: not sent)
	MaxAmount     Cents           // maxAmount, 1..10000000 (0: not sent)
	DepositOrigin []DepositOrigin // depositOrigin, repeated; no duplicates
	Page          int             // page number from 1 (0: not sent)
	PerPage       int             // page size (0: not sent)
}

// WithdrawalFilter holds the query parameters of GET /withdrawal. Zero values are not sent.
type WithdrawalFilter struct {
	StartDate      time.Time          // startDate
	EndDate        time.Time          // endDate
	Status         []WithdrawalStatus // status, repeated; no duplicates
	ID             string             // id, UUID v4
	PixKey         string             // pixKey: CPF, CNPJ, e-mail, phone or EVP
	EndToEnd       string             // endToEnd, 8..255
	EndToEndRefund string             // endToEndRefund, 8..255
	ExternalCode   string             // externalCode, 8..255
	MinAmount      Cents              // minAmount, 10..10000000 (0: not sent)
	MaxAmount      Cents              // maxAmount, 10..10000000 (0: not sent)
	Page           int                // page number from 1 (0: not sent)
	PerPage        int                // page size (0: not sent)
}

// TimeLayout is the wire format of every time: UTC, millisecond precision, trailing Z.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// FormatTime formats t as the gateway expects: UTC, millisecond precision, trailing Z.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// wireTime marshals a time.Time in TimeLayout.
type wireTime time.Time

func (t wireTime) IsZero() bool { return time.Time(t).IsZero() }

func (t wireTime) MarshalJSON() ([]byte, error) {
	return []byte(`"` + FormatTime(time.Time(t)) + `"`), nil
}

// DateLayout is the wire format of customer.birthdate.
const DateLayout = "2006-01-02"

// Date is a calendar date without time (customer.birthdate).
type Date struct {
	Year  int        // four digits on the wire
	Month time.Month // January = 1
	Day   int        // day of the month, from 1
}

// ParseDate parses an ISO date (YYYY-MM-DD) and checks that the day exists.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(DateLayout, s)
	if err != nil {
		return Date{}, fmt.Errorf("gatewayclient: %q is not an ISO date (YYYY-MM-DD): %w", s, err)
	}
	return Date{t.Year(), t.Month(), t.Day()}, nil
}

// IsZero reports whether d is unset.
func (d Date) IsZero() bool { return d == Date{} }

// String formats d as YYYY-MM-DD.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// MarshalJSON writes d as "YYYY-MM-DD".
func (d Date) MarshalJSON() ([]byte, error) { return []byte(`"` + d.String() + `"`), nil }

// UnmarshalJSON reads "YYYY-MM-DD" (or null).
func (d *Date) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("gatewayclient: birthdate must be a string: %w", err)
	}
	v, err := ParseDate(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}
