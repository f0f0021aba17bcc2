#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/load/run.sh - a load run on a server of its own: damier serve on a
# fresh database in a temporary folder (loopback, any free port, no limit
# of connections per address, of games or of new games a minute, the fd
# limit raised for thousands of sockets), tools/load/load.mjs against it with --server-pid, then the
# server stopped.  The options are load.mjs's (--games, --seconds, ...).
#   tools/load/run.sh --games 5000 --seconds 600
# DAMIER_BIN names the binary (default build/damier).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${DAMIER_BIN:-$root/build/damier}
[ -x "$bin" ] || { echo "load: no $bin (make first)" >&2; exit 2; }
[ -d "$root/tools/load/node_modules/ws" ] ||
    (cd "$root/tools/load" && npm ci --no-audit --no-fund >/dev/null) ||
    { echo "load: npm ci in tools/load failed" >&2; exit 2; }
# Two sockets a game on each side, and some room.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"
dir=$(mktemp -d /tmp/damier-load-XXXXXX)
"$bin" serve --listen 127.0.0.1:0 --db "$dir/load.db" --max-per-address 0 --max-games 0 --games-per-minute 0 >"$dir/out" 2>"$dir/err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
i=0
until grep -q 'Damier is at' "$dir/out" 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 100 ] && kill -0 $pid 2>/dev/null || { echo "load: the server did not start:" >&2; cat "$dir/err" >&2; exit 1; }
    sleep 0.1
done
url=$(sed -n 's/^Damier is at \(http:[^ ]*\)\/$/\1/p' "$dir/out")
echo "load: server $pid at $url, fd limit $(ulimit -n), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
rc=0
node "$root/tools/load/load.mjs" --url "$url" --server-pid $pid "$@" || rc=$?
echo "load: load average $(cut -d' ' -f1-3 /proc/loadavg); server stderr: $(wc -l <"$dir/err") lines" >&2
kill -0 $pid 2>/dev/null || { echo "load: the server died" >&2; rc=1; }
exit $rc
