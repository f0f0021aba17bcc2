#!/bin/sh
# SPDX-License-Identifier: MIT
# redis-test.sh - a throwaway Redis server for the tests, in a folder of its
# own, on a loopback port: the system's Redis (if any) is never touched,
# and several test runs may each have their own at once.
#
#   tools/redis-test.sh run CMD [ARG...]  start one, run CMD with
#                                         DAMIER_TEST_REDIS set to its URL
#                                         and DAMIER_TEST_REDIS_DIR to its
#                                         folder, stop and remove it; CMD's
#                                         exit status
#   tools/redis-test.sh start DIR         start one in DIR (made if missing);
#                                         prints its URL.  A DIR that had a
#                                         server keeps its port: a restart
#   tools/redis-test.sh kill DIR          kill -9 it, keeping DIR (a crash;
#                                         start DIR brings it back)
#   tools/redis-test.sh stop DIR          stop it and remove DIR
#
# The URL is redis://127.0.0.1:PORT.  Nothing is saved to disk (save "",
# no append-only file): the bus keeps nothing in Redis.
#
# Exit status 77 (and a line saying SKIP) when redis-server is not
# installed (Debian: apt-get install redis-server; tools/deps.sh check
# installs it).
set -u
. "$(dirname "$0")/test-server.inc"

usage() {
    echo "usage: tools/redis-test.sh run CMD [ARG...] | start DIR | kill DIR | stop DIR" >&2
    exit 2
}

have_server() {
    command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1
}

# Whether a server answers on port $1.
answers() {
    [ "$(redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null)" = PONG ]
}

# Starts a server in $1 on port $2; 1 if it did not come up within 5 s.
launch() {
    dir=$1 port=$2
    cat >"$dir/redis.conf" <<EOF
port $port
bind 127.0.0.1
dir $dir
save ""
appendonly no
daemonize no
logfile $dir/redis.log
EOF
    redis-server "$dir/redis.conf" </dev/null >/dev/null 2>&1 &
    echo $! >"$dir/pid"
    i=0
    while [ "$i" -lt 50 ]; do
        answers "$port" && return 0
        kill -0 "$(cat "$dir/pid")" 2>/dev/null || return 1
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# Starts a server in $1 (its old port if it had one) and prints its URL.
start() {
    dir=$1
    mkdir -p "$dir" || return 1
    dir=$(cd "$dir" && pwd)
    if [ -f "$dir/port" ]; then
        port=$(cat "$dir/port")
        launch "$dir" "$port" || { echo "redis-test: cannot restart on port $port:" >&2; tail -n 5 "$dir/redis.log" >&2; return 1; }
    else
        # A port nobody listens on: a few random tries.
        tries=0
        while :; do
            port=$(random_port)
            if ! answers "$port" && launch "$dir" "$port"; then
                break
            fi
            tries=$((tries + 1))
            if [ "$tries" -ge 5 ]; then
                echo "redis-test: the server did not start:" >&2
                tail -n 5 "$dir/redis.log" >&2
                return 1
            fi
        done
        echo "$port" >"$dir/port"
    fi
    echo "redis://127.0.0.1:$port"
}

# kill -9 of the server in $1, waiting until it is gone.
crash() {
    dir=$1
    [ -f "$dir/pid" ] || return 0
    pid=$(cat "$dir/pid")
    kill -9 "$pid" 2>/dev/null
    i=0
    while kill -0 "$pid" 2>/dev/null && [ "$i" -lt 50 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    rm -f "$dir/pid"
}

stop() {
    dir=$1
    [ -d "$dir" ] || return 0
    crash "$dir"
    rm -rf "$dir"
}

# The run command's: CMD with the server's variables.
with_server() {
    server_url=$1 server_dir=$2
    shift 2
    DAMIER_TEST_REDIS=$server_url DAMIER_TEST_REDIS_DIR=$server_dir "$@"
}

[ $# -ge 1 ] || usage
case $1 in
run)
    shift
    [ $# -ge 1 ] || usage
    if ! have_server; then
        echo "redis-test: SKIP: no redis-server (Debian: apt-get install redis-server)"
        exit 77
    fi
    run_throwaway damier-redis "$@"
    ;;
start)
    [ $# -eq 2 ] || usage
    have_server || { echo "redis-test: SKIP: no redis-server" >&2; exit 77; }
    start "$2"
    ;;
kill)
    [ $# -eq 2 ] || usage
    crash "$2"
    ;;
stop)
    [ $# -eq 2 ] || usage
    stop "$2"
    ;;
*) usage ;;
esac
