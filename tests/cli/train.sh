#!/bin/sh
# SPDX-License-Identifier: MIT
# train.sh - a smoke run of the trainer (tools/train/train.c): a few
# self-play games at a small node budget, resumed, an unfinished game cut
# off, a fit of a few epochs and the weight file it writes, the same games
# for a seed and others for another.
. "$(dirname "$0")/common.inc"

TRAIN="$(dirname "$DAMIER_BIN")/damier-train"
[ -x "$TRAIN" ] || { fail "no $TRAIN (make $TRAIN)"; finish; }
cache="$tmp/cache"

"$TRAIN" --variant english --games 2 --nodes 300 --cache "$cache" --out "$tmp/w.dmw" \
    --epochs 3 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] || fail "first run: $(cat "$tmp/err")"
grep -q '^self-play: 0 games there, playing 2 more at 300 nodes a move$' "$tmp/out" ||
    fail "first run: no self-play line: $(cat "$tmp/out")"
grep -q '^data: 2 games' "$tmp/out" || fail "first run: not 2 games: $(cat "$tmp/out")"
head -c 400 "$tmp/w.dmw" | grep -q '^variant english$' || fail "weight file: no variant line"
head -c 400 "$tmp/w.dmw" | grep -q '^games 2$' || fail "weight file: no games line"
head -c 400 "$tmp/w.dmw" | grep -q '^base hand$' || fail "weight file: no base line"

# Resumed: two games are there, one more is played.
printf 'half a record' >>"$cache/english.pos"
"$TRAIN" --variant english --games 3 --nodes 300 --cache "$cache" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] || fail "resumed run: $(cat "$tmp/err")"
grep -q '^self-play: 2 games there, playing 1 more' "$tmp/out" ||
    fail "resumed run: $(cat "$tmp/out")"
grep -q '^data: 3 games' "$tmp/out" || fail "resumed run: not 3 games: $(cat "$tmp/out")"

# The hand-set weights tuned on those games: the loss never rises.
"$TRAIN" --variant english --games 3 --cache "$cache" --tune-hand --fit-only >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] || fail "tune: $(cat "$tmp/err")"
grep -q '^tuning the hand-set weights on 3 games' "$tmp/out" || fail "tune: $(cat "$tmp/out")"
grep -q '^tuned: man 100 para 100 king [0-9]* advance -\{0,1\}[0-9]* ' "$tmp/out" ||
    fail "tune: no tuned weights: $(cat "$tmp/out")"
awk '/^scale/ { first = $4 + 0 } /^pass/ { last = $4 + 0 }
     END { exit !(first > 0 && last > 0 && last <= first) }' "$tmp/out" ||
    fail "tune: the loss rose: $(cat "$tmp/out")"

# Tuned against 200-node searches of the positions instead of the results:
# a label a position (two bytes each), kept and read back by the next run;
# the same labels from two threads.
"$TRAIN" --variant english --games 3 --cache "$cache" --tune-hand --label-nodes 200 \
    --lambda 0.25 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] || fail "tune by searches: $(cat "$tmp/err")"
positions=$(sed -n 's/^tuning the hand-set weights on 3 games, \([0-9]*\) positions, labelled by searches$/\1/p' "$tmp/out")
[ -n "$positions" ] || fail "tune by searches: $(cat "$tmp/out")"
grep -q "^labelling $positions positions by 200-node searches (0 done before), 1 thread$" "$tmp/out" ||
    fail "tune by searches: no labelling line: $(cat "$tmp/out")"
[ "$(wc -c <"$cache/english.lab-200")" -eq $((2 * positions)) ] ||
    fail "labels: $(wc -c <"$cache/english.lab-200") bytes for $positions positions"
cp "$cache/english.lab-200" "$tmp/labels-1"
"$TRAIN" --variant english --games 3 --cache "$cache" --tune-hand --label-nodes 200 >"$tmp/out" 2>&1
grep -q '^labelling' "$tmp/out" && fail "labels made again: $(cat "$tmp/out")"
grep -q '^tuned: ' "$tmp/out" || fail "tune by kept labels: $(cat "$tmp/out")"
rm "$cache/english.lab-200"
"$TRAIN" --variant english --games 3 --cache "$cache" --tune-hand --label-nodes 200 \
    --threads 2 >"$tmp/out" 2>&1 || fail "labels on 2 threads: $(cat "$tmp/out")"
cmp -s "$cache/english.lab-200" "$tmp/labels-1" || fail "2 threads labelled otherwise than 1"

# The window weights fitted against the same kept labels: nothing labelled
# again, and other weights than the fit against the results.
"$TRAIN" --variant english --games 3 --cache "$cache" --fit-only --epochs 3 \
    --out "$tmp/results.dmw" >"$tmp/out" 2>&1 || fail "fit on results: $(cat "$tmp/out")"
"$TRAIN" --variant english --games 3 --cache "$cache" --fit-only --epochs 3 \
    --label-nodes 200 --out "$tmp/searched.dmw" >"$tmp/out" 2>&1 ||
    fail "fit on searches: $(cat "$tmp/out")"
grep -q '^labelling' "$tmp/out" && fail "fit on searches labelled again: $(cat "$tmp/out")"
grep -q "^data: 3 games (.*), $positions positions, labelled by searches$" "$tmp/out" ||
    fail "fit on searches: no data line: $(cat "$tmp/out")"
[ -s "$tmp/searched.dmw" ] || fail "fit on searches: no weight file"
# The weights themselves (after the header, whose command line differs).
weights() { tail -c +$(($(head -c 1000 "$1" | sed -n 's/^data //p') + 1)) "$1"; }
weights "$tmp/results.dmw" >"$tmp/results.w"
weights "$tmp/searched.dmw" >"$tmp/searched.w"
[ -s "$tmp/results.w" ] || fail "no weights after the header of $tmp/results.dmw"
cmp -s "$tmp/results.w" "$tmp/searched.w" && fail "the searches' labels changed no weight"

# Game k is the same game for a seed, another game for another seed.
"$TRAIN" --variant english --games 1 --nodes 300 --cache "$tmp/again" >/dev/null 2>&1 &&
    "$TRAIN" --variant english --games 1 --nodes 300 --cache "$tmp/seeded" --seed 7 \
        >"$tmp/out" 2>&1 || fail "seeded runs: $(cat "$tmp/out")"
grep -q '^self-play: 0 games there, playing 1 more at 300 nodes a move, seed 7$' "$tmp/out" ||
    fail "seeded run: no self-play line with its seed: $(cat "$tmp/out")"
head -c "$(wc -c <"$tmp/again/english.pos")" "$cache/english.pos" >"$tmp/first"
cmp -s "$tmp/first" "$tmp/again/english.pos" || fail "game 1 differs between two runs of seed 0"
cmp -s "$tmp/seeded/english.pos" "$tmp/again/english.pos" && fail "seed 7 played seed 0's game 1"

"$TRAIN" --variant no-such --games 1 >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] || fail "unknown variant: exit $?"
grep -q 'unknown variant no-such' "$tmp/err" || fail "unknown variant: $(cat "$tmp/err")"

finish
