package e2e

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// defaultChromium is Debian's Chromium binary (the real one; /usr/bin/chromium is a wrapper
// script that adds its own flags and noise). CHROMIUM_PATH overrides it.
const defaultChromium = "/usr/lib/chromium/chromium"

// chromiumArgs are the flags Chromium needs in a container without a GPU or a big /dev/shm,
// and without the background traffic (updates, sync) that has no place in a test.
var chromiumArgs = []string{
	"--no-sandbox",
	"--disable-gpu",
	"--disable-dev-shm-usage",
	"--disable-background-networking",
	"--disable-component-update",
	"--no-first-run",
	"--disable-sync",
	// Third-party cookies must be blocked, as Safari and Firefox do by default: the embedded
	// checkout has to work without them. Chromium 156 in a Playwright context already blocks
	// them (DevTools reports "UserPreferences"); this flag keeps them blocked on a Chromium
	// that would allow them. The iframe test proves the block is in force.
	"--test-third-party-cookie-phaseout",
}

// browserEnv is the one browser shared by every test of a run. TestMain builds it before any
// test starts and nothing changes it afterwards.
type browserEnv struct {
	pw      *playwright.Playwright
	browser playwright.Browser
	// skip, when not empty, says why the browser tests cannot run on this machine.
	skip string
	// axe is the source of axe-core (e2e/.axe), run in pages by session.a11y.
	axe string
	// dataDir is a checkout data directory made once (stores migrated, catalogue seeded, keys
	// and the first user made): every test's app starts from a copy of it.
	dataDir string
}

// suite is written once by TestMain, before the tests run, and only read by them.
var suite browserEnv

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	env, err := launch()
	if err != nil {
		// A missing browser fails the run: a suite that skips itself silently proves nothing.
		// Only an explicit CHECKOUT_TEST_ALLOW_SKIP=1 (never in CI) turns it into a loud skip.
		if os.Getenv("CHECKOUT_TEST_ALLOW_SKIP") != "1" || os.Getenv("CI") != "" {
			fmt.Fprintf(os.Stderr, "e2e: %v\ne2e: run e2e/setup.sh to install Chromium and the Playwright driver (or set CHECKOUT_TEST_ALLOW_SKIP=1 to skip)\n", err)
			return 1
		}
		banner := strings.Repeat("!", 78)
		fmt.Fprintf(os.Stderr, "%s\ne2e: BROWSER TESTS SKIPPED: %v\ne2e: run e2e/setup.sh to install Chromium and the Playwright driver\n%s\n", banner, err, banner)
		suite = browserEnv{skip: err.Error()}
		return m.Run()
	}
	tmp, err := os.MkdirTemp("", "e2e-data-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	env.dataDir = filepath.Join(tmp, "data")
	if err := makeDataDir(env.dataDir); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: making the template data directory: %v\n", err)
		return 1
	}
	suite = env
	code := m.Run()
	if err := env.browser.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: closing the browser: %v\n", err)
	}
	if err := env.pw.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: stopping the driver: %v\n", err)
	}
	return code
}

// launch starts the Playwright driver from e2e/.driver (or PLAYWRIGHT_DRIVER_PATH) and
// Debian's Chromium. It never downloads anything: a missing piece is an error.
func launch() (browserEnv, error) {
	driver := os.Getenv("PLAYWRIGHT_DRIVER_PATH")
	if driver == "" {
		abs, err := filepath.Abs(".driver")
		if err != nil {
			return browserEnv{}, fmt.Errorf("driver directory: %w", err)
		}
		driver = abs
	}
	if _, err := os.Stat(filepath.Join(driver, "package", "cli.js")); err != nil {
		return browserEnv{}, fmt.Errorf("no Playwright driver in %s: %w", driver, err)
	}
	axe, err := os.ReadFile(filepath.Join(".axe", "package", "axe.min.js"))
	if err != nil {
		return browserEnv{}, fmt.Errorf("no axe-core in e2e/.axe: %w", err)
	}
	chromium := os.Getenv("CHROMIUM_PATH")
	if chromium == "" {
		chromium = defaultChromium
	}
	if _, err := os.Stat(chromium); err != nil {
		return browserEnv{}, fmt.Errorf("no Chromium at %s: %w", chromium, err)
	}
	pw, err := playwright.Run(&playwright.RunOptions{
		DriverDirectory:     driver,
		SkipInstallBrowsers: true,
		Verbose:             false,
		Stdout:              io.Discard,
	})
	if err != nil {
		return browserEnv{}, fmt.Errorf("starting the Playwright driver: %w", err)
	}
	browser, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(chromium),
		Headless:       playwright.Bool(true),
		Args:           chromiumArgs,
	})
	if err != nil {
		_ = pw.Stop()
		return browserEnv{}, fmt.Errorf("launching %s: %w", chromium, err)
	}
	if !browser.IsConnected() {
		_ = pw.Stop()
		return browserEnv{}, errors.New("chromium started but is not connected")
	}
	// Debian's security updates replace Chromium: the version belongs in every test log.
	fmt.Fprintf(os.Stderr, "e2e: Chromium %s, Playwright driver %s\n", browser.Version(), driver)
	return browserEnv{pw: pw, browser: browser, axe: string(axe)}, nil
}

// makeDataDir starts an app on dir and closes it: what a first start writes (migrations, the
// demo catalogue, keys, the first dashboard user) is then there to copy: a first start costs
// more than the rest of a test's app.
func makeDataDir(dir string) error {
	env := map[string]string{"CHECKOUT_ADDR": "127.0.0.1:0", "CHECKOUT_DATA_DIR": dir}
	cfg, err := app.Load(func(k string) string { return env[k] }, nil)
	if err != nil {
		return err
	}
	cfg.LogOutput = io.Discard
	cfg.Passwords = teamtest.Hasher() // the first user's hash is copied with the data dir
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	a, err := app.New(context.Background(), cfg, ln)
	if err != nil {
		ln.Close()
		return err
	}
	return a.Close()
}
