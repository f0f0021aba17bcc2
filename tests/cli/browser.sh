#!/bin/sh
# SPDX-License-Identifier: MIT
# browser.sh - the web app's browser tests (tests/e2e): headless chromium
# driven by playwright-core clicks through games against a `damier serve`
# that the tests start themselves (--listen 127.0.0.1:0, a fresh --db in a
# temporary folder), reading the address it prints. What they need
# (Debian's chromium, npm ci in tests/e2e) is installed by
# tools/e2e-deps.sh when missing.
: "${DAMIER_BIN:?DAMIER_BIN must name the damier binary}"
root=$(cd "$(dirname "$0")/../.." && pwd)
case $DAMIER_BIN in
/*) bin=$DAMIER_BIN ;;
*) bin=$(pwd)/$DAMIER_BIN ;;
esac
if [ ! -x /usr/bin/chromium ] || [ ! -d "$root/tests/e2e/node_modules/playwright-core" ]; then
    "$root/tools/e2e-deps.sh" || { echo "FAIL: tools/e2e-deps.sh could not install chromium and playwright-core"; exit 1; }
fi
cd "$root/tests/e2e" || exit 1
start=$(date +%s)
DAMIER_BIN=$bin node --test --test-concurrency=1 --test-reporter=spec picker.test.mjs app.test.mjs
rc=$?
echo "$0: browser tests took $(($(date +%s) - start)) s"
exit $rc
