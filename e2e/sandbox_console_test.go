package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/sandbox"
)

// The sandbox's console, signed in, with deposits in several states and their webhook
// deliveries, is styled by its style sheet (which its CSP allows) and fits a 390 px phone
// without sideways scrolling; its buttons are big enough to tap. The same page on a wide
// screen keeps its table.
func TestSandboxConsoleStyledAndFitsAPhone(t *testing.T) {
	t.Parallel()
	if suite.skip != "" {
		t.Skipf("BROWSER TESTS SKIPPED: %s (run e2e/setup.sh)", suite.skip)
	}
	cleanArtifacts(t)
	const id, secret = "console-client", "console-secret-1"
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer hooks.Close()
	ctx, cancel := context.WithCancel(context.Background())
	sb, err := sandbox.New(ctx, sandbox.Options{DataDir: t.TempDir(), Clients: []sandbox.ClientConfig{{ID: id, Secret: secret}},
		WebhookForwardTo: hooks.URL + "/a/rather/long/path/for/webhooks/that/must/wrap/on/a/phone"})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { sb.Run(ctx); close(done) }()
	srv := httptest.NewServer(sb)
	t.Cleanup(func() { srv.Close(); cancel(); <-done; sb.Close() })

	c, err := gatewayclient.New(srv.URL, id, secret)
	if err != nil {
		t.Fatal(err)
	}
	var records []string // the sandbox paths of the records, for their deliveries
	for i, action := range []sandbox.DepositAction{"", sandbox.ActionPay, sandbox.ActionFail} {
		tx, err := c.CreateTransaction(ctx, gatewayclient.CreateTransactionRequest{Amount: gatewayclient.Cents(1990 + i),
			PaymentMethod: gatewayclient.PaymentMethodPIX, IdempotencyKey: fmt.Sprintf("console-e2e-%d", i), Pix: &gatewayclient.PixRequest{}})
		if err != nil {
			t.Fatal(err)
		}
		records = append(records, "/sandbox/deposits/"+tx.ID)
		if action != "" {
			if _, err := sb.ControlDeposit(ctx, id, tx.ID, action, sandbox.DepositControl{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	wd, err := sb.CreateWithdrawal(ctx, id, sandbox.NewWithdrawal{Amount: 2500})
	if err != nil {
		t.Fatal(err)
	}
	records = append(records, "/sandbox/withdrawals/"+wd.ID)
	waitForAttempts(t, c, records)

	for _, tc := range []struct {
		name string
		opts playwright.BrowserNewContextOptions
	}{
		{"phone", playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 390, Height: 844},
			DeviceScaleFactor: playwright.Float(2), IsMobile: playwright.Bool(true), HasTouch: playwright.Bool(true)}},
		{"desktop", playwright.BrowserNewContextOptions{Viewport: &playwright.Size{Width: 1280, Height: 900}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newSession(t, tc.opts)
			var cspViolations []string
			s.page.OnConsole(func(m playwright.ConsoleMessage) {
				if m.Type() == "error" {
					cspViolations = append(cspViolations, m.Text())
				}
			})
			s.open(srv.URL + "/sandbox/")
			s.check(s.page.Locator(`input[name="client_id"]`).Fill(id), "client id")
			s.check(s.page.Locator(`input[name="client_secret"]`).Fill(secret), "client secret")
			s.check(s.page.Locator(`button[type="submit"]`).Click(), "sign in")
			s.check(s.expect.Locator(s.page.Locator(`[data-testid="sandbox-deposit-row"]`)).ToHaveCount(3), "three deposits")
			s.check(s.expect.Locator(s.page.Locator(`[data-testid="sandbox-attempt"]`).First()).ToBeVisible(), "the deliveries' attempts")

			// The style sheet applied: buttons have the console's size, not the browser's.
			if h := s.eval(s.page, `() => getComputedStyle(document.querySelector('td button')).minHeight`); h != "36px" {
				t.Errorf("button min-height %v: the style sheet did not apply", h)
			}
			if len(cspViolations) > 0 {
				t.Errorf("console errors (a CSP refusal?): %v", cspViolations)
			}
			s.noHorizontalScroll(s.page, "console")
			if tc.name == "phone" {
				s.tappable(s.page.Locator(`td button`).First(), "a control button")
				if d := s.eval(s.page, `() => getComputedStyle(document.querySelector('td')).display`); d != "block" {
					t.Errorf("cells display %v on a phone, want block (one card per row)", d)
				}
			} else if d := s.eval(s.page, `() => getComputedStyle(document.querySelector('td')).display`); d != "table-cell" {
				t.Errorf("cells display %v on a wide screen, want table-cell", d)
			}
			s.shot("console-" + tc.name)
		})
	}
}

// waitForAttempts waits until every webhook delivery of the records (there is at least one)
// has been tried, so that the console shows their attempts.
func waitForAttempts(t *testing.T, c *gatewayclient.Client, records []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), expectTimeout)
	defer cancel()
	for {
		tried, untried := 0, 0
		for _, r := range records {
			var log struct {
				Deliveries []struct {
					AttemptLog []json.RawMessage `json:"attemptLog"`
				} `json:"deliveries"`
			}
			if err := c.Do(ctx, http.MethodGet, r+"/deliveries", nil, &log); err != nil {
				t.Fatalf("the deliveries of %s: %v", r, err)
			}
			for _, d := range log.Deliveries {
				if len(d.AttemptLog) > 0 {
					tried++
				} else {
					untried++
				}
			}
		}
		if tried > 0 && untried == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the outbox tried %d deliveries and not %d others", tried, untried)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
