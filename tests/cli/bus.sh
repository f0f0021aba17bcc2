#!/bin/sh
# SPDX-License-Identifier: MIT
# bus.sh - the bus between nodes (tests/unit/test_bus.c) on a throwaway
# Redis of its own (tools/redis-test.sh), which the test kills and starts
# again on the same port; that tools/redis-test.sh run gives its command's
# status and leaves no server behind; and that tools/deps.sh installs what
# this needs; and damier serve's checks of --node and --redis (the nodes
# themselves: tests/cli/nodes.sh).
# Without redis-server it says SKIP, unless
# DAMIER_REQUIRE_REDIS is set (CI), where that is a failure (servers.inc).
. "$(dirname "$0")/common.inc"
. "$(dirname "$0")/servers.inc"
build=$(dirname "$DAMIER_BIN")

echo " $("$root/tools/deps.sh" list-run) " | grep -q " libhiredis-dev " ||
    fail "tools/deps.sh run does not install libhiredis-dev"
echo " $("$root/tools/deps.sh" list-check) " | grep -q " redis-server " ||
    fail "tools/deps.sh check does not install redis-server"

# serve --node/--redis: exit 2 and the reason, before any database or Redis.
pg=postgresql://damier@127.0.0.1:1/damier
expect_serve_refused() { # WHAT PATTERN ARGS...
    what=$1 pattern=$2
    shift 2
    run serve --listen 127.0.0.1:0 "$@"
    [ "$rc" -eq 2 ] || fail "serve $what: exit $rc, expected 2"
    grep -q "$pattern" "$tmp/err" || fail "serve $what: '$(cat "$tmp/err")', expected '$pattern'"
}
expect_serve_refused "--redis on SQLite" "needs a postgresql:// --db" \
    --node a --redis redis://127.0.0.1:1 --db "$tmp/games.db"
expect_serve_refused "--redis without --node" "go together" --redis redis://127.0.0.1:1 --db "$pg"
expect_serve_refused "--node without --redis" "go together" --node a --db "$pg"
expect_serve_refused "a bad node name" "is 1 to 63 letters" --node "a b" --redis redis://x --db "$pg"
expect_serve_refused "a bad Redis URL" "redis://HOST:PORT URL" --node a --redis http://x --db "$pg"
expect_serve_refused "--node without its value" "needs a value" --node
expect_serve_refused "--no-engine alone" "is for a node among several" --no-engine --db "$pg"
expect_serve_refused "--lease-seconds alone" "is for a node among several" --lease-seconds 2 --db "$pg"
expect_serve_refused "a lease of 0 s" "lease-seconds" --node a --redis redis://x --db "$pg" --lease-seconds 0
[ -e "$tmp/games.db" ] && fail "serve refused --redis but made its SQLite file"

need_redis
if ! DAMIER_TEST_REDIS=$redis_url DAMIER_TEST_REDIS_DIR=$redis_dir \
    DAMIER_REDIS_TEST_TOOL="$root/tools/redis-test.sh" "$build/tests/test_bus" >"$tmp/bus.out" 2>&1; then
    cat "$tmp/bus.out"
    fail "the bus suite fails on Redis"
fi
grep -q SKIP "$tmp/bus.out" && fail "the bus suite skipped tests with DAMIER_TEST_REDIS set"

# redis-test.sh run: the command's status, and no server left after it.
"$root/tools/redis-test.sh" run sh -c 'echo "${DAMIER_TEST_REDIS#redis://127.0.0.1:}" >"$0"; [ "$(redis-cli -p "${DAMIER_TEST_REDIS#redis://127.0.0.1:}" ping)" = PONG ] && exit 3' "$tmp/run-port"
[ $? -eq 3 ] || fail "tools/redis-test.sh run: not the command's exit status, or no server"
redis-cli -p "$(cat "$tmp/run-port")" ping >/dev/null 2>&1 &&
    fail "tools/redis-test.sh run left its server running"
finish
