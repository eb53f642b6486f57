package postgres

// OpenWrapped is Open with a wrapper that sees every statement, for tests that count them.
var OpenWrapped = open
