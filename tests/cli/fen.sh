#!/bin/sh
# SPDX-License-Identifier: MIT
# fen.sh - positions the commands take and refuse: a square off the board,
# a square twice, a man on its promotion squares, or a side with more pieces
# than the start position gives it are refused, naming the square or the
# count and why.
. "$(dirname "$0")/common.inc"

total() {
    sed -n 's/^perft [0-9]*: \([0-9]*\) nodes.*/\1/p' "$tmp/out"
}

# Thai from its start and English checkers from the same 8-man set-up: for
# 7 plies no man reaches a king's row and every capture is a man's forward
# jump, under the same rules in both, so the counts agree (English's are
# checked against published perft).
thai='W:Wa1,c1,e1,g1,b2,d2,f2,h2:Ba7,c7,e7,g7,b8,d8,f8,h8'
run perft --variant thai 7
[ "$rc" -eq 0 ] || fail "perft thai 7: exit $rc: $(cat "$tmp/err")"
[ "$(total)" = 1820189 ] || fail "perft thai, 7: $(total), expected 1820189"
run perft --variant english --fen "$thai" 7
[ "$(total)" = 1820189 ] || fail "perft english from Thai's set-up, 7: $(total), expected 1820189"
run perft --variant thai --fen "$thai" --reference 6
[ "$(total)" = 218695 ] || fail "perft thai, --reference 6: $(total), expected 218695"

# A full International set-up, 20 a side, and a side of 20 kings.
run moves --variant international --fen 'W:W31-50:B1-20'
[ "$rc" -eq 0 ] || fail "moves, 40 pieces: exit $rc: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out")" -eq 9 ] || fail "moves, the start: $(wc -l <"$tmp/out") lines, expected 9"
run moves --variant international --fen 'W:WK1-10,K41-50:B25'
[ "$rc" -eq 0 ] || fail "moves, 20 kings: exit $rc: $(cat "$tmp/err")"
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
expect_refused "White has 40 pieces" "20 of the start" -- moves --fen 'W:W11-50:B1-10'
expect_refused "Black has 21 pieces" "20 of the start" -- moves --fen 'W:W50:B1-20,K30'
expect_refused "White has 12 pieces" "8 of the start" -- perft --variant thai \
    --fen 'W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8' 6
expect_refused "White has 6 pieces" "5 of the start" -- moves --variant frysk --fen 'W:W41-46:B1'

finish
