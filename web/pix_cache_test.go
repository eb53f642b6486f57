package web_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// TestKeptPixPageIsTheRenderedPage: a PIX page written from the rendering kept for its order is,
// byte for byte, the page rendered at that moment — the clock and the countdown of the moment,
// the last minutes' style, the expiry, another language — and a change of the order is never
// answered with the page of its earlier state.
func TestKeptPixPageIsTheRenderedPage(t *testing.T) {
	clock := sandbox.NewManualClock(time.Now().Truncate(time.Millisecond))
	e := newEnv(t, func(o *envOptions) {
		o.qrImage = true
		o.sandbox = func(so *sandbox.Options) { so.Clock = clock }
	})
	pay := e.placeOrder()
	body := func(path string) []byte {
		t.Helper()
		res := e.do(http.MethodGet, path, nil)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v", path, res.StatusCode, err)
		}
		return b
	}
	// kept reads the page (it must come from the kept rendering), then the rendered page of
	// the same moment, and compares them.
	kept := func(step string, path string) []byte {
		t.Helper()
		before := e.web.PixPagesWritten()
		got := body(path)
		if e.web.PixPagesWritten() != before+1 {
			t.Fatalf("%s: the page was rendered, not written from the kept one", step)
		}
		e.web.ForgetPixPages()
		want := body(path)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: the kept page differs from the page rendered at the same moment:\n%s\n---\n%s", step, got, want)
		}
		return got
	}
	first := body(pay) // rendered and kept
	clock.Advance(7*time.Second + 300*time.Millisecond)
	later := kept("7.3 s later", pay)
	if bytes.Equal(first, later) {
		t.Fatal("the page 7.3 s later is the first page: clock and countdown did not move")
	}
	// Another language is another page, kept on its own.
	body(pay + "?lang=en")
	if en := kept("in English", pay+"?lang=en"); !bytes.Contains(en, []byte(`lang="en"`)) {
		t.Error("the English page is not in English")
	}
	// Into the last minutes: the kept page of the first minutes does not cover them.
	clock.Advance(26 * time.Minute)
	before := e.web.PixPagesWritten()
	urgent := body(pay)
	if e.web.PixPagesWritten() != before {
		t.Fatal("the page of the first minutes was written for the last ones")
	}
	if !bytes.Contains(urgent, []byte(`deadline urgent`)) {
		t.Errorf("the page of the last minutes is not urgent")
	}
	clock.Advance(time.Second)
	kept("in the last minutes", pay)
	// A payment replaces the order's snapshot: the next read is the receipt, not the kept page.
	if res, _ := e.post(pay+"/sandbox-pay", nil); res.StatusCode != http.StatusOK && res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sandbox-pay: %d", res.StatusCode)
	}
	res := e.do(http.MethodGet, pay, nil)
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(loc, "/paid") {
		t.Errorf("after the payment: %d to %q, want the receipt", res.StatusCode, loc)
	}
}
