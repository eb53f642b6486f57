package dashboard

import (
	"time"

	"github.com/go-chi/chi/v5"
)

// WalkRoutes walks every route the dashboard serves, as its router holds them: the tests
// find a route that is served without being in the permission table.
func WalkRoutes(d *Dashboard, fn chi.WalkFunc) error { return chi.Walk(d.handler.(chi.Routes), fn) }

// MatchRoute returns the pattern of the route that serves method and path (below Path), or "".
func MatchRoute(d *Dashboard, method, path string) string {
	rctx := chi.NewRouteContext()
	if !d.handler.(chi.Routes).Match(rctx, method, path) {
		return ""
	}
	return rctx.RoutePattern()
}

// MaskingGateway is the gateway as the dashboard's pages read it (personal.go).
func MaskingGateway(g Gateway) Gateway { return maskingGateway{g} }

// SetIdleClock makes now the clock of d's sessions' idle limits (the wall clock by default).
func SetIdleClock(d *Dashboard, now func() time.Time) { d.idleNow = now }
