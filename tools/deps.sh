#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages Damier needs, when missing:
#   tools/deps.sh run     what building and running need (make run)
#   tools/deps.sh check   that and what the tests need (make check)
# The terminal game needs nothing at run time beyond libc and a terminal;
# the web server (damier serve, what make run starts) needs libwebsockets,
# jansson, SQLite, libpq (its PostgreSQL store) and hiredis (the Redis bus
# between nodes), zlib (the endgame tables, src/egdb) and pkg-config to find
# their flags.  The tests run the
# PostgreSQL store and the bus on throwaway servers of their own
# (tools/pg-test.sh, tools/redis-test.sh), hence postgresql and
# redis-server in the check set: only their programs are used, never the
# system's cluster or Redis.
set -e
run_pkgs="build-essential pkg-config zlib1g-dev libwebsockets-dev libjansson-dev libsqlite3-dev libpq-dev libhiredis-dev"
check_pkgs="$run_pkgs libcmocka-dev tmux postgresql redis-server"
case ${1:-check} in
run) pkgs=$run_pkgs ;;
check) pkgs=$check_pkgs ;;
list-run) echo "$run_pkgs"; exit 0 ;;
list-check) echo "$check_pkgs"; exit 0 ;;
*)
    echo "usage: tools/deps.sh run|check|list-run|list-check" >&2
    exit 2
    ;;
esac
missing=""
for pkg in $pkgs; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $pkg"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
