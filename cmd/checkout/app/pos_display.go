package app

import (
	"context"

	"github.com/pixcheckout/pixcheckout/checkout/pos"
	"github.com/pixcheckout/pixcheckout/checkout/postgres"
)

// Displays returns the customers' displays of the point of sale.
func (a *App) Displays() *pos.Displays { return a.displays }

// displayRevoked wakes the streams of a terminal's displays once one of them was revoked, so that
// the revoked one reads its token again and ends at once rather than at its next heartbeat: in
// this process through the service's terminal subscription, and on PostgreSQL in every other
// instance through the change feed's kind for terminals. A lost notification leaves the
// heartbeat's own check (web.DefaultHeartbeat).
func (a *App) displayRevoked(ctx context.Context, terminalID string) {
	a.svc.TerminalChanged(terminalID)
	if pg, ok := a.store.(*postgres.Store); ok {
		if err := pg.AnnounceTerminal(context.WithoutCancel(ctx), terminalID); err != nil {
			a.log.WarnContext(ctx, "a revoked display's streams on other instances end at their next heartbeat", "err", err)
		}
	}
}
