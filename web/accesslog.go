package web

import (
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// accessLog writes the access log's lines straight to the writer behind Options.Logger's
// JSON handler (Options.AccessLog), each byte for byte the line slog.JSONHandler writes for
// the same record (TestAccessLineIsSlogs compares them). A line through slog costs the
// request ≈ 1 µs of its generic machinery, a tenth of the PIX page's throughput on the
// project's machine; appended here it costs a fraction of that. A line whose strings would
// need escaping (never, for ids, methods and route patterns) goes through slog instead.
type accessLog struct {
	w    io.Writer
	bufs sync.Pool // *[]byte
}

// accessRecord is what one access-log line says.
type accessRecord struct {
	time              time.Time
	level             slog.Level
	id, method, route string
	status            int
	bytes             int64
	duration          time.Duration
}

// slog returns rec as the record of the logger's handler. It has no caller (pc 0):
// Logger.LogAttrs would walk the stack for one at every request, for a source line the access
// log never shows. The route is the route pattern, never the path: cart and order ids are the
// shoppers' credentials.
func (rec *accessRecord) slog() slog.Record {
	r := slog.NewRecord(rec.time, rec.level, "request", 0)
	r.AddAttrs(
		slog.String("request_id", rec.id),
		slog.String("method", rec.method),
		slog.String("route", rec.route),
		slog.Int("status", rec.status),
		slog.Int64("bytes", rec.bytes),
		slog.Duration("duration", rec.duration),
	)
	return r
}

// write writes the line of rec and reports true, or reports false, having written nothing,
// when a string of rec needs escaping or the time cannot be written as RFC 3339.
func (l *accessLog) write(rec *accessRecord) bool {
	if !plainJSON(rec.id) || !plainJSON(rec.method) || !plainJSON(rec.route) {
		return false
	}
	if y := rec.time.Year(); y < 0 || y >= 10000 {
		return false
	}
	bp, _ := l.bufs.Get().(*[]byte)
	if bp == nil {
		b := make([]byte, 0, 256)
		bp = &b
	}
	b := appendAccessLine((*bp)[:0], rec)
	_, _ = l.w.Write(b) // as slog's handler, which a failed write does not stop either
	*bp = b
	l.bufs.Put(bp)
	return true
}

// appendAccessLine appends the JSON line of rec, in slog.JSONHandler's form: time, level and
// message first, then the attributes in order, durations in nanoseconds.
func appendAccessLine(b []byte, rec *accessRecord) []byte {
	b = append(b, `{"time":"`...)
	b = rec.time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"`...)
	b = append(b, rec.level.String()...)
	b = append(b, `","msg":"request","request_id":"`...)
	b = append(b, rec.id...)
	b = append(b, `","method":"`...)
	b = append(b, rec.method...)
	b = append(b, `","route":"`...)
	b = append(b, rec.route...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(rec.status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, rec.bytes, 10)
	b = append(b, `,"duration":`...)
	b = strconv.AppendInt(b, int64(rec.duration), 10)
	return append(b, "}\n"...)
}

// plainJSON reports whether s is written in a JSON string as it is: printable ASCII without
// a quote or a backslash.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
