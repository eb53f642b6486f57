package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/makiuchi-d/gozxing"
	zxqr "github.com/makiuchi-d/gozxing/qrcode"

	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// openStream opens the event stream of a PIX page and waits for its first status event.
func (e *env) openStream(pay string) (*http.Response, chan sseEvent) {
	e.t.Helper()
	res := e.do(http.MethodGet, pay+"/events", nil)
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		e.t.Fatalf("stream of %s: status %d", pay, res.StatusCode)
	}
	events := make(chan sseEvent, 16)
	go readEvents(res.Body, events)
	if ev := <-events; ev.name != "status" {
		e.t.Fatalf("first event %+v", ev)
	}
	return res, events
}

// refusedStream checks that a stream of pay is refused past a cap: 503, Retry-After, the JSON
// error shape (the page's script then polls the status instead).
func (e *env) refusedStream(pay string) {
	e.t.Helper()
	res := e.do(http.MethodGet, pay+"/events", nil)
	defer res.Body.Close()
	var body struct {
		Error struct{ Code, Message string }
	}
	_ = json.NewDecoder(res.Body).Decode(&body)
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" ||
		body.Error.Code != "unavailable" || !strings.Contains(body.Error.Message, "poll") {
		e.t.Errorf("stream past the cap: %d, Retry-After %q, error %+v", res.StatusCode, res.Header.Get("Retry-After"), body.Error)
	}
}

func TestSSEStreamsAreCapped(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.maxStreams, o.maxStreamsPerOrder = 3, 2 })
	a, b := e.placeOrder(), e.placeOrder()
	resA1, _ := e.openStream(a)
	defer resA1.Body.Close()
	resA2, _ := e.openStream(a)
	defer resA2.Body.Close()
	e.refusedStream(a) // third of one order
	// The polling fallback still answers.
	if st := e.status(a, ""); st["status"] != "awaiting_payment" {
		t.Errorf("status past the cap: %v", st)
	}
	resB1, _ := e.openStream(b)
	defer resB1.Body.Close()
	e.refusedStream(b) // fourth of the process
	if n := e.web.OpenStreams(); n != 3 {
		t.Fatalf("%d streams open, want 3", n)
	}

	// A stream that ends frees its place.
	resA1.Body.Close()
	e.reopen(b)
}

// reopen opens a stream of pay, which a cap refuses until a closed stream's place is given back,
// and returns it. The client's close reaches the server's socket within microseconds, and its
// stream ends with the request's context: a refusal past ten seconds is the cap's, held.
func (e *env) reopen(pay string) *http.Response {
	e.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		res := e.do(http.MethodGet, pay+"/events", nil)
		if res.StatusCode == http.StatusOK {
			return res
		}
		res.Body.Close()
		if time.Now().After(deadline) {
			e.t.Fatalf("stream of %s after a stream's client went: %d", pay, res.StatusCode)
		}
	}
}

// A stream whose client went gives its place back at once, not at the next heartbeat (an hour
// here): the page reloaded, or opened in a new tab, gets its live stream.
func TestSSEClosedStreamsPlaceIsGivenAtOnce(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.maxStreams, o.maxStreamsPerOrder, o.heartbeat = 2, 1, time.Hour })
	a, b, c := e.placeOrder(), e.placeOrder(), e.placeOrder()

	// The order's cap (one): its place comes back from the order's own closed stream.
	resA, _ := e.openStream(a)
	e.refusedStream(a)
	resA.Body.Close()
	resA = e.reopen(a)
	defer resA.Body.Close()

	// The process's cap (two): its place comes back from another order's closed stream.
	resB, _ := e.openStream(b)
	defer resB.Body.Close()
	e.refusedStream(c)
	resA.Body.Close()
	resC := e.reopen(c)
	defer resC.Body.Close()
	// B's live stream was kept: B's and C's are open.
	if n := e.web.OpenStreams(); n != 2 {
		t.Errorf("%d streams open, want 2", n)
	}
}

// stuckWriter is a response writer whose client stops reading after the first writes: a
// further write blocks until the write deadline passes, as on a full socket.
type stuckWriter struct {
	header http.Header
	mu     sync.Mutex
	writes int
	until  time.Time
	opened chan struct{} // closed at the second write (the first status)
	stuck  chan struct{} // closed when a write blocks
	once   sync.Once
}

func (w *stuckWriter) Header() http.Header { return w.header }
func (w *stuckWriter) WriteHeader(int)     {}
func (w *stuckWriter) Flush()              {}

func (w *stuckWriter) SetWriteDeadline(t time.Time) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.until = t
	return nil
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.writes++
	n := w.writes
	w.mu.Unlock()
	if n == 2 {
		close(w.opened)
	}
	if n <= 2 { // the retry line and the first status
		return len(p), nil
	}
	w.once.Do(func() { close(w.stuck) })
	for {
		w.mu.Lock()
		until := w.until
		w.mu.Unlock()
		if !until.IsZero() && !time.Now().Before(until) {
			return 0, os.ErrDeadlineExceeded
		}
		time.Sleep(time.Millisecond)
	}
}

// A stream whose write is blocked on a client that reads nothing does not hold up shutdown:
// its write is cut at once (its own deadline is long: heartbeat plus ten seconds).
func TestSSEShutdownCutsABlockedWrite(t *testing.T) {
	e := newEnv(t)
	pay := e.placeOrder()
	w := &stuckWriter{header: http.Header{}, opened: make(chan struct{}), stuck: make(chan struct{})}
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		e.web.Handler().ServeHTTP(w, httptest.NewRequest(http.MethodGet, pay+"/events", nil))
	}()
	// The payment's event makes the third write, which blocks.
	select {
	case <-w.opened:
	case <-time.After(20 * time.Second):
		t.Fatal("the stream never wrote its first status")
	}
	e.control(orderID(pay), sandbox.ActionPay)
	if _, err := e.svc.RefreshFromGateway(context.Background(), orderID(pay)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.stuck:
	case <-time.After(20 * time.Second):
		t.Fatal("the payment was never written to the stream")
	}
	if err := e.web.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Uncut, the write would wait for its deadline: an hour's heartbeat plus ten seconds.
	select {
	case <-ended:
	case <-time.After(5 * time.Minute):
		t.Fatal("shutdown left the stream blocked in its write")
	}
}

// With the domain drawing each attempt's image (as the app wires it), the QR route serves the
// stored image, drawn once, which decodes to exactly the copy-and-paste code.
func TestQRImageDrawnOnceAndStored(t *testing.T) {
	e := newEnv(t, func(o *envOptions) { o.qrImage = true })
	pay := e.placeOrder()
	o, err := e.svc.Order(context.Background(), orderID(pay))
	if err != nil {
		t.Fatal(err)
	}
	a := o.QR()
	if a == nil || len(a.QRCodePNG) == 0 {
		t.Fatalf("no image stored with the attempt: %+v", a)
	}
	_, doc := e.get(pay)
	src, _ := doc.Find(testid("pix-qr")).Attr("src")
	res := e.do(http.MethodGet, src, nil)
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("QR image: %d, %v", res.StatusCode, err)
	}
	if !bytes.Equal(got, a.QRCodePNG) {
		t.Errorf("served %d bytes, not the stored image (%d bytes)", len(got), len(a.QRCodePNG))
	}
	if text := decodeQR(t, got); text != a.BRCode {
		t.Errorf("QR decodes to %q, the code is %q", text, a.BRCode)
	}
}

// decodeQR reads a QR PNG back to its text.
func decodeQR(t *testing.T, b []byte) string {
	t.Helper()
	pic, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(pic)
	if err != nil {
		t.Fatal(err)
	}
	res, err := zxqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.GetText()
}
