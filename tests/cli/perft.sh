#!/bin/sh
# SPDX-License-Identifier: MIT
# perft.sh - "damier perft": the published counts (dctl's perft tests,
# tests/perft/) for small
# depths, the flags, and --divide lines that add up to the total.
. "$(dirname "$0")/common.inc"

# total: the node count of the closing "perft D: N nodes ..." line.
total() {
    sed -n 's/^perft [0-9]*: \([0-9]*\) nodes.*/\1/p' "$tmp/out"
}

# expect_count N ARGS...: damier perft ARGS counts N.
expect_count() {
    want=$1
    shift
    run perft "$@"
    [ "$rc" -eq 0 ] || fail "damier perft $*: exit $rc: $(cat "$tmp/err")"
    got=$(total)
    [ "$got" = "$want" ] || fail "damier perft $*: expected $want nodes, got '$got'"
}

expect_count 1469 --variant english 4
expect_count 1469 --variant russian 4
expect_count 658 --variant international 3
expect_count 658 --variant international --reference 3
expect_count 1222 --variant canadian 3
# Frisian depth 4 counts 3874 with duplicate routes merged, 3880 kept.
expect_count 3874 --variant frisian 4
expect_count 3880 --variant frisian --keep-duplicates 4
# Woldouby's position in Killer (dctl's perft tests).
expect_count 73 --variant killer --fen 'W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38' 4
# Depth 0 is the position itself.
expect_count 1 --variant english 0

# --divide: one line per legal move (7 from the English start), whose counts
# add up to the total, which is the perft count (302 at depth 3).
run perft --variant english --divide 3
[ "$rc" -eq 0 ] || fail "perft --divide: exit $rc: $(cat "$tmp/err")"
grep -v '^perft ' "$tmp/out" >"$tmp/lines"
[ "$(wc -l <"$tmp/lines")" -eq 7 ] || fail "perft --divide 3: expected 7 move lines, got: $(cat "$tmp/lines")"
sum=$(awk '{ s += $NF } END { print s }' "$tmp/lines")
[ "$sum" = "$(total)" ] || fail "perft --divide 3: the lines add up to $sum, the total is $(total)"
[ "$(total)" = 302 ] || fail "perft --divide 3: total $(total), expected 302"
grep -q '^9-13 ' "$tmp/lines" || fail "perft --divide 3: no line for 9-13"

finish
