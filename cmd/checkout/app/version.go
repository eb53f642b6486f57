package app

// Version is the release of PIX Checkout this source is. 0.1.0 is the first: its database
// schema is the baseline migration of each store, and every later schema change is a migration
// numbered after it and tested from each release's schema forward (README.md beside the
// command, "Releases and upgrades").
const Version = "0.1.0"
