#!/bin/sh
# SPDX-License-Identifier: MIT
# engine_play.sh - the computer player of damier play, and damier bench
# search: whole games between two computers end with a result, a hint
# names a move, a seeded game at a level without time limits replays
# exactly, levels out of range are refused, a draw offer is judged, a timed
# game against the computer is saved with its clocks and loaded back, and
# the search benchmark prints its signature.
. "$(dirname "$0")/common.inc"

# 1. Computer against computer at level 2 finishes the game in several
#    families: short kings, flying kings, giveaway, the full board.
for v in english international antidraughts turkish; do
    run play --plain --white computer --black computer --level 2 --variant "$v" --seed 5
    [ "$rc" -eq 0 ] || fail "$v: exit status $rc"
    grep -q "^Game over: " "$tmp/out" || fail "$v: the game did not end: $(tail -3 "$tmp/out")"
done

# 2. A hint names one of the legal moves, and the game goes on.
printf 'hint\nquit\n' >"$tmp/in"
run play --plain --variant russian --white human --black computer --level 1
rm -f "$tmp/in"
grep -q "^Hint: [a-h][1-8]-[a-h][1-8]$" "$tmp/out" || fail "hint: $(grep Hint "$tmp/out")"

# 3. The same seed, the same game (level 3: a depth and a random choice).
run play --plain --white computer --black computer --level 3 --variant english --seed 11
cp "$tmp/out" "$tmp/first"
run play --plain --white computer --black computer --level 3 --variant english --seed 11
cmp -s "$tmp/first" "$tmp/out" || fail "level 3 with --seed 11 played two different games"

# 4. Levels are 1 to 10.
for level in 0 11 x; do
    run play --plain --level "$level"
    [ "$rc" -eq 2 ] || fail "--level $level: exit status $rc, expected 2"
    grep -qF -- "--level is 1 (weakest) to 10" "$tmp/err" || fail "--level $level: $(cat "$tmp/err")"
done

# 5. Three kings against one: the computer declines a draw and plays on;
#    at the start it accepts.
printf 'draw\nquit\n' >"$tmp/in"
run play --plain --white human --black computer --fen 'B:WK46:BK1,K2,K3'
grep -q "^The computer declines the draw.$" "$tmp/out" || fail "draw declined: $(tail -3 "$tmp/out")"
grep -q "^Game over" "$tmp/out" && fail "draw declined: the game ended"
printf 'draw\n' >"$tmp/in"
run play --plain --white human --black computer
grep -q "^The computer accepts the draw.$" "$tmp/out" || fail "draw accepted: $(tail -3 "$tmp/out")"
grep -q "^Game over: Draw (draw agreed), 1-1$" "$tmp/out" || fail "draw accepted: no result line"

# 6. A timed game against the computer, saved: the time control, both
#    players and each move's clock are in the file; loaded in a new session
#    (with the clocks in the file changed) it goes on from there with the
#    clocks the file gives; undo against the computer takes back its reply
#    too.
printf '32-28\nsave %s/timed.pdn\nquit\n' "$tmp" >"$tmp/in"
run play --plain --time 5+3 --seed 2 --level 1
[ "$rc" -eq 0 ] || fail "timed save: exit status $rc"
grep -q '^\[TimeControl "300+3"\]$' "$tmp/timed.pdn" || fail "timed save: no TimeControl tag"
grep -q '^\[Black "computer (level 1)"\]$' "$tmp/timed.pdn" || fail "timed save: no Black tag"
grep -q '^1\. 32-28 {\[%clock 0:05:0[0-3]\.[0-9]\]} 1\.\.\. [0-9-]* {\[%clock 0:05:0[0-3]\.[0-9]\]} \*$' \
    "$tmp/timed.pdn" || fail "timed save: the moves lack their clocks: $(tail -1 "$tmp/timed.pdn")"
sed 's/^\(1\. 32-28 {\[%clock \)[^]]*/\10:04:10.5/; s/\(1\.\.\. [0-9-]* {\[%clock \)[^]]*/\10:03:20.0/' \
    "$tmp/timed.pdn" >"$tmp/changed.pdn"
printf 'load %s/changed.pdn\nundo\nquit\n' "$tmp" >"$tmp/in"
run play --plain --seed 2 --level 1
grep -q "^Loaded $tmp/changed.pdn: International draughts, 2 moves.$" "$tmp/out" ||
    fail "timed load: $(grep Loaded "$tmp/out")"
grep -q "^White to move (White 4:10, Black 3:20)$" "$tmp/out" ||
    fail "timed load: the clocks are not the file's: $(grep 'to move' "$tmp/out" | tail -2)"
grep -q "^Took back 2 moves.$" "$tmp/out" || fail "timed load: undo: $(tail -2 "$tmp/out")"
rm -f "$tmp/in"

# 7. bench search, made shallow: a line per position and the signature.
run bench search --depth-delta -6
[ "$rc" -eq 0 ] || fail "bench search: exit status $rc"
grep -q "^signature: [0-9][0-9]*$" "$tmp/out" || fail "bench search: no signature line"
[ "$(grep -c '^international ' "$tmp/out")" -eq 3 ] || fail "bench search: not 3 International lines"

finish
