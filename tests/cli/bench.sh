#!/bin/sh
# SPDX-License-Identifier: MIT
# bench.sh - the search's node-count signature, as a contract: every change
# to what the engine searches changes it, and the commit that makes the
# change measures it by games (damier match) and gives the new figure as
# "Bench: N".  An unintended change fails here.  Sanitizer runs
# (DAMIER_QUICK) check the shallow workload, a tenth of the time.
. "$(dirname "$0")/common.inc"

BENCH=6217370          # damier bench
BENCH_SHALLOW=128004   # damier bench search --depth-delta -6

if [ -n "$DAMIER_QUICK" ] && [ "$DAMIER_QUICK" != 0 ]; then
    run bench search --depth-delta -6
    want=$BENCH_SHALLOW
else
    run bench
    want=$BENCH
fi
[ "$rc" -eq 0 ] || fail "bench: exit $rc: $(cat "$tmp/err")"
got=$(sed -n 's/^signature: //p' "$tmp/out")
[ "$got" = "$want" ] || fail "bench signature $got, expected $want: the search changed (measure it with damier match, then update this file and say Bench: $got)"
# Every variant is in the workload, from its start.
for id in $("$DAMIER_BIN" variants | awk 'NR > 1 { print $1 }'); do
    grep -q "^$id  *start " "$tmp/out" || fail "bench: no start position of $id"
done
grep -q '^total  *[0-9]*  *[0-9.]*  *[0-9]*$' "$tmp/out" || fail "bench: no total line with nodes per second"

finish
