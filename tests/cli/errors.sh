#!/bin/sh
# SPDX-License-Identifier: MIT
# errors.sh - bad input to damier: one line on stderr naming the offending
# token, nothing on stdout, a non-zero exit status.
. "$(dirname "$0")/common.inc"

# expect_error TOKEN ARGS...: damier ARGS fails with one stderr line
# containing TOKEN.
expect_error() {
    token=$1
    shift
    run "$@"
    what="damier $*"
    [ "$rc" -ne 0 ] || fail "$what: exit status 0"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: expected one error line, got: $(cat "$tmp/err")"
    grep -qF -- "$token" "$tmp/err" || fail "$what: the error does not name '$token': $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "$what: wrote to stdout: $(cat "$tmp/out")"
}

expect_error nosuch moves --variant nosuch --fen 'W:W31:B1'
expect_error nosuch perft --variant nosuch 3
expect_error "3#" moves --variant international --fen 'W:W31,3#:B1'
expect_error "j1" moves --variant russian --fen 'W:Wj1:Bb8'
expect_error "51" perft --variant international --fen 'W:W51:B1' 2
expect_error depth perft --variant english
expect_error abc perft --variant english abc
expect_error --bogus perft --variant english --bogus 3
expect_error --bogus moves --variant english --bogus
expect_error --fen moves --variant english --fen
expect_error extra moves --variant english extra

# An unknown command: non-zero, named (the usage may follow).
run frobnicate
[ "$rc" -ne 0 ] || fail "damier frobnicate: exit status 0"
grep -q frobnicate "$tmp/err" || fail "damier frobnicate: not named: $(cat "$tmp/err")"

finish
