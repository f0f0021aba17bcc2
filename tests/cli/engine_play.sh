#!/bin/sh
# SPDX-License-Identifier: MIT
# engine_play.sh - the computer player of damier play, and damier bench
# search: whole games between two computers end with a result, a hint
# names a move, a seeded game at a level without time limits replays
# exactly, levels out of range are refused, and the search benchmark prints
# its signature.
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

# 4. Levels are 1 to 8.
for level in 0 9 x; do
    run play --plain --level "$level"
    [ "$rc" -eq 2 ] || fail "--level $level: exit status $rc, expected 2"
    grep -qF -- "--level is 1 (weakest) to 8" "$tmp/err" || fail "--level $level: $(cat "$tmp/err")"
done

# 5. bench search, made shallow: a line per position and the signature.
run bench search --depth-delta -6
[ "$rc" -eq 0 ] || fail "bench search: exit status $rc"
grep -q "^signature: [0-9][0-9]*$" "$tmp/out" || fail "bench search: no signature line"
[ "$(grep -c '^international ' "$tmp/out")" -eq 3 ] || fail "bench search: not 3 International lines"

finish
