#!/bin/sh
# SPDX-License-Identifier: MIT
# fen.sh - positions the commands take and refuse: more men than the start
# position has are fine (board editors, problem collections, published
# perft from other set-ups); a square off the board, a square twice or a
# man on its promotion squares are refused, naming the square and why.
. "$(dirname "$0")/common.inc"

total() {
    sed -n 's/^perft [0-9]*: \([0-9]*\) nodes.*/\1/p' "$tmp/out"
}

# Thai from the 12-man checkers set-up (Thai starts with 8 men a side).
# For 6 plies no man can reach a king's row and every capture is a single
# forward jump, so the count is checkers' published perft(6), 36768 (OEIS
# A133046), with the fast kernel and with the reference generator.
thai12='W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8'
run perft --variant thai --fen "$thai12" 6
[ "$rc" -eq 0 ] || fail "perft thai, 12 men: exit $rc: $(cat "$tmp/err")"
[ "$(total)" = 36768 ] || fail "perft thai, 12 men, 6: $(total), expected 36768"
run perft --variant thai --fen "$thai12" --reference 5
[ "$(total)" = 7361 ] || fail "perft thai, 12 men, --reference 5: $(total), expected 7361"

# 40 white men against 10 in International: 50 pieces on 50 squares.
run moves --variant international --fen 'W:W11-50:B1-10'
[ "$rc" -eq 0 ] || fail "moves, 50 pieces: exit $rc: $(cat "$tmp/err")"
[ -s "$tmp/out" ] && fail "moves, a full board: expected no move, got: $(cat "$tmp/out")"
# Corner checkers crowns White only on a7 and b8: d8 holds a man.
run moves --variant corner --fen 'W:Wd8:Bc1'
[ "$rc" -eq 0 ] || fail "moves, corner, a man on d8: exit $rc: $(cat "$tmp/err")"

# expect_refused WORD... -- ARGS: exit 1, stderr holds each WORD.
expect_refused() {
    words=""
    while [ "$1" != -- ]; do
        words="$words|$1"
        shift
    done
    shift
    run "$@"
    [ "$rc" -eq 1 ] || fail "damier $*: exit $rc, expected 1"
    echo "${words#|}" | tr '|' '\n' | while read -r w; do
        grep -qF -- "$w" "$tmp/err" || echo "missing: $w"
    done >"$tmp/missing"
    [ -s "$tmp/missing" ] && fail "damier $*: $(cat "$tmp/missing") in: $(cat "$tmp/err")"
}
expect_refused "'51'" "does not exist" -- moves --fen 'W:W51:B1'
expect_refused "'31'" "given twice" -- moves --fen 'W:W31:B31'
expect_refused "'1-6'" "given twice" -- perft --fen 'W:W6-50:B1-6' 1
expect_refused "on 3 " "promotion row" -- moves --fen 'W:W3:B20'
expect_refused "on b8 " "promotion row" -- moves --variant corner --fen 'W:Wb8:Bc1'

finish
