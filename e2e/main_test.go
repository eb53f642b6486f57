package e2e

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/playwright-community/playwright-go"

	"github.com/pixcheckout/pixcheckout/checkout/team/teamtest"
	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// defaultChromium is Debian's Chromium binary (the real one; /usr/bin/chromium is a wrapper
// script that adds its own flags and noise). CHROMIUM_PATH overrides it.
const defaultChromium = "/usr/lib/chromium/chromium"

// defaultShell is Debian's Chromium headless shell (package chromium-headless-shell), the same
// engine without the browser's windows and profile: the headless browser Playwright itself
// runs. A context and its page cost it a sixth of the CPU they cost Chromium, a navigation
// half. It has no third-party cookie block, so a checkout framed by another site is tested in
// Chromium (session.crossSite). CHROMIUM_HEADLESS_SHELL_PATH overrides it.
const defaultShell = "/usr/lib/chromium/chromium-headless-shell"

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

// browserEnv is the browsers shared by every test of a run. TestMain builds it before any
// test starts and nothing changes it afterwards.
type browserEnv struct {
	pw *playwright.Playwright
	// browser is the headless shell, where a test's sessions open unless they need crossSite.
	browser playwright.Browser
	// crossSite is Chromium, which blocks third-party cookies as Safari and Firefox do: the
	// sessions of a checkout framed by another site open there.
	crossSite playwright.Browser
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
	defaultParallel(4)
	code := m.Run()
	for _, b := range []playwright.Browser{env.browser, env.crossSite} {
		if err := b.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: closing the browser: %v\n", err)
		}
	}
	if err := env.pw.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: stopping the driver: %v\n", err)
	}
	return code
}

// defaultParallel sets how many tests run at once to n when -parallel is not given. A browser
// test spends much of its time waiting for a page, the browser or the app's background work,
// and GOMAXPROCS (the default, 2 on a small machine) leaves the cores idle meanwhile.
func defaultParallel(n int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}

// launch starts the Playwright driver from e2e/.driver (or PLAYWRIGHT_DRIVER_PATH), Debian's
// Chromium headless shell and Chromium. It never downloads anything: a missing piece is an error.
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
	shell, chromium := binary("CHROMIUM_HEADLESS_SHELL_PATH", defaultShell), binary("CHROMIUM_PATH", defaultChromium)
	for _, b := range []string{shell, chromium} {
		if _, err := os.Stat(b); err != nil {
			return browserEnv{}, fmt.Errorf("no Chromium at %s: %w", b, err)
		}
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
	env := browserEnv{pw: pw, axe: string(axe)}
	if env.browser, err = launchChromium(pw, shell); err == nil {
		env.crossSite, err = launchChromium(pw, chromium)
	}
	if err != nil {
		_ = pw.Stop()
		return browserEnv{}, err
	}
	// Debian's security updates replace Chromium: the version belongs in every test log.
	fmt.Fprintf(os.Stderr, "e2e: Chromium %s (headless shell %s), Playwright driver %s\n", env.crossSite.Version(), env.browser.Version(), driver)
	return env, nil
}

// binary is the path in the environment variable name, else def.
func binary(name, def string) string {
	if p := os.Getenv(name); p != "" {
		return p
	}
	return def
}

// launchChromium starts the Chromium binary at path, headless.
func launchChromium(pw *playwright.Playwright, path string) (playwright.Browser, error) {
	browser, err := pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(path),
		Headless:       playwright.Bool(true),
		Args:           chromiumArgs,
	})
	if err != nil {
		return nil, fmt.Errorf("launching %s: %w", path, err)
	}
	if !browser.IsConnected() {
		return nil, fmt.Errorf("%s started but is not connected", path)
	}
	return browser, nil
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
