package checkout

import "github.com/pixcheckout/pixcheckout/gatewayclient"

// Money and the violations of a request are the gateway client's own types: an order's amount
// is what its transaction charges, and a form reports one set of rules whichever side found a
// problem. The checkout names them so that its users (pages, handlers) need not know the client.

// Cents is an amount of money in integer cents: R$ 100,50 is Cents(10050). No float ever
// touches it.
type Cents = gatewayclient.Cents

// Violation is one rule a request breaks: the path of its field (customer.document,
// items[2].unitPrice), a violation code and an English message.
type Violation = gatewayclient.Violation

// ValidationError holds every violation of a request, with the kind of 422 it makes.
type ValidationError = gatewayclient.ValidationError

// The codes of a Violation (Violation.Code), which pages translate. They are not Code values:
// those classify an Error.
const (
	CodeJSON      = gatewayclient.CodeJSON      // the body is not JSON
	CodeRequired  = gatewayclient.CodeRequired  // a required field is missing or empty
	CodeType      = gatewayclient.CodeType      // a value of the wrong JSON type
	CodeInteger   = gatewayclient.CodeInteger   // a number that must be an integer is not
	CodeMin       = gatewayclient.CodeMin       // a number below its minimum
	CodeMax       = gatewayclient.CodeMax       // a number above its maximum
	CodeMinLength = gatewayclient.CodeMinLength // a text shorter than its minimum
	CodeMaxLength = gatewayclient.CodeMaxLength // a text longer than its maximum
	CodeEnum      = gatewayclient.CodeEnum      // a value not among those allowed
	CodeFormat    = gatewayclient.CodeFormat    // a text not in its format (CEP, e-mail, phone, date...)
	CodeDocument  = gatewayclient.CodeDocument  // not a valid CPF or CNPJ
	CodeURL       = gatewayclient.CodeURL       // a URL that is not absolute, public, or has a fragment
	CodeHTTPS     = gatewayclient.CodeHTTPS     // a URL that must be https is not
	CodeDuplicate = gatewayclient.CodeDuplicate // a value or parameter given more than once
	CodeRange     = gatewayclient.CodeRange     // a range whose end is before its start
	CodeUUID      = gatewayclient.CodeUUID      // not a UUID version 4
	CodePixKey    = gatewayclient.CodePixKey    // not a PIX key of a known kind
	CodeFuture    = gatewayclient.CodeFuture    // a date that must be past (a birthdate) is not
)
