// Package sandbox is a stateful local PIX gateway: the HTTP API of the gateway spec at its
// root, simulation controls under /sandbox/, and signed webhooks. It keeps its state in
// SQLite in a data directory, so it survives restarts.
package sandbox
