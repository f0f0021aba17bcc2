#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what the browser tests (tests/e2e) need, when missing: Debian's
# chromium (/usr/bin/chromium) and playwright-core from npm (npm ci in
# tests/e2e, never a downloaded browser). Node 20 and its npm come with the
# machine; Debian's npm is not installed (it conflicts with them).
set -e
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
    echo "installing: chromium"
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
if [ ! -d tests/e2e/node_modules/playwright-core ]; then
    echo "installing: tests/e2e/node_modules (npm ci)"
    (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
