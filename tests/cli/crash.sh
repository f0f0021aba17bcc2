#!/bin/sh
# SPDX-License-Identifier: MIT
# crash.sh - kill -9 in the middle of the load (issue 12, part 4): the load
# tool plays 40 games on a damier serve with quick pauses, logging every
# acknowledged move; the server is killed with SIGKILL once 20 moves are
# acknowledged (so in the middle of the games on a busy machine too), started
# again on the same database, and tools/load/verify.mjs checks that every
# acknowledged move of every game is there at its ply and that every game
# takes a further legal move.  Needs node and tools/load's npm packages
# (npm ci, from the lock file, when missing).
: "${DAMIER_BIN:?DAMIER_BIN must name the damier binary}"
root=$(cd "$(dirname "$0")/../.." && pwd)
case $DAMIER_BIN in
/*) bin=$DAMIER_BIN ;;
*) bin=$(pwd)/$DAMIER_BIN ;;
esac
if [ ! -d "$root/tools/load/node_modules/ws" ]; then
    (cd "$root/tools/load" && npm ci --no-audit --no-fund >/dev/null 2>&1) ||
        { echo "FAIL: npm ci in tools/load"; exit 1; }
fi
dir=$(mktemp -d /tmp/damier-crash-XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$dir"' EXIT

# Starts the server on $dir/crash.db; sets pid and url.
start() {
    : >"$dir/out"
    "$bin" serve --listen 127.0.0.1:0 --db "$dir/crash.db" --max-per-address 0 --games-per-minute 0 \
        --engine-threads 1 >"$dir/out" 2>>"$dir/err" &
    pid=$!
    i=0
    until grep -q 'Damier is at' "$dir/out"; do
        i=$((i + 1))
        if [ $i -gt 300 ] || ! kill -0 $pid 2>/dev/null; then
            echo "FAIL: the server did not start:"; cat "$dir/err"; exit 1
        fi
        sleep 0.1
    done
    url=$(sed -n 's/^Damier is at \(http:[^ ]*\)\/$/\1/p' "$dir/out")
}

start
node "$root/tools/load/load.mjs" --url "$url" --games 40 --seconds 120 --think 20-200 --ramp 1 \
    --log "$dir/acks.jsonl" >"$dir/load.out" 2>&1 &
load=$!
# The moves acknowledged so far (each a line the load tool writes whole).
acked() { cat "$dir/acks.jsonl" 2>/dev/null | grep -c '"move"'; }
i=0
while [ "$(acked)" -lt 20 ] && [ $i -lt 600 ] && kill -0 $load 2>/dev/null; do
    i=$((i + 1))
    sleep 0.1
done
kill -9 $pid # in the middle: 40 games moving
wait $pid 2>/dev/null
kill $load 2>/dev/null # its errors after the kill are expected
wait $load 2>/dev/null
acks=$(acked)
if [ "$acks" -lt 10 ]; then
    echo "FAIL: only $acks moves acknowledged before the kill:"; cat "$dir/load.out"; exit 1
fi
start
if ! node "$root/tools/load/verify.mjs" --url "$url" --log "$dir/acks.jsonl"; then
    echo "FAIL: acknowledged moves lost by kill -9, or games that cannot go on"; exit 1
fi
# Every game the log holds, and perhaps one whose creation was stored but
# not yet answered when the server died.
games=$(grep -c '"ply":0' "$dir/acks.jsonl")
resumed=$(sed -n 's/^resumed \([0-9]*\) unfinished game.*/\1/p' "$dir/out")
[ "${resumed:-0}" -ge "$games" ] ||
    { echo "FAIL: the restarted server resumed ${resumed:-no} games of $games:"; cat "$dir/out"; exit 1; }
kill $pid
wait $pid || { echo "FAIL: the server did not stop cleanly"; exit 1; }
pid=
echo "$0: $acks acknowledged moves before kill -9, all there after the restart"
