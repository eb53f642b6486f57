// Package gatewayclient is a Go client of the PIX payment gateway's HTTP API: client-credentials
// tokens, transactions, deposits and withdrawals, with request validation, typed errors and
// retries. See the package examples.
package gatewayclient
