package web

import (
	"github.com/pixcheckout/pixcheckout/checkout"
)

// fieldReader collects the violations of a request by path (items[1].unitPrice, page), so
// that every wrong value of a body or query is reported at once. JSON bodies are read by
// gatewayclient/strictjson, whose violations are added here.
type fieldReader struct {
	fe checkout.FieldErrors
}

func (r *fieldReader) add(path, code, msg string) {
	if r.fe.Fields == nil {
		r.fe.Fields = map[string][]checkout.Violation{}
	}
	r.fe.Fields[path] = append(r.fe.Fields[path], checkout.Violation{Field: path, Code: code, Message: msg})
}

// err returns the violations, or nil.
func (r *fieldReader) err() error {
	if len(r.fe.Fields) == 0 {
		return nil
	}
	return &r.fe
}
