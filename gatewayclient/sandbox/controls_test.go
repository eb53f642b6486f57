package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	gc "github.com/pixcheckout/pixcheckout/gatewayclient"
)

// controlCase names one control as the console and the API know it.
type controlCase struct {
	action  DepositAction
	outcome string
}

func (c controlCase) String() string {
	if c.outcome == "" {
		return string(c.action)
	}
	return string(c.action) + "/" + c.outcome
}

// everyDepositControl lists every deposit control with each outcome.
var everyDepositControl = []controlCase{
	{ActionPay, ""}, {ActionFail, ""}, {ActionExpire, ""}, {ActionRefund, ""},
	{ActionInfraction, ""}, {ActionInfraction, "reject"},
	{ActionCompliance, ""}, {ActionCompliance, "approve"}, {ActionCompliance, "reject"},
}

// depositState is a deposit state as a control sees it: the status, the state before it
// (for compliance review) and the error message (FAILED because the QR code expired or not).
type depositState struct {
	name   string
	status gc.DepositStatus
	prev   gc.DepositStatus
	msg    string
}

// everyDepositState covers each status, FAILED and PENDING_COMPLIANCE in both their kinds.
func everyDepositState() []depositState {
	var out []depositState
	for _, st := range gc.DepositStatuses() {
		switch st {
		case gc.DepositFailed:
			out = append(out, depositState{"FAILED (QR code expired)", st, gc.DepositPixQRCodeGenerated, expiredReason},
				depositState{"FAILED (refused)", st, gc.DepositPixQRCodeGenerated, "bank said no"})
		case gc.DepositPendingCompliance:
			for _, prev := range []gc.DepositStatus{gc.DepositPending, gc.DepositPixQRCodeGenerated, gc.DepositPixKeyGenerated, gc.DepositPaid} {
				out = append(out, depositState{"PENDING_COMPLIANCE (was " + string(prev) + ")", st, prev, ""})
			}
		default:
			out = append(out, depositState{string(st), st, "", ""})
		}
	}
	return out
}

// wantDepositMoves is the lifecycle as the controls must follow it, written out in full: for
// each state, the controls allowed and where each moves the deposit. Every other control
// from that state is a 409.
var wantDepositMoves = map[string]map[string]gc.DepositStatus{
	"PENDING":                          {"pay": gc.DepositPaid, "fail": gc.DepositFailed, "compliance": gc.DepositPendingCompliance},
	"PIX_QRCODE_GENERATED":             {"pay": gc.DepositPaid, "fail": gc.DepositFailed, "expire": gc.DepositFailed, "compliance": gc.DepositPendingCompliance},
	"DEPOSIT_PIXKEY_GENERATED":         {"pay": gc.DepositPaid, "fail": gc.DepositFailed, "compliance": gc.DepositPendingCompliance},
	"PAID":                             {"refund": gc.DepositProcessingRefund, "infraction": gc.DepositBlocked, "compliance": gc.DepositPendingCompliance},
	"PROCESSING_REFUND":                {"refund": gc.DepositRefunded},
	"BLOCKED":                          {"infraction": gc.DepositProcessingInfraction, "infraction/reject": gc.DepositPaid},
	"PROCESSING_INFRACTION":            {"infraction": gc.DepositInfraction, "infraction/reject": gc.DepositPaid},
	"PENDING_COMPLIANCE (was PENDING)": {"compliance/approve": gc.DepositPending, "compliance/reject": gc.DepositFailed},
	"PENDING_COMPLIANCE (was PIX_QRCODE_GENERATED)":     {"compliance/approve": gc.DepositPixQRCodeGenerated, "compliance/reject": gc.DepositFailed},
	"PENDING_COMPLIANCE (was DEPOSIT_PIXKEY_GENERATED)": {"compliance/approve": gc.DepositPixKeyGenerated, "compliance/reject": gc.DepositFailed},
	"PENDING_COMPLIANCE (was PAID)":                     {"compliance/approve": gc.DepositPaid, "compliance/reject": gc.DepositFailed},
	"FAILED (QR code expired)":                          {"pay": gc.DepositPaid},
	"FAILED (refused)":                                  {},
	"REFUNDED":                                          {},
	"INFRACTION":                                        {},
}

// TestEveryControlFromEveryDepositState walks every deposit control from every deposit
// state: the allowed ones make exactly the move of the lifecycle table (and only moves of
// depositTransitions), the others answer 409 and change nothing — in particular a rejected
// MED never pays a deposit that was not paid — and the console offers exactly the allowed
// ones as buttons.
func TestEveryControlFromEveryDepositState(t *testing.T) {
	t.Parallel()
	for _, st := range everyDepositState() {
		t.Run(st.name, func(t *testing.T) {
			t.Parallel() // each state in a sandbox of its own
			want, ok := wantDepositMoves[st.name]
			if !ok {
				t.Fatalf("no expected moves for %s", st.name)
			}
			e := newEnv(t, nil)
			tok := e.token()
			for _, c := range everyDepositControl {
				id := e.putDeposit(st.status, st.prev, st.msg)
				var before gc.Deposit
				e.doJSON("GET", "/deposit/"+id, tok, nil, http.StatusOK, &before)
				code, _, b := e.do("POST", "/sandbox/deposits/"+id+"/"+string(c.action), tok, DepositControl{Outcome: c.outcome})
				to, allowed := want[c.String()]
				if !allowed {
					if code != http.StatusConflict || !strings.Contains(string(b), "cannot move deposit from "+string(st.status)) {
						t.Errorf("%s from %s: %d %s, want 409", c, st.name, code, b)
					}
					var after gc.Deposit
					e.doJSON("GET", "/deposit/"+id, tok, nil, http.StatusOK, &after)
					if after.Status != before.Status || len(after.StatusHistory) != len(before.StatusHistory) ||
						(after.AmountPaid == nil) != (before.AmountPaid == nil) {
						t.Errorf("%s from %s refused but changed the deposit: %s → %s", c, st.name, before.Status, after.Status)
					}
					continue
				}
				if code != http.StatusOK {
					t.Errorf("%s from %s: %d %s, want 200 and %s", c, st.name, code, b, to)
					continue
				}
				var d gc.Deposit
				e.doJSON("GET", "/deposit/"+id, tok, nil, http.StatusOK, &d)
				if d.Status != to {
					t.Errorf("%s from %s: %s, want %s", c, st.name, d.Status, to)
				}
				if !slices.Contains(depositTransitions[st.status], to) {
					t.Errorf("%s from %s to %s is not a move of the lifecycle table", c, st.name, to)
				}
				if to == gc.DepositPaid && d.AmountPaid == nil {
					t.Errorf("%s from %s: PAID without amountPaid", c, st.name)
				}
			}

			// The console's buttons for a deposit in this state are exactly the allowed controls.
			id := e.putDeposit(st.status, st.prev, st.msg)
			code, _, b := e.do("GET", "/sandbox/", tok, nil)
			if code != http.StatusOK {
				t.Fatalf("console: %d", code)
			}
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			var buttons []string
			doc.Find(`form[action^="console/deposits/` + id + `/"]`).Each(func(_ int, f *goquery.Selection) {
				action, _ := f.Attr("action")
				name := strings.TrimPrefix(action, "console/deposits/"+id+"/")
				if o, ok := f.Find(`input[name="outcome"]`).Attr("value"); ok {
					name += "/" + o
				}
				buttons = append(buttons, name)
			})
			var wantButtons []string
			for name := range want {
				wantButtons = append(wantButtons, name)
			}
			slices.Sort(buttons)
			slices.Sort(wantButtons)
			if !slices.Equal(buttons, wantButtons) {
				t.Errorf("console buttons %v, want %v", buttons, wantButtons)
			}
		})
	}
}

// TestEveryDepositMoveHasAControl checks the other way round: each move of the lifecycle
// table is made by some control, so that no state is left unreachable.
func TestEveryDepositMoveHasAControl(t *testing.T) {
	t.Parallel()
	for from, tos := range depositTransitions {
		for _, to := range tos {
			made := false
			for _, st := range everyDepositState() {
				for _, got := range wantDepositMoves[st.name] {
					made = made || st.status == from && got == to
				}
			}
			if !made {
				t.Errorf("no control moves a deposit from %s to %s", from, to)
			}
		}
	}
}

// TestEveryWithdrawalMoveFromEveryState tries every target state from every withdrawal
// state: the moves of the table succeed, every other one is a 409 that changes nothing, and
// the console offers exactly the allowed moves.
func TestEveryWithdrawalMoveFromEveryState(t *testing.T) {
	t.Parallel()
	want := map[gc.WithdrawalStatus][]gc.WithdrawalStatus{
		gc.WithdrawalPending:           {gc.WithdrawalProcessing, gc.WithdrawalCanceled, gc.WithdrawalRejected, gc.WithdrawalFailed, gc.WithdrawalPendingCompliance},
		gc.WithdrawalPendingCompliance: {gc.WithdrawalPending, gc.WithdrawalRejected},
		gc.WithdrawalProcessing:        {gc.WithdrawalProcessed, gc.WithdrawalFailed},
		gc.WithdrawalProcessed:         {gc.WithdrawalRefunded},
	}
	reach := map[gc.WithdrawalStatus][]gc.WithdrawalStatus{ // a path from PENDING to each state
		gc.WithdrawalPending:           nil,
		gc.WithdrawalPendingCompliance: {gc.WithdrawalPendingCompliance},
		gc.WithdrawalProcessing:        {gc.WithdrawalProcessing},
		gc.WithdrawalProcessed:         {gc.WithdrawalProcessing, gc.WithdrawalProcessed},
		gc.WithdrawalFailed:            {gc.WithdrawalFailed},
		gc.WithdrawalCanceled:          {gc.WithdrawalCanceled},
		gc.WithdrawalRejected:          {gc.WithdrawalRejected},
		gc.WithdrawalRefunded:          {gc.WithdrawalProcessing, gc.WithdrawalProcessed, gc.WithdrawalRefunded},
	}
	for _, from := range gc.WithdrawalStatuses() {
		t.Run(string(from), func(t *testing.T) {
			e := newEnv(t, nil)
			tok := e.token()
			at := func() gc.Withdrawal {
				var w gc.Withdrawal
				e.doJSON("POST", "/sandbox/withdrawals", tok, NewWithdrawal{Amount: 2500}, http.StatusCreated, &w)
				for _, step := range reach[from] {
					e.doJSON("POST", "/sandbox/withdrawals/"+w.ID+"/"+string(step), tok, nil, http.StatusOK, &w)
				}
				if w.Status != from {
					t.Fatalf("reached %s, want %s", w.Status, from)
				}
				return w
			}
			for _, to := range gc.WithdrawalStatuses() {
				w := at()
				code, _, b := e.do("POST", "/sandbox/withdrawals/"+w.ID+"/"+string(to), tok, nil)
				if slices.Contains(want[from], to) {
					if code != http.StatusOK {
						t.Errorf("%s → %s: %d %s", from, to, code, b)
					}
					continue
				}
				if code != http.StatusConflict || !strings.Contains(string(b), fmt.Sprintf("cannot move withdrawal from %s to %s", from, to)) {
					t.Errorf("%s → %s: %d %s, want 409", from, to, code, b)
				}
				var page gc.Page[gc.Withdrawal]
				e.doJSON("GET", "/withdrawal?id="+w.ID, tok, nil, http.StatusOK, &page)
				if len(page.Data) != 1 || page.Data[0].Status != from || len(page.Data[0].StatusHistory) != len(w.StatusHistory) {
					t.Errorf("%s → %s refused but changed the withdrawal: %+v", from, to, page.Data)
				}
			}
			w := at()
			code, _, b := e.do("GET", "/sandbox/", tok, nil)
			if code != http.StatusOK {
				t.Fatalf("console: %d", code)
			}
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			var buttons []string
			doc.Find(`form[action^="console/withdrawals/` + w.ID + `/"]`).Each(func(_ int, f *goquery.Selection) {
				action, _ := f.Attr("action")
				buttons = append(buttons, strings.TrimPrefix(action, "console/withdrawals/"+w.ID+"/"))
			})
			var wantButtons []string
			for _, to := range want[from] {
				wantButtons = append(wantButtons, string(to))
			}
			slices.Sort(buttons)
			slices.Sort(wantButtons)
			if !slices.Equal(buttons, wantButtons) {
				t.Errorf("console buttons %v, want %v", buttons, wantButtons)
			}
		})
	}
}
