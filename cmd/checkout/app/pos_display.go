package app

import "github.com/pixcheckout/pixcheckout/checkout/pos"

// Displays returns the customers' displays of the point of sale.
func (a *App) Displays() *pos.Displays { return a.displays }
