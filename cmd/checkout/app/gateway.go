package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/pixcheckout/pixcheckout/gatewayclient"
	"github.com/pixcheckout/pixcheckout/gatewayclient/health"
)

// newHealth makes the monitor of the gateway at base: every call of the gateway client goes
// through its transport, and each change of the gateway's state is logged once, with its
// cause in words (a 401 is never "did not answer").
func (a *App) newHealth(base string) (*health.Monitor, error) {
	return health.New(base, health.Options{
		OnChange: func(s health.State) {
			if a.checkingGateway.Load() {
				return // the start-up check's own line says it all
			}
			if s.OK {
				a.log.Info("gateway working again")
				return
			}
			a.log.Warn("gateway failing", "cause", string(s.Cause), "why", s.Cause.Words(), "detail", s.Detail)
		},
		OnCall: func(c health.Call) {
			if a.metrics != nil {
				a.metrics.gatewayCall(c)
			}
		},
		Clock: time.Now, // the gateway's state is about delivery, not the shop's business time
	})
}

// gatewayTransport is the transport of the gateway client: the configured one (benchmarks
// count requests) or the client's default, observed by the health monitor.
func (a *App) gatewayTransport() http.RoundTripper {
	var next http.RoundTripper = gatewayclient.NewTransport()
	if a.cfg.GatewayTransport != nil {
		next = a.cfg.GatewayTransport
	}
	return a.health.Transport(next)
}

// probeGateway is the light call that tells the gateway's state: a token (when none is
// cached) and the first deposit of the list, a read with no effect.
func (a *App) probeGateway(ctx context.Context) error {
	_, err := a.gateway.ListDeposits(ctx, gatewayclient.DepositFilter{Page: 1, PerPage: 1})
	return err
}

// checkGateway is the start-up check of a real gateway: a token and one harmless read, retried
// while the gateway is unreachable or failing for at most GatewayStartTimeout. A failure is a
// *ConfigError whose one line names what to fix: the client id and secret (401), a permission
// (403), the URL's path prefix (404), the URL and the address tried (no answer). With
// GatewayDegradedStart the failure is logged and the start goes on.
func (a *App) checkGateway(ctx context.Context) error {
	a.checkingGateway.Store(true)
	defer a.checkingGateway.Store(false)
	budget := cmp.Or(a.cfg.GatewayStartTimeout, DefaultGatewayStartTimeout)
	// Said first: an unreachable gateway keeps the start silent for the whole budget otherwise.
	a.log.Info(fmt.Sprintf("checking the gateway at %s (up to %s)", a.cfg.GatewayURL, budget))
	deadline := time.Now().Add(budget)
	wait := 500 * time.Millisecond
	for {
		actx, cancel := context.WithDeadline(ctx, deadline)
		err := a.probeGateway(actx)
		cancel()
		if err == nil {
			a.log.Info("gateway check passed")
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("app: checking the gateway: %w", ctx.Err())
		}
		st := a.health.State()
		final := st.Cause == health.CauseCredentials || st.Cause == health.CauseForbidden || st.Cause == health.CauseNotFound
		if !final && time.Until(deadline) > wait {
			a.log.Debug("gateway start-up check: retrying", "cause", string(st.Cause), "detail", st.Detail, "err", err)
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return fmt.Errorf("app: checking the gateway: %w", ctx.Err())
			case <-t.C:
			}
			wait = min(wait*2, 5*time.Second)
			continue
		}
		cerr := a.gatewayStartError(st, err, budget)
		if a.cfg.GatewayDegradedStart {
			a.log.Error("gateway start-up check failed; starting degraded (CHECKOUT_GATEWAY_START_CHECK=degraded)", "problem", cerr.Error())
			return nil
		}
		return cerr
	}
}

// gatewayStartError is the one line of a failed start-up check.
func (a *App) gatewayStartError(st health.State, err error, budget time.Duration) *ConfigError {
	gw := a.cfg.GatewayURL
	prefix := "/"
	if u, perr := url.Parse(gw); perr == nil && u.Path != "" {
		prefix = u.Path
	}
	switch {
	case st.Cause == health.CauseCredentials || errors.Is(err, gatewayclient.ErrInvalidCredentials) || errors.Is(err, gatewayclient.ErrMalformedCredentials):
		return &ConfigError{"CHECKOUT_GATEWAY_CLIENT_SECRET", fmt.Sprintf("the gateway at %s refused the credentials (%s): check CHECKOUT_GATEWAY_CLIENT_ID and CHECKOUT_GATEWAY_CLIENT_SECRET", gw, cmp.Or(st.Detail, "401 Unauthorized"))}
	case st.Cause == health.CauseForbidden || errors.Is(err, gatewayclient.ErrForbidden):
		return &ConfigError{"CHECKOUT_GATEWAY_CLIENT_ID", fmt.Sprintf("the gateway at %s accepted the credentials but they lack a permission (%s): give this client the permission to create transactions and read deposits", gw, cmp.Or(st.Detail, "403 Forbidden"))}
	case st.Cause == health.CauseNotFound:
		return &ConfigError{"CHECKOUT_GATEWAY_URL", fmt.Sprintf("the gateway at %s has no API under the path prefix %q (%s): check the URL's path prefix, e.g. https://api.gateway.example/v1", gw, prefix, st.Detail)}
	case st.Cause == health.CauseUnreachable || st.Cause == health.CauseTimeout:
		return &ConfigError{"CHECKOUT_GATEWAY_URL", fmt.Sprintf("%s for %s (%s): check the URL, the network and the gateway's status, or set CHECKOUT_GATEWAY_START_CHECK=degraded to start anyway", st.Cause.Words(), budget, st.Detail)}
	case st.Cause == health.CauseServerError:
		return &ConfigError{"CHECKOUT_GATEWAY_URL", fmt.Sprintf("the gateway at %s kept failing for %s (%s): check the gateway's status, or set CHECKOUT_GATEWAY_START_CHECK=degraded to start anyway", gw, budget, st.Detail)}
	}
	return &ConfigError{"CHECKOUT_GATEWAY_URL", fmt.Sprintf("the start-up check of the gateway at %s failed: %v", gw, err)}
}

// runHealth probes the gateway whenever no call told its state for GatewayProbeInterval.
func (a *App) runHealth(ctx context.Context) {
	every := cmp.Or(a.cfg.GatewayProbeInterval, DefaultGatewayProbeInterval)
	timeout := cmp.Or(a.cfg.GatewayProbeTimeout, DefaultGatewayProbeTimeout)
	a.health.Run(ctx, every, timeout, func(ctx context.Context) error {
		err := a.probeGateway(ctx)
		if err != nil && ctx.Err() == nil {
			a.log.Debug("gateway probe", slog.String("err", err.Error()))
		}
		return err
	})
}

// gatewayUp tells whether the gateway is believed to work: shoppers' requests and the
// reconciler leave it alone while it fails (the monitor's probe tells when it is back).
func (a *App) gatewayUp() bool { return a.health.State().OK }

// GatewayHealth returns the gateway's state as this instance knows it.
func (a *App) GatewayHealth() health.State { return a.health.State() }
