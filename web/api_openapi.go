package web

import _ "embed"

// openAPIDocument is the OpenAPI 3.1 description of the merchant API (openapi.json beside this
// file); a test checks every answer of the API's tests against it.
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPIDocument returns the OpenAPI 3.1 description of the merchant API.
func OpenAPIDocument() []byte { return append([]byte(nil), openAPIDocument...) }
