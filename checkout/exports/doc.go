// Package exports keeps the dashboard's background exports: a job per export (running, then
// ready or failed, never back), its file stored in the database in gzip chunks as it is written
// (ExportWriter) and read back as a stream (Open), limits per user and in all (ExportLimits),
// and the pruning of files after ExportRetention. The SQL stores implement ExportStore.
package exports
