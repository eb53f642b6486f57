package dashboard

import (
	"flag"
	"io"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/views"
)

// xlsxRows is the size of TestXLSXMemory's export; 0 (the default) skips it. The figure of
// cmd/loadtest/README.md:
//
//	go test -run TestXLSXMemory -v ./web/dashboard -args -xlsx.rows=100000
var xlsxRows = flag.Int("xlsx.rows", 0, "rows of TestXLSXMemory's .xlsx export (0: skipped)")

// TestXLSXMemory writes an .xlsx export of -xlsx.rows deposits (every column filled) through
// the export's writer and logs its time, its size and the peak of the heap in use meanwhile.
func TestXLSXMemory(t *testing.T) {
	if *xlsxRows == 0 {
		t.Skip("on demand: -xlsx.rows=N")
	}
	paid, fee := gatewayclient.Cents(12990), gatewayclient.Cents(130)
	now := time.Now()
	holder := &gatewayclient.AccountHolder{Type: gatewayclient.HolderPF, Name: "Maria da Silva", Document: "***.982.247-**",
		BankAccount: gatewayclient.BankAccount{ISPB: "00416968"}, Pix: gatewayclient.PixKey{Key: "maria@example.com.br"}}
	d := gatewayclient.Deposit{ID: "9b1e6c52-7d0c-4f1e-8a4b-3f6f1c2d9e10", Amount: paid, AmountPaid: &paid, FeeAmount: &fee,
		Status: gatewayclient.DepositPaid, DepositOrigin: gatewayclient.OriginQRCode, PaymentMethod: "PIX",
		CreatedAt: now, UpdatedAt: now, PaymentDate: now, ExternalCode: "PX-00000042-1", EndToEnd: "E00416968202611281234abcdefghijk",
		Payer: holder, Receiver: holder, Acquirer: "sandbox"}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	var size countingWriter
	start := time.Now()
	f := exportFormat{xlsx: true, lang: views.PtBR, tmp: t.TempDir()}
	out, end, err := f.open(&size)
	if err == nil {
		err = out.header(depositCols)
	}
	for i := 0; err == nil && i < *xlsxRows; i++ {
		err = out.row(depositCols, depositRow(&d))
	}
	if err == nil {
		err = end()
	}
	took := time.Since(start)
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows: %v, %.1f MB written, heap in use at most %.1f MB (%.1f MB before)", *xlsxRows, took.Round(time.Millisecond),
		float64(size)/1e6, float64(peak.Load())/1e6, float64(base.HeapInuse)/1e6)
}

// countingWriter counts what is written to it.
type countingWriter int64

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
