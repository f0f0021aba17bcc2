#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/load/run.sh - a load run on a server of its own: damier serve on a
# fresh database in a temporary folder (loopback, any free port, no limit
# of connections per address, of games or of new games a minute, the fd
# limit raised for thousands of sockets), tools/load/load.mjs against it
# with --server-pid, then the server stopped.  The options are load.mjs's
# (--games, --seconds, ...), after:
#   --nodes N   N nodes of one service instead (docs/deploy.md, "Several
#               nodes"): a throwaway PostgreSQL and Redis (tools/pg-test.sh,
#               tools/redis-test.sh), N `serve --node` processes, load.mjs
#               sending each request and socket to the next node in turn
#               and summing their memory.
#   tools/load/run.sh --games 5000 --seconds 600
#   tools/load/run.sh --nodes 3 --games 2000 --seconds 120
# DAMIER_BIN names the binary (default build/damier).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${DAMIER_BIN:-$root/build/damier}
[ -x "$bin" ] || { echo "load: no $bin (make first)" >&2; exit 2; }
nodes=0
if [ "${1:-}" = --nodes ]; then
    nodes=${2:-}
    case $nodes in '' | *[!0-9]* | 0) echo "load: --nodes is a number from 1" >&2; exit 2 ;; esac
    shift 2
fi
[ -d "$root/tools/load/node_modules/ws" ] ||
    (cd "$root/tools/load" && npm ci --no-audit --no-fund >/dev/null) ||
    { echo "load: npm ci in tools/load failed" >&2; exit 2; }
# Two sockets a game on each side, and some room.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
dir=$(mktemp -d /tmp/damier-load-XXXXXX)
# The servers' pids, from the files start leaves (it runs in a subshell).
pids() { cat "$dir"/*.pid 2>/dev/null; }
cleanup() {
    for pid in $(pids); do kill "$pid" 2>/dev/null; done
    for pid in $(pids); do while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done; done
    [ -d "$dir/pg" ] && "$root/tools/pg-test.sh" stop "$dir/pg"
    [ -d "$dir/redis" ] && "$root/tools/redis-test.sh" stop "$dir/redis"
    rm -rf "$dir"
}
trap cleanup EXIT
limits="--max-per-address 0 --max-games 0 --games-per-minute 0"

# start NAME ARGS...: a server whose output goes to $dir/NAME.*; its URL.
start() {
    name=$1
    shift
    "$bin" serve --listen 127.0.0.1:0 $limits "$@" >"$dir/$name.out" 2>"$dir/$name.err" &
    pid=$!
    echo $pid >"$dir/$name.pid"
    i=0
    until grep -q 'Damier is at' "$dir/$name.out" 2>/dev/null; do
        i=$((i + 1))
        [ $i -lt 100 ] && kill -0 $pid 2>/dev/null || { echo "load: server $name did not start:" >&2; cat "$dir/$name.err" >&2; exit 1; }
        sleep 0.1
    done
    sed -n 's/^Damier is at \(http:[^ ]*\)\/$/\1/p' "$dir/$name.out"
}

if [ "$nodes" -eq 0 ]; then
    urls=$(start one --db "$dir/load.db")
else
    chmod 755 "$dir" # the postgres user reaches $dir/pg
    pg=$("$root/tools/pg-test.sh" start "$dir/pg")
    redis=$("$root/tools/redis-test.sh" start "$dir/redis")
    urls=
    n=1
    while [ $n -le "$nodes" ]; do
        url=$(start "node$n" --db "$pg" --node "node$n" --redis "$redis")
        urls=${urls:+$urls,}$url
        n=$((n + 1))
    done
fi
pidlist=$(echo $(pids) | tr ' ' ',')
echo "load: server(s) $pidlist at $urls, fd limit $(ulimit -n), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
rc=0
node "$root/tools/load/load.mjs" --url "$urls" --server-pid "$pidlist" "$@" || rc=$?
echo "load: load average $(cut -d' ' -f1-3 /proc/loadavg); server stderr: $(cat "$dir"/*.err | wc -l) lines" >&2
for pid in $(pids); do kill -0 "$pid" 2>/dev/null || { echo "load: server $pid died" >&2; rc=1; }; done
exit $rc
