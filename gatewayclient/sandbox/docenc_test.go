package sandbox

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

func TestEncodeDepositRoundTrips(t *testing.T) {
	t.Parallel()
	r := newRand()
	at := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
	paid := gc.Cents(990)
	d := &gc.Deposit{ID: newUUID(), AcquirerCode: "x", Acquirer: acquirerName, Amount: 1000, PaymentMethod: gc.PaymentMethodPIX,
		WebhookURL: "https://h.example.com/x", ExternalCode: "ext-0001", PaymentReceipt: receipt("payment", "E1", at),
		CreatedAt: at, Status: gc.DepositPaid, UpdatedAt: at.Add(time.Second), AmountPaid: &paid, PaymentDate: at.Add(time.Second),
		StatusHistory: []gc.StatusHistory{{Status: "PIX_QRCODE_GENERATED", Date: at}, {Status: "PAID", Date: at.Add(time.Second)}},
		PixResponse:   &gc.PixResponse{URI: "000201", QRCodeBase64: "iVBOR", ExpirationDate: at.Add(time.Hour)},
		ErrorMessage:  "e", EndToEnd: "E123", Payer: randomHolder(r), Receiver: randomHolder(r), FeeAmount: &paid,
		DepositOrigin: gc.OriginQRCode}
	b, err := encodeDeposit(d)
	if err != nil {
		t.Fatal(err)
	}
	var back gc.Deposit
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(*d, back) {
		t.Fatalf("round trip changed the deposit:\n%+v\n%+v", *d, back)
	}
	// The stored form is the wire form.
	wire, _ := json.Marshal(d)
	var a, c map[string]any
	_ = json.Unmarshal(wire, &a)
	_ = json.Unmarshal(b, &c)
	if !reflect.DeepEqual(a, c) {
		t.Fatalf("stored JSON differs from the wire JSON:\n%s\n%s", wire, b)
	}
}
