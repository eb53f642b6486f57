#!/usr/bin/env bash
# Installs what the browser tests need on a fresh Debian machine, idempotently:
#   - Debian's Chromium and its headless shell (Playwright's own browser download is not
#     reachable from CI);
#   - the Playwright driver that playwright-go pins (the npm package playwright-core at that
#     exact version plus a link to this machine's node), unpacked into e2e/.driver;
#   - axe-core, the accessibility rules the tests run in every page, unpacked into e2e/.axe;
#   - Debian's PgBouncer, for the PostgreSQL tests of instances behind a pooler;
#   - Redocly's CLI, the linter of the merchant API's OpenAPI document, installed into
#     e2e/.redocly (the test command runs e2e/.redocly/node_modules/.bin/redocly).
# Nothing here downloads from a CDN: only Debian's packages and the npm registry are used.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
driver="$here/.driver"
# playwright-go v0.5200.x refuses any driver but this one (playwrightCliVersion in its run.go).
version="1.52.0"

# Most browser tests run in the headless shell, far lighter; those of a checkout framed by
# another site run in Chromium, which blocks third-party cookies.
if [ ! -x /usr/lib/chromium/chromium ] || [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "e2e/setup: installing Debian's chromium and chromium-headless-shell" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-headless-shell >/dev/null
fi

# Debian's PgBouncer, for the test of instances behind it in transaction pooling (the package
# starts a system service on install; the test runs a pgbouncer of its own on a free port).
if [ ! -x /usr/sbin/pgbouncer ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "e2e/setup: installing Debian's pgbouncer" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq pgbouncer >/dev/null
fi

if ! command -v node >/dev/null 2>&1; then
  echo "e2e/setup: node is required (Debian package nodejs)" >&2
  exit 1
fi

have=""
[ -f "$driver/package/package.json" ] && have=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$driver/package/package.json" | head -n1)
if [ "$have" != "$version" ]; then
  echo "e2e/setup: fetching playwright-core@$version from the npm registry" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "playwright-core@$version" >/dev/null)
  rm -rf "$driver"
  mkdir -p "$driver"
  tar -xzf "$tmp"/playwright-core-"$version".tgz -C "$driver"
fi
ln -sfn "$(command -v node)" "$driver/node"

# axe-core, the accessibility engine the browser tests run in every page (WCAG A and AA rules).
axe_version="4.14.1"
axe="$here/.axe"
have_axe=""
[ -f "$axe/package/package.json" ] && have_axe=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$axe/package/package.json" | head -n1)
if [ "$have_axe" != "$axe_version" ]; then
  echo "e2e/setup: fetching axe-core@$axe_version from the npm registry" >&2
  tmp_axe=$(mktemp -d)
  (cd "$tmp_axe" && npm pack --silent "axe-core@$axe_version" >/dev/null)
  rm -rf "$axe"
  mkdir -p "$axe"
  tar -xzf "$tmp_axe"/axe-core-"$axe_version".tgz -C "$axe"
  rm -rf "$tmp_axe"
fi
# @redocly/cli lints web/openapi.json (web/redocly.yaml); 2.x is the line that runs on Node 20.
redocly_version="2.77.0"
redocly="$here/.redocly"
have_redocly=""
[ -f "$redocly/node_modules/@redocly/cli/package.json" ] && have_redocly=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$redocly/node_modules/@redocly/cli/package.json" | head -n1)
if [ "$have_redocly" != "$redocly_version" ]; then
  echo "e2e/setup: installing @redocly/cli@$redocly_version from the npm registry" >&2
  rm -rf "$redocly"
  mkdir -p "$redocly"
  npm install --silent --no-fund --no-audit --no-package-lock --prefix "$redocly" "@redocly/cli@$redocly_version" >/dev/null
fi
echo "e2e/setup: ready (chromium $(/usr/lib/chromium/chromium --version 2>/dev/null | awk '{print $2}'), playwright-core $version, axe-core $axe_version, @redocly/cli $redocly_version)" >&2
