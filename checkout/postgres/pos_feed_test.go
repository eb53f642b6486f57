package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/pos"
)

// TestTerminalKindReachesOtherInstances: a sale charged through one instance, of which the
// other holds nothing, reaches the other's subscribers of its terminal through the change
// feed's kind for terminals (its customers' displays), and so does its payment; a sale at
// another terminal does not.
func TestTerminalKindReachesOtherInstances(t *testing.T) {
	t.Parallel()
	x := newTwoInstances(t)
	x.stores[1].OnTerminal(x.svcs[1].TerminalChanged)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); x.svcs[1].Follow(ctx, x.stores[1]) }()
	defer func() { cancel(); <-done }()
	waitListening(t, x.dbURL)

	mine, stop := x.svcs[1].SubscribeTerminal(pos.FirstTerminal)
	defer stop()
	others, stopOthers := x.svcs[1].SubscribeTerminal("caixa-9")
	defer stopOthers()
	wait := func(what string) {
		t.Helper()
		select {
		case <-mine:
		case <-time.After(30 * time.Second):
			t.Fatalf("instance B's display never heard of %s made through A", what)
		}
	}
	o, err := x.svcs[0].PlaceOrder(ctx, checkout.PlaceOrderInput{Channel: checkout.ChannelPOS, RequestKey: checkout.NewID(),
		Sale: &checkout.Sale{Terminal: pos.FirstTerminal, Cashier: "ana", Amount: 1234}})
	if err != nil {
		t.Fatal(err)
	}
	wait("the sale")
	for len(mine) > 0 { // the insertion's and the QR code's signals may come apart
		<-mine
	}
	x.pay(t, 0, o)
	for {
		wait("the payment")
		if sale, _, err := pos.CurrentSale(ctx, x.svcs[1], pos.FirstTerminal, x.sb.Now()); err == nil && sale != nil && sale.Status.WasPaid() {
			break
		}
	}
	select {
	case <-others:
		t.Fatal("the display of another terminal was told of Caixa 1's sale")
	default:
	}
}
