#!/bin/sh
# SPDX-License-Identifier: MIT
# nodes.sh - several damier serve nodes on one throwaway PostgreSQL and one
# throwaway Redis (tests/cli/servers.inc): tests/unit/test_nodes.c starts
# three nodes on loopback ports and plays a game created on one through
# another, watched from the third; kills the first with SIGKILL mid-game;
# kills Redis and starts it again mid-game; and hands a computer game from
# a node without an engine to one with.  Without the servers' programs it
# says SKIP, unless DAMIER_REQUIRE_PG / DAMIER_REQUIRE_REDIS is set (CI).
. "$(dirname "$0")/common.inc"
. "$(dirname "$0")/servers.inc"
build=$(dirname "$DAMIER_BIN")

need_pg
need_redis
if ! DAMIER_TEST_PG=$pg_url DAMIER_TEST_REDIS=$redis_url DAMIER_TEST_REDIS_DIR=$redis_dir \
    DAMIER_REDIS_TEST_TOOL="$root/tools/redis-test.sh" "$build/tests/test_nodes" >"$tmp/nodes.out" 2>&1; then
    cat "$tmp/nodes.out"
    fail "the nodes suite fails"
fi
grep -q SKIP "$tmp/nodes.out" && fail "the nodes suite skipped tests with its servers set"
finish
