#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages Damier needs, when missing:
#   tools/deps.sh run     what building and running need (make run)
#   tools/deps.sh check   that and what the tests need (make check)
# The terminal game needs nothing at run time beyond libc and a terminal;
# the web server (damier serve, what make run starts) needs libwebsockets,
# jansson, SQLite and libpq (its PostgreSQL store), and pkg-config to find
# their flags.  The tests run the PostgreSQL store on a throwaway server of
# their own (tools/pg-test.sh), hence postgresql in the check set: only its
# programs are used, never the system's cluster.
set -e
run_pkgs="build-essential pkg-config libwebsockets-dev libjansson-dev libsqlite3-dev libpq-dev"
check_pkgs="$run_pkgs libcmocka-dev tmux postgresql"
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
