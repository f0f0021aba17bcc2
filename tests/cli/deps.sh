#!/bin/sh
# SPDX-License-Identifier: MIT
# deps.sh - make run installs only what running needs, make check what the
# tests need on top (tools/deps.sh run | check).
. "$(dirname "$0")/common.inc"

run_pkgs=$(tools/deps.sh list-run)
check_pkgs=$(tools/deps.sh list-check)
# The server's -dev libraries belong to both sets: make run builds and starts it.
for pkg in build-essential pkg-config libwebsockets-dev libjansson-dev libsqlite3-dev; do
    echo " $run_pkgs " | grep -q " $pkg " || fail "tools/deps.sh run does not install $pkg"
done
for pkg in libcmocka-dev tmux; do
    echo " $run_pkgs " | grep -q " $pkg " && fail "tools/deps.sh run installs the test package $pkg"
done
for pkg in build-essential libwebsockets-dev libjansson-dev libsqlite3-dev libcmocka-dev tmux; do
    echo " $check_pkgs " | grep -q " $pkg " || fail "tools/deps.sh check does not install $pkg"
done
tools/deps.sh nonsense >/dev/null 2>&1
[ $? -eq 2 ] || fail "tools/deps.sh nonsense: not exit 2"

# make -n prints what make would run: run asks for the run set only.
make -n run >"$tmp/run" 2>&1 || fail "make -n run failed: $(cat "$tmp/run")"
grep -q 'tools/deps.sh run' "$tmp/run" || fail "make run does not run tools/deps.sh run"
grep -q 'tools/deps.sh check' "$tmp/run" && fail "make run installs the test packages"
make -n deps-check >"$tmp/check" 2>&1
grep -q 'tools/deps.sh check' "$tmp/check" || fail "make deps-check does not run tools/deps.sh check"
grep -q '^check: deps-check' Makefile || fail "make check does not depend on deps-check"
grep -q '^check-asan: deps-check' Makefile || fail "make check-asan does not depend on deps-check"

finish
