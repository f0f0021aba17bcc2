#!/bin/sh
# damier play --plain driven by a script: a short English game between two
# people ending by resignation, one ending with no move left, a game
# against the computer, bad input of every kind, save and load, and the
# end of input.  Each check prints what it expected when it fails.
set -u
bin=${DAMIER_BIN:-build/damier}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
checks=0

# expect NAME PATTERN: the last output holds PATTERN (a fixed string).
expect() {
    checks=$((checks + 1))
    if ! grep -qF -- "$2" "$tmp/out"; then
        echo "FAIL: $1: no '$2' in the output:"
        sed 's/^/    /' "$tmp/out" | tail -20
        failed=$((failed + 1))
    fi
}
# status NAME WANT GOT
status() {
    checks=$((checks + 1))
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1: exit status $3, expected $2"
        failed=$((failed + 1))
    fi
}
play() {
    "$bin" play --plain "$@" >"$tmp/out" 2>&1
}

# 1. Black opens (English), the capture is compulsory, White wins on resignation.
printf '11-15\n22-18\n9-13\n15x22\n25x18\nresign\n' |
    play --variant english --white human --black human
status "english game" 0 $?
expect "english game" "Black plays 11-15"
expect "english game" "White plays 22-18"
expect "english game" "move '9-13' is illegal: a capture is compulsory: 15x22"
expect "english game" "White plays 25x18"
expect "english game" "Game over: White wins (Black resigned), 1-0"

# 2. The last white man is taken: White cannot move.
printf '14x23\n' | play --variant english --white human --black human --fen 'B:W18:B14'
status "no move" 0 $?
expect "no move" "Game over: Black wins (White cannot move), 0-1"

# 3. Against the computer (seeded): it answers, and a draw offer is answered.
printf '32-28\ndraw\n' | play --seed 7
status "computer" 0 $?
expect "computer" "White plays 32-28"
expect "computer" "Black plays "
expect "computer" "The computer accepts the draw."
expect "computer" "Game over: Draw (draw agreed), 1-1"

# 4. Bad input never stops the game: garbage, squares off the board, an
#    illegal move, a line too long, control characters; then the game goes on.
long=$(printf '%0300d' 0)
printf 'garbage\n99-98\n32-26\n%s\n\001\002 3\n\n   \n32 28\nundo\nundo\nmoves\nflip\n' "$long" |
    play --white human --black human
status "bad input" 0 $?
expect "bad input" "'garbage' is neither a command nor a move"
expect "bad input" "square '99' does not exist on the 10x10 board"
expect "bad input" "move '32-26' is illegal in this position"
expect "bad input" "move '??-3': expected squares joined by - x or :"
expect "bad input" "Line too long"
expect "bad input" "White plays 32-28"
expect "bad input" "Took back 1 move."
expect "bad input" "There is no move to take back."
expect "bad input" "9 legal moves: "
expect "bad input" " 35-30"
expect "bad input" "    j i h g f e d c b a"

# 5. Save, then load in a new session: the game goes on from there.
printf 'c3-d4\nf6-g5\nsave %s/game.pdn\n' "$tmp" |
    play --variant russian --rules official --white human --black human
status "save" 0 $?
expect "save" "Saved the game to $tmp/game.pdn."
checks=$((checks + 1))
if ! grep -q '^\[Rules "official"\]' "$tmp/game.pdn" || ! grep -q '1. c3-d4 f6-g5' "$tmp/game.pdn"; then
    echo "FAIL: save: the PDN file lacks the preset or the moves"
    failed=$((failed + 1))
fi
printf 'load %s/game.pdn\nmoves\nload %s/missing.pdn\nquit\n' "$tmp" "$tmp" |
    play --white human --black human
status "load" 0 $?
expect "load" "Loaded $tmp/game.pdn: Russian draughts (shashki), 2 moves."
expect "load" "White to move"
expect "load" "Not loaded: cannot open $tmp/missing.pdn"

# 6. End of input in the middle of a line, and no input at all.
printf '32-28' | play --white human --black human
status "eof" 0 $?
expect "eof" "White plays 32-28"
play --white human --black human </dev/null
status "no input" 0 $?

# 7. Bad options are refused with status 2, a bad FEN with 1.
"$bin" play --plain --level 9 </dev/null >"$tmp/out" 2>&1
status "bad level" 2 $?
expect "bad level" "--level is 1 (weakest) to 8"
"$bin" play --plain --time 5+ </dev/null >"$tmp/out" 2>&1
status "bad time" 2 $?
expect "bad time" "expected seconds after '+'"
"$bin" play --plain --fen 'W:W99' </dev/null >"$tmp/out" 2>&1
status "bad fen" 1 $?

# 8. Computer against computer plays a whole game to its end.
play --variant english --white computer --black computer --seed 11 </dev/null
status "computer v computer" 0 $?
expect "computer v computer" "Game over: "

echo "play --plain: $((checks - failed)) of $checks checks passed"
[ "$failed" -eq 0 ]
