// Package exports keeps the dashboard's background exports: a job per export (running, then
// ready or failed, never back), its file stored in the database in gzip chunks as it is written
// (Writer) and read back as a stream (Open), limits per user and in all (Limits),
// and the pruning of files after Retention. The SQL stores implement Store.
package exports
