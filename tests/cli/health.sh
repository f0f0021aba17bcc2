#!/bin/sh
# SPDX-License-Identifier: MIT
# health.sh - the load balancer's probes (docs/api.md, "Health"): /healthz
# answers while the process runs, /readyz while its store answers too; on
# SQLite, and on PostgreSQL (a throwaway server, tools/pg-test.sh) where
# the database is then closed to the server: /readyz turns 503 with a JSON
# error, /healthz stays 200, and both come back when the database does.
. "$(dirname "$0")/common.inc"
root=$(cd "$(dirname "$0")/../.." && pwd)

# http PORT METHOD PATH: "STATUS BODY" on one line.
http() {
    perl -MIO::Socket::INET -e '
        my ($port, $method, $path) = @ARGV;
        my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1:$port", Timeout => 10)
            or die "connect: $!\n";
        print $s "$method $path HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n";
        my $head = "";
        while (my $line = <$s>) { last if $line eq "\r\n"; $head .= $line }
        my ($status) = $head =~ m{^HTTP/1\.1 (\d+)};
        my ($len) = $head =~ m{content-length: *(\d+)}i;
        my $body = "";
        read($s, $body, $len // 0);
        print(($status // "none"), " $body\n");' "$@"
}

# expect PORT METHOD PATH STATUS BODY: the answer, exactly.
expect() {
    got=$(http "$1" "$2" "$3")
    [ "$got" = "$4 $5" ] || fail "$2 $3: '$got', expected '$4 $5'"
}

# serve DB: damier serve on DB in the background: $pid and $port.
serve() {
    "$DAMIER_BIN" serve --listen 127.0.0.1:0 --db "$1" --web "$tmp/no-web" \
        >"$tmp/serve.out" 2>"$tmp/serve.err" &
    pid=$!
    for _ in $(seq 300); do
        port=$(sed -n 's|^Damier is at http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$tmp/serve.out")
        [ -n "$port" ] && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    fail "damier serve --db $1 did not start: $(cat "$tmp/serve.err")"
    return 1
}

stop_serve() {
    kill "$pid" && wait "$pid" || fail "damier serve did not stop cleanly"
}

if serve "$tmp/games.db"; then
    expect "$port" GET /healthz 200 '{"status":"up","store":"sqlite","games":0}'
    expect "$port" GET /readyz 200 '{"status":"ready","store":"sqlite","games":0}'
    expect "$port" POST /readyz 405 '{"error":"POST is for /api/ paths"}'
    stop_serve
fi

# PostgreSQL: CI installs it (tools/deps.sh check) and sets DAMIER_REQUIRE_PG.
pg=$(mktemp -d /tmp/damier-pg-XXXXXX) # not in $tmp: the postgres user must reach it
url=$("$root/tools/pg-test.sh" start "$pg")
case $? in
0) ;;
77)
    [ -n "${DAMIER_REQUIRE_PG:-}" ] && fail "no PostgreSQL server programs, and DAMIER_REQUIRE_PG is set"
    rm -rf "$pg"
    echo "$0: SKIP: the PostgreSQL half: no PostgreSQL server programs (apt-get install postgresql)"
    finish
    ;;
*) rm -rf "$pg"; fail "tools/pg-test.sh could not start a server"; finish ;;
esac
trap '"$root/tools/pg-test.sh" stop "$pg"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
admin="${url%/damier_test}/postgres"
psql() { command psql -X -q -At "$admin" -c "$1" >/dev/null || fail "psql: $1"; }
if serve "$url"; then
    expect "$port" GET /readyz 200 '{"status":"ready","store":"postgresql","games":0}'
    psql "ALTER DATABASE damier_test ALLOW_CONNECTIONS false"
    psql "SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = 'damier_test'"
    expect "$port" GET /readyz 503 '{"error":"the postgresql database does not answer"}'
    expect "$port" GET /healthz 200 '{"status":"up","store":"postgresql","games":0}'
    grep -q 'readyz: database postgresql://postgres@127.0.0.1:[0-9]*/damier_test: cannot reconnect: .*not currently accepting connections' "$tmp/serve.err" ||
        fail "the failed probe's reason is not logged: $(cat "$tmp/serve.err")"
    psql "ALTER DATABASE damier_test ALLOW_CONNECTIONS true"
    expect "$port" GET /readyz 200 '{"status":"ready","store":"postgresql","games":0}'
    stop_serve
fi
finish
