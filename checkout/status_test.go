package checkout_test

import (
	"testing"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/gatewayclient"
)

func TestMapDepositStatus(t *testing.T) {
	t.Parallel()
	want := map[gatewayclient.DepositStatus]checkout.OrderStatus{
		gatewayclient.DepositPending:              checkout.StatusAwaitingPayment,
		gatewayclient.DepositPixQRCodeGenerated:   checkout.StatusAwaitingPayment,
		gatewayclient.DepositPixKeyGenerated:      checkout.StatusAwaitingPayment,
		gatewayclient.DepositPaid:                 checkout.StatusPaid,
		gatewayclient.DepositPendingCompliance:    checkout.StatusUnderReview,
		gatewayclient.DepositProcessingInfraction: checkout.StatusUnderReview,
		gatewayclient.DepositBlocked:              checkout.StatusUnderReview,
		gatewayclient.DepositProcessingRefund:     checkout.StatusRefunding,
		gatewayclient.DepositRefunded:             checkout.StatusRefunded,
		gatewayclient.DepositInfraction:           checkout.StatusRefunded,
		gatewayclient.DepositFailed:               checkout.StatusFailed,
	}
	// Every state of the spec has an explicit mapping.
	for _, s := range gatewayclient.DepositStatuses() {
		w, ok := want[s]
		if !ok {
			t.Errorf("deposit state %s has no expected mapping in this test", s)
			continue
		}
		if got := checkout.MapDepositStatus(s); got != w {
			t.Errorf("MapDepositStatus(%s) = %q, want %q", s, got, w)
		}
		if !w.Valid() {
			t.Errorf("mapping of %s is not an order state", s)
		}
	}
	if len(want) != len(gatewayclient.DepositStatuses()) {
		t.Errorf("the test maps %d states, the spec has %d", len(want), len(gatewayclient.DepositStatuses()))
	}
	for _, s := range []gatewayclient.DepositStatus{"", "EXPIRED", "paid"} {
		if got := checkout.MapDepositStatus(s); got != "" {
			t.Errorf("MapDepositStatus(%q) = %q, want \"\" (unknown states change nothing)", s, got)
		}
	}
}

func TestCanTransitionTable(t *testing.T) {
	t.Parallel()
	const (
		pe = checkout.StatusPending
		aw = checkout.StatusAwaitingPayment
		pa = checkout.StatusPaid
		ex = checkout.StatusExpired
		fa = checkout.StatusFailed
		ur = checkout.StatusUnderReview
		rg = checkout.StatusRefunding
		rd = checkout.StatusRefunded
		ca = checkout.StatusCanceled
	)
	allowed := map[[2]checkout.OrderStatus]bool{}
	for _, p := range [][2]checkout.OrderStatus{
		{pe, aw}, {pe, pa}, {pe, ex}, {pe, fa}, {pe, ur}, {pe, rg}, {pe, rd},
		{aw, pa}, {aw, ex}, {aw, fa}, {aw, ur}, {aw, rg}, {aw, rd},
		{ex, aw}, {ex, pa}, {ex, ur}, {ex, rg}, {ex, rd}, // ex -> aw: a new QR code only
		{fa, aw}, {fa, pa}, {fa, ur}, {fa, rg}, {fa, rd}, // fa -> aw: a new QR code only
		{ur, pa}, {ur, fa}, {ur, rg}, {ur, rd},
		{pa, ur}, {pa, rg}, {pa, rd}, // pa -> ur: a MED opened on the paid deposit
		{rg, rd},
		{aw, ca}, {ex, ca}, {fa, ca}, // the merchant cancels an order not paid; canceled is final
	} {
		allowed[p] = true
	}
	all := checkout.OrderStatuses()
	if len(all) != 9 {
		t.Fatalf("OrderStatuses() has %d states, this table knows 9", len(all))
	}
	for _, from := range all {
		for _, to := range all {
			if got, want := checkout.CanTransition(from, to), allowed[[2]checkout.OrderStatus{from, to}]; got != want {
				t.Errorf("CanTransition(%s, %s) = %v, want %v", from, to, got, want)
			}
		}
	}
	// Nothing leaves refunded; nothing goes back to pending; paid never returns to payable states
	// (under review after paid is a MED, not a way to pay again).
	if !rd.Final() || pa.Final() {
		t.Error("refunded must be final and paid not")
	}
	for _, from := range all {
		if checkout.CanTransition(from, pe) {
			t.Errorf("%s -> pending allowed", from)
		}
	}
	for _, to := range []checkout.OrderStatus{pe, aw, ex, fa} {
		if checkout.CanTransition(pa, to) {
			t.Errorf("paid -> %s allowed", to)
		}
	}
	if checkout.CanTransition("bogus", aw) || checkout.CanTransition(aw, "bogus") {
		t.Error("unknown states must not transition")
	}
}
