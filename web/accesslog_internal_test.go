package web

import (
	"bytes"
	"context"
	"log/slog"
	"testing"
	"time"
)

// The access log's lines written directly are the very lines slog's JSON handler writes for
// the same record, at both levels, any time zone and precision, and any figures.
func TestAccessLineIsSlogs(t *testing.T) {
	saoPaulo := time.FixedZone("BRT", -3*3600)
	recs := []accessRecord{
		{time: time.Date(2026, 11, 24, 6, 30, 1, 123456789, time.UTC), level: slog.LevelInfo, id: "2ba6afee32dc7e5a",
			method: "GET", route: "/pay/{orderID}/status", status: 200, bytes: 96, duration: 41 * time.Microsecond},
		{time: time.Date(2026, 1, 2, 3, 4, 5, 0, saoPaulo), level: slog.LevelError, id: "0000000000000000",
			method: "POST", route: "/cart/{cartID}/checkout", status: 503, bytes: 0, duration: 2 * time.Second},
		{time: time.Date(2026, 11, 24, 6, 30, 1, 120000000, saoPaulo), level: slog.LevelInfo, id: "ffffffffffffffff",
			method: "PROPFIND", route: "", status: 404, bytes: 1 << 40, duration: 0},
	}
	for _, rec := range recs {
		var want bytes.Buffer
		r := slog.NewRecord(rec.time, rec.level, "request", 0)
		r.AddAttrs(slog.String("request_id", rec.id), slog.String("method", rec.method), slog.String("route", rec.route),
			slog.Int("status", rec.status), slog.Int64("bytes", rec.bytes), slog.Duration("duration", rec.duration))
		if err := slog.NewJSONHandler(&want, nil).Handle(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if !(&accessLog{w: &got}).write(&rec) {
			t.Fatalf("%+v not written", rec)
		}
		if got.String() != want.String() {
			t.Errorf("line\n%s want\n%s", got.String(), want.String())
		}
	}
	// A string that JSON must escape, or a year RFC 3339 cannot hold, goes through slog.
	for _, rec := range []accessRecord{
		{time: recs[0].time, method: "GET", route: `/a"b`},
		{time: recs[0].time, method: "GET", route: "/caf\u00e9"},
		{time: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), method: "GET"},
	} {
		var got bytes.Buffer
		if (&accessLog{w: &got}).write(&rec) || got.Len() > 0 {
			t.Errorf("%+v written directly: %q", rec, got.String())
		}
	}
}
