#!/bin/sh
# SPDX-License-Identifier: MIT
# pg-test.sh - a throwaway PostgreSQL server for the tests, in a folder of
# its own, on a loopback port and a socket in that folder: the system's
# clusters (pg_lsclusters) are never touched, and several test runs may
# each have their own at once.
#
#   tools/pg-test.sh run CMD [ARG...]  start one, run CMD with DAMIER_TEST_PG
#                                      set to its URL, stop and remove it;
#                                      CMD's exit status
#   tools/pg-test.sh start DIR         start one in the empty folder DIR (made
#                                      if missing; as root, the folders above
#                                      it open to the postgres user: /tmp/X,
#                                      not in a mktemp -d folder); prints its URL
#   tools/pg-test.sh stop DIR          stop it and remove DIR
#
# The URL is postgresql://postgres:PASSWORD@127.0.0.1:PORT/damier_test, a
# fresh database whose superuser logs in with a password over TCP (so a
# wrong one is refused, as in production) and without one on the socket.
# PostgreSQL refuses to run as root: as root the server runs as the
# postgres user (the postgresql package makes it).  fsync is off: the tests
# kill damier, never this server, so its commits need not reach the disk.
#
# Exit status 77 (and a line saying SKIP) when PostgreSQL's server programs
# are not installed (Debian: apt-get install postgresql; tools/deps.sh
# check installs it).
set -u
. "$(dirname "$0")/test-server.inc"

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$bindir" ] || bindir=$(dirname "$(command -v initdb 2>/dev/null || echo /none/initdb)")

usage() {
    echo "usage: tools/pg-test.sh run CMD [ARG...] | start DIR | stop DIR" >&2
    exit 2
}

have_server() {
    [ -x "$bindir/initdb" ] && [ -x "$bindir/pg_ctl" ] && [ -x "$bindir/postgres" ]
}

# Runs a command as the user the server runs as.
as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

# Starts a server in $1 and prints its URL; 1 with the log on failure.
start() {
    dir=$1
    mkdir -p "$dir" || return 1
    dir=$(cd "$dir" && pwd)
    password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
    printf '%s\n' "$password" >"$dir/password"
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || { echo "pg-test: no postgres user to run the server as" >&2; return 1; }
        chown postgres "$dir" "$dir/password"
    fi
    chmod 700 "$dir"
    chmod 600 "$dir/password"
    as_owner test -r "$dir/password" ||
        { echo "pg-test: the postgres user cannot reach $dir (a folder above it is closed)" >&2; return 1; }
    if ! as_owner "$bindir/initdb" -D "$dir/data" -U postgres --pwfile="$dir/password" \
        --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 -N \
        >"$dir/initdb.log" 2>&1; then
        echo "pg-test: initdb failed:" >&2
        cat "$dir/initdb.log" >&2
        return 1
    fi
    # A port nobody listens on: a few random tries, pg_ctl failing on a taken one.
    tries=0
    while :; do
        port=$(random_port)
        if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
            -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40 -c shared_buffers=16MB" \
            start >/dev/null 2>&1; then
            break
        fi
        tries=$((tries + 1))
        if [ "$tries" -ge 5 ]; then
            echo "pg-test: the server did not start:" >&2
            tail -n 20 "$dir/server.log" >&2
            return 1
        fi
    done
    echo "$port" >"$dir/port"
    as_owner "$bindir/psql" -X -q -h "$dir" -p "$port" -U postgres -d postgres \
        -c "CREATE DATABASE damier_test" >/dev/null || return 1
    echo "postgresql://postgres:$password@127.0.0.1:$port/damier_test"
}

stop() {
    dir=$1
    [ -d "$dir" ] || return 0
    if [ -f "$dir/data/postmaster.pid" ]; then
        as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1
    fi
    rm -rf "$dir"
}

# The run command's: CMD with the server's variables.
with_server() {
    server_url=$1 server_dir=$2
    shift 2
    DAMIER_TEST_PG=$server_url "$@"
}

[ $# -ge 1 ] || usage
case $1 in
run)
    shift
    [ $# -ge 1 ] || usage
    if ! have_server; then
        echo "pg-test: SKIP: no PostgreSQL server programs (Debian: apt-get install postgresql)"
        exit 77
    fi
    run_throwaway damier-pg "$@"
    ;;
start)
    [ $# -eq 2 ] || usage
    have_server || { echo "pg-test: SKIP: no PostgreSQL server programs" >&2; exit 77; }
    start "$2"
    ;;
stop)
    [ $# -eq 2 ] || usage
    stop "$2"
    ;;
*) usage ;;
esac
