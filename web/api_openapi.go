package web

import _ "embed"

// openAPIDocument is the OpenAPI 3.1 description of the merchant API (openapi.json beside this
// file). The tests hold it to the handlers: see package apitest.
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPIDocument returns the OpenAPI 3.1 description of the merchant API.
func OpenAPIDocument() []byte { return append([]byte(nil), openAPIDocument...) }
