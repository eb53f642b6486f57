package sandbox

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// putDeposit stores a deposit in state st directly (for transition tests), with a history
// whose previous state is prev (when not empty), and returns its id.
func (e *env) putDeposit(st, prev gc.DepositStatus, errorMessage string) string {
	e.t.Helper()
	now := msTime(e.sb.clock.Now())
	id := newUUID()
	d := &gc.Deposit{ID: id, Acquirer: acquirerName, Amount: 5000, PaymentMethod: gc.PaymentMethodPIX, CreatedAt: now,
		Status: st, UpdatedAt: now, DepositOrigin: gc.OriginQRCode, ErrorMessage: errorMessage}
	uri, err := e.sb.brCode(id, 5000)
	if err != nil {
		e.t.Fatal(err)
	}
	// A stand-in image: these tests look at states, and making the real PNG on every read
	// (as for a seeded record that stores none) would cost them most of their time.
	d.PixResponse = &gc.PixResponse{URI: uri, QRCodeBase64: "iVBORw0KGgo=", ExpirationDate: now.Add(30 * 60e9)}
	if prev != "" {
		d.StatusHistory = append(d.StatusHistory, gc.StatusHistory{Status: string(prev), Date: now})
	}
	d.StatusHistory = append(d.StatusHistory, gc.StatusHistory{Status: string(st), Date: now})
	if st == gc.DepositPaid || prev == gc.DepositPaid || st == gc.DepositBlocked || st == gc.DepositProcessingInfraction || st == gc.DepositProcessingRefund {
		paid := gc.Cents(5000)
		d.AmountPaid = &paid
	}
	tx, err := e.sb.w.Begin()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := insertDeposit(context.Background(), tx, testClientID, d); err != nil {
		e.t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		e.t.Fatal(err)
	}
	return id
}

// controlFor returns the control (and body) that moves a deposit from → to.
func controlFor(from, to gc.DepositStatus) (DepositAction, DepositControl) {
	switch {
	case from == gc.DepositPendingCompliance && to == gc.DepositFailed:
		return ActionCompliance, DepositControl{Outcome: "reject"}
	case from == gc.DepositPendingCompliance:
		return ActionCompliance, DepositControl{Outcome: "approve"}
	case to == gc.DepositPaid && (from == gc.DepositBlocked || from == gc.DepositProcessingInfraction):
		return ActionInfraction, DepositControl{Outcome: "reject"}
	case to == gc.DepositPaid:
		return ActionPay, DepositControl{}
	case to == gc.DepositFailed:
		return ActionFail, DepositControl{ErrorMessage: "bank said no"}
	case to == gc.DepositPendingCompliance:
		return ActionCompliance, DepositControl{}
	case to == gc.DepositProcessingRefund || to == gc.DepositRefunded:
		return ActionRefund, DepositControl{}
	case to == gc.DepositBlocked || to == gc.DepositProcessingInfraction || to == gc.DepositInfraction:
		return ActionInfraction, DepositControl{}
	}
	return "", DepositControl{}
}

func TestDepositTransitionsEveryAllowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	for _, from := range gc.DepositStatuses() {
		if _, ok := depositTransitions[from]; !ok {
			t.Errorf("state %s missing from the transition table", from)
		}
		for _, to := range depositTransitions[from] {
			t.Run(fmt.Sprintf("%s to %s", from, to), func(t *testing.T) {
				prev, msg := gc.DepositStatus(""), ""
				if from == gc.DepositPendingCompliance {
					prev = to // approve returns to the state before review
					if to == gc.DepositFailed {
						prev = gc.DepositPixQRCodeGenerated
					}
				}
				if from == gc.DepositFailed {
					msg = expiredReason
				}
				id := e.putDeposit(from, prev, msg)
				action, body := controlFor(from, to)
				var d gc.Deposit
				e.doJSON("POST", "/sandbox/deposits/"+id+"/"+string(action), tok, body, http.StatusOK, &d)
				if d.Status != to {
					t.Fatalf("status %s, want %s", d.Status, to)
				}
				last := d.StatusHistory[len(d.StatusHistory)-1]
				if last.Status != string(to) || len(d.StatusHistory) < 2 {
					t.Fatalf("history %+v does not end with %s", d.StatusHistory, to)
				}
				switch to {
				case gc.DepositPaid:
					if from != gc.DepositBlocked && from != gc.DepositProcessingInfraction && from != gc.DepositPendingCompliance {
						checkPaid(t, &d)
					}
				case gc.DepositRefunded, gc.DepositInfraction:
					if d.RefundAmount == nil || d.RefundDate.IsZero() || !validE2E(d.EndToEndRefund, 'D') || d.RefundReceipt == nil {
						t.Fatalf("refund fields missing: %+v", d)
					}
				case gc.DepositFailed:
					if d.ErrorMessage == "" {
						t.Fatal("FAILED without errorMessage")
					}
				}
			})
		}
	}
}

// checkPaid checks the fields of a PAID record.
func checkPaid(t *testing.T, d *gc.Deposit) {
	t.Helper()
	if d.AmountPaid == nil || *d.AmountPaid != d.Amount || d.PaymentDate.IsZero() || d.Payer == nil ||
		d.FeeAmount == nil || d.PaymentReceipt == nil {
		t.Fatalf("PAID record lacks fields: %+v", d)
	}
	if *d.FeeAmount != fee(*d.AmountPaid) {
		t.Fatalf("feeAmount %d, want %d", *d.FeeAmount, fee(*d.AmountPaid))
	}
	if !validE2E(d.EndToEnd, 'E') || d.EndToEnd[1:9] != d.Payer.BankAccount.ISPB ||
		d.EndToEnd[9:21] != d.PaymentDate.UTC().Format("200601021504") {
		t.Fatalf("endToEnd %q does not follow the BCB format for %v", d.EndToEnd, d.PaymentDate)
	}
	if !strings.Contains(d.Payer.Document, "***") {
		t.Fatalf("payer document %q is not masked", d.Payer.Document)
	}
}

// validE2E checks the shape of a BCB end-to-end id.
func validE2E(s string, prefix byte) bool {
	if len(s) != 32 || s[0] != prefix {
		return false
	}
	for i := 1; i < 21; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	for i := 21; i < 32; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func TestDepositTransitionsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	for _, tc := range []struct {
		from   gc.DepositStatus
		msg    string
		action DepositAction
		to     gc.DepositStatus
	}{
		{gc.DepositPixQRCodeGenerated, "", ActionRefund, gc.DepositProcessingRefund},
		{gc.DepositPixQRCodeGenerated, "", ActionInfraction, gc.DepositBlocked},
		{gc.DepositRefunded, "", ActionPay, gc.DepositPaid},
		{gc.DepositInfraction, "", ActionRefund, gc.DepositProcessingRefund},
		{gc.DepositFailed, "bank said no", ActionPay, gc.DepositPaid}, // only an expired QR code may be paid late
		{gc.DepositPaid, "", ActionFail, gc.DepositFailed},
		{gc.DepositPaid, "", ActionExpire, gc.DepositFailed},
		{gc.DepositProcessingRefund, "", ActionPay, gc.DepositPaid},
	} {
		id := e.putDeposit(tc.from, "", tc.msg)
		st, _, b := e.do("POST", "/sandbox/deposits/"+id+"/"+string(tc.action), tok, nil)
		if st != http.StatusConflict {
			t.Errorf("%s from %s: %d %s, want 409", tc.action, tc.from, st, b)
			continue
		}
		want := fmt.Sprintf("cannot move deposit from %s to %s", tc.from, tc.to)
		if m := string(decodeErr(t, b).Message); !strings.Contains(m, want) {
			t.Errorf("%s from %s: message %s, want %q", tc.action, tc.from, m, want)
		}
	}
	// Unchanged after a refusal.
	id := e.putDeposit(gc.DepositRefunded, "", "")
	e.do("POST", "/sandbox/deposits/"+id+"/pay", tok, nil)
	var d gc.Deposit
	e.doJSON("GET", "/deposit/"+id, tok, nil, 200, &d)
	if d.Status != gc.DepositRefunded || len(d.StatusHistory) != 1 {
		t.Fatalf("refused transition changed the record: %+v", d)
	}
	// Unknown control and bad bodies.
	if st, _, _ := e.do("POST", "/sandbox/deposits/"+id+"/teleport", tok, nil); st != 404 {
		t.Errorf("unknown control: %d", st)
	}
	id = e.putDeposit(gc.DepositPixQRCodeGenerated, "", "")
	if st, _, b := e.do("POST", "/sandbox/deposits/"+id+"/pay", tok, `{"amountPaid":0}`); st != 422 || !strings.Contains(string(b), "amountPaid") {
		t.Errorf("amountPaid 0: %d %s", st, b)
	}
	if st, _, b := e.do("POST", "/sandbox/deposits/"+id+"/pay", tok, `{"payer":{"name":"Ana","document":"123"}}`); st != 422 || !strings.Contains(string(b), "payer.document") {
		t.Errorf("bad payer document: %d %s", st, b)
	}
}

func TestWithdrawalTransitions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	tok := e.token()
	// Reach every state through the API, following the table, and check each edge.
	for _, from := range gc.WithdrawalStatuses() {
		if _, ok := withdrawalTransitions[from]; !ok {
			t.Errorf("state %s missing from the transition table", from)
		}
		for _, to := range withdrawalTransitions[from] {
			var w gc.Withdrawal
			e.doJSON("POST", "/sandbox/withdrawals", tok, NewWithdrawal{Amount: 2500}, http.StatusCreated, &w)
			for _, step := range pathTo(from) {
				e.doJSON("POST", "/sandbox/withdrawals/"+w.ID+"/"+string(step), tok, nil, http.StatusOK, &w)
			}
			e.doJSON("POST", "/sandbox/withdrawals/"+w.ID+"/"+strings.ToLower(string(to)), tok, nil, http.StatusOK, &w)
			if w.Status != to || w.StatusHistory[len(w.StatusHistory)-1].Status != string(to) {
				t.Fatalf("%s → %s: got %+v", from, to, w)
			}
			switch to {
			case gc.WithdrawalProcessed:
				if w.AmountWithdrawn == nil || *w.AmountWithdrawn != 2500 || w.ProcessedDate.IsZero() || !validE2E(w.EndToEnd, 'E') {
					t.Fatalf("PROCESSED lacks fields: %+v", w)
				}
			case gc.WithdrawalRefunded:
				if w.RefundAmount == nil || !validE2E(w.EndToEndRefund, 'D') {
					t.Fatalf("REFUNDED lacks fields: %+v", w)
				}
			case gc.WithdrawalFailed, gc.WithdrawalRejected:
				if w.ErrorMessage == "" {
					t.Fatalf("%s without errorMessage", to)
				}
			}
		}
	}
	// A sample of refusals.
	var w gc.Withdrawal
	e.doJSON("POST", "/sandbox/withdrawals", tok, NewWithdrawal{Amount: 2500}, http.StatusCreated, &w)
	for _, tc := range []struct{ to gc.WithdrawalStatus }{{gc.WithdrawalProcessed}, {gc.WithdrawalRefunded}, {gc.WithdrawalPending}} {
		st, _, b := e.do("POST", "/sandbox/withdrawals/"+w.ID+"/"+string(tc.to), tok, nil)
		want := fmt.Sprintf("cannot move withdrawal from PENDING to %s", tc.to)
		if st != 409 || !strings.Contains(string(b), want) {
			t.Errorf("PENDING → %s: %d %s", tc.to, st, b)
		}
	}
	e.doJSON("POST", "/sandbox/withdrawals/"+w.ID+"/CANCELED", tok, nil, 200, &w)
	if st, _, _ := e.do("POST", "/sandbox/withdrawals/"+w.ID+"/PROCESSING", tok, nil); st != 409 {
		t.Errorf("CANCELED → PROCESSING: %d", st)
	}
	if st, _, _ := e.do("POST", "/sandbox/withdrawals/"+w.ID+"/FLYING", tok, nil); st != 422 {
		t.Errorf("unknown state: %d", st)
	}
	if st, _, b := e.do("POST", "/sandbox/withdrawals", tok, NewWithdrawal{Amount: 5, PixKey: "nope"}); st != 422 ||
		!strings.Contains(string(b), "amount: ") || !strings.Contains(string(b), "pixKey: ") {
		t.Errorf("bad withdrawal: %d %s", st, b)
	}
}

// pathTo returns the steps from PENDING to st.
func pathTo(st gc.WithdrawalStatus) []gc.WithdrawalStatus {
	paths := map[gc.WithdrawalStatus][]gc.WithdrawalStatus{
		gc.WithdrawalPending:           nil,
		gc.WithdrawalPendingCompliance: {gc.WithdrawalPendingCompliance},
		gc.WithdrawalProcessing:        {gc.WithdrawalProcessing},
		gc.WithdrawalProcessed:         {gc.WithdrawalProcessing, gc.WithdrawalProcessed},
	}
	return slices.Clone(paths[st])
}
