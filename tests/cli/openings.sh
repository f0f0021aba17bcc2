#!/bin/sh
# SPDX-License-Identifier: MIT
# openings.sh - damier openings: a set balanced by the search alone, one
# also tested by games (--results) on a small case that damier match then
# reads, a limit of walks reached with its message, and bad values refused.
. "$(dirname "$0")/common.inc"

# lines FILE: how many openings FILE holds (not comments).
lines() {
    grep -vc '^#' "$1"
}

run openings --variant one-way --count 2 --plies 8
[ "$rc" -eq 0 ] || fail "openings: exit $rc: $(cat "$tmp/err")"
[ "$(lines "$tmp/out")" -eq 2 ] || fail "openings: not 2 openings: $(cat "$tmp/out")"
grep -q '^#   damier openings --variant one-way --count 2 --plies 8 --seed 1$' "$tmp/out" ||
    fail "openings: the header does not give the command: $(cat "$tmp/out")"
grep -v '^#' "$tmp/out" >"$tmp/plain"

# With games: a band that keeps everything keeps the same walks, each
# played out (a line on stderr), the set ending with White's score.
run openings --variant one-way --count 2 --plies 8 --results 3 --game-nodes 1000 --band 0-100
[ "$rc" -eq 0 ] || fail "openings --results: exit $rc: $(cat "$tmp/err")"
grep -v '^#' "$tmp/out" | cmp -s - "$tmp/plain" ||
    fail "openings --results, band 0-100: not the walks of the search alone: $(cat "$tmp/out")"
grep -q '^#   damier openings --variant one-way --count 2 --plies 8 --seed 1 --results 3 --game-nodes 1000 --band 0-100$' \
    "$tmp/out" || fail "openings --results: the header does not give the command: $(cat "$tmp/out")"
grep -q '^# White scored [0-9.]*% in the 6 games of the kept openings ([0-9]*-[0-9]*-[0-9]*, W-D-L)\.$' \
    "$tmp/out" || fail "openings --results: no closing score: $(cat "$tmp/out")"
[ "$(grep -c '^openings: walk [0-9]*, .*: White [0-9]*-[0-9]*-[0-9]* (W-D-L) in 3 games, kept' "$tmp/err")" -eq 2 ] ||
    fail "openings --results: not a line per walk played out: $(cat "$tmp/err")"
cp "$tmp/out" "$tmp/set.txt"
run match --engine 'damier level=1' --engine 'damier level=2' --variant one-way --games 2 \
    --nodes 300 --openings "$tmp/set.txt"
[ "$rc" -eq 0 ] || fail "match from a set made with --results: exit $rc: $(cat "$tmp/out")"

# A band no score of three games reaches (they go in sixths): nothing
# found, and it stops after --tries walks for each opening, saying so.
run openings --variant one-way --count 2 --plies 8 --results 3 --game-nodes 1000 --band 40-45 \
    --tries 5
[ "$rc" -eq 1 ] || fail "openings, nothing found: exit $rc, expected 1"
grep -q 'openings: 0 of 2 found: stopped after 10 walks (--tries 5 for each opening wanted);.* with White within 40%-45%' \
    "$tmp/err" || fail "openings, nothing found: no clear message: $(cat "$tmp/err")"

# Bad values: exit 2, the option named.
bad() {
    what=$1
    shift
    run openings --variant one-way "$@"
    [ "$rc" -eq 2 ] || fail "openings $*: exit $rc, expected 2"
    grep -q -- "$what" "$tmp/err" || fail "openings $*: the error does not name $what: $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "openings $*: wrote a set: $(cat "$tmp/out")"
}
bad --results --results 0
bad --results --results x
bad --results --results
bad --results --results 2.5x
bad --game-nodes --results 2 --game-nodes 0
bad --game-nodes --results 2 --game-nodes many
bad --band --results 2 --band 75-25
bad --band --results 2 --band 0-101
bad --band --results 2 --band 50
bad --band --results 2 --band 25-75%
bad --band --results 2 --band -10-50
bad --tries --tries 0
bad --tries --tries 10001
bad 'need --results' --band 25-75
bad 'need --results' --game-nodes 5000
run openings --results 2
[ "$rc" -eq 2 ] || fail "openings without --variant: exit $rc, expected 2"
grep -q 'needs --variant' "$tmp/err" || fail "openings without --variant: $(cat "$tmp/err")"

finish
