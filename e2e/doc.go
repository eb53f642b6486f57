// Package e2e holds the browser tests of the shopper checkout: a real Chromium, driven through
// playwright-go, against a whole checkout app started in-process for each test (SQLite in a
// temporary directory copied from one made at the start of the run, the embedded sandbox
// gateway, a random port) and a fresh browser context. So the tests run in parallel, all but
// those that use the browser's one clipboard. A test that must show that something did not
// happen waits for the event that decides it, and time passes on the app's clock
// (testApp.clock) or the page's (Page.Clock), never in a sleep.
//
// The tests need Debian's Chromium and the Playwright driver that playwright-go pins; e2e/setup.sh
// installs both without any browser download. Without them the tests skip with a loud message,
// except when the CI environment variable is set: then they fail.
//
// Screenshots of every page visited go to e2e/artifacts/<test>/ (ignored by git), with the
// app's log and, for a failed test, the page's HTML.
package e2e
