package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/pixcheckout/pixcheckout/cmd/checkout/app"
)

// runVersion prints the release and the revision of the source the binary was built from.
func runVersion(prog string, args []string, _ func(string) string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "usage: %s version\n", prog)
		if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
			return 0
		}
		return 2
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintln(stdout, versionText(info))
	return 0
}

// versionText is the line `checkout version` prints: the release, then the version control
// revision the Go toolchain stamped into the binary (debug.ReadBuildInfo), or words saying
// why there is none (a build with -buildvcs=false, outside a git checkout, or `go run`,
// which never stamps one).
func versionText(info *debug.BuildInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "PIX Checkout %s", app.Version)
	vcs := map[string]string{}
	if info != nil {
		for _, s := range info.Settings {
			vcs[s.Key] = s.Value
		}
	}
	switch rev := vcs["vcs.revision"]; {
	case rev == "":
		b.WriteString(", revision unknown (built without version control information)")
	default:
		fmt.Fprintf(&b, ", revision %s", rev)
		if t := vcs["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " of %s", t)
		}
		if vcs["vcs.modified"] == "true" {
			b.WriteString(" with uncommitted changes")
		}
	}
	if info != nil && info.GoVersion != "" {
		fmt.Fprintf(&b, ", %s", info.GoVersion)
	}
	return b.String()
}
