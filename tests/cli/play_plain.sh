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

# raw NAME BYTE: the last output holds no such byte (octal, as printf takes it).
raw() {
    checks=$((checks + 1))
    if [ "$(printf "$2" | tr -d '\n')" != "" ] && tr -d '\n' <"$tmp/out" | grep -q "$(printf "$2")"; then
        echo "FAIL: $1: the byte \\$2 reached the output raw:"
        sed -n l "$tmp/out" | tail -20 | sed 's/^/    /'
        failed=$((failed + 1))
    fi
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
expect "bad input" "move '\\x01\\x02-3': expected squares joined by - x or :"
expect "bad input" "Line 4 too long: at most 200 characters."
expect "bad input" "White plays 32-28"
expect "bad input" "Took back 1 move."
expect "bad input" "there is no move to take back"
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
"$bin" play --plain --level 11 </dev/null >"$tmp/out" 2>&1
status "bad level" 2 $?
expect "bad level" "--level is 1 (weakest) to 10"
"$bin" play --plain --time 5+ </dev/null >"$tmp/out" 2>&1
status "bad time" 2 $?
expect "bad time" "expected seconds after '+'"
"$bin" play --plain --fen 'W:W99' </dev/null >"$tmp/out" 2>&1
status "bad fen" 1 $?

# 8. Computer against computer plays a whole game to its end.
play --variant english --white computer --black computer --seed 11 </dev/null
status "computer v computer" 0 $?
expect "computer v computer" "Game over: "

# 9. A line holding a NUL byte is refused by its number, and the next line
#    is read; an ESC sequence typed at the prompt or given as a FEN is shown
#    escaped, never raw.
printf '32-28\n3\0000-25\n19-23\n\033[31m28-23\033[0m\n' | play --white human --black human
status "nul" 0 $?
expect "nul" "White plays 32-28"
expect "nul" "Line 2 holds a NUL byte: ignored."
expect "nul" "Black plays 19-23"
expect "esc typed" "move '\\e[31m28-23\\e[0m': expected squares joined by - x or :"
raw "esc typed" '\033'
"$bin" play --plain --fen "$(printf 'W:W\033[2J')" </dev/null >"$tmp/out" 2>&1
status "esc fen" 1 $?
expect "esc fen" "square '\\e[2J' does not exist"
raw "esc fen" '\033'
"$bin" play --plain --variant "$(printf 'x\033[2J')" </dev/null >"$tmp/out" 2>&1
status "esc variant" 1 $?
expect "esc variant" "unknown variant 'x\\e[2J'"
raw "esc variant" '\033'
"$bin" play --plain --rules "$(printf '\033[2J')" </dev/null >"$tmp/out" 2>&1
status "esc rules" 2 $?
raw "esc rules" '\033'

# 10. Driven through a pipe as a GUI drives it: each line arrives when it
#     is written, not at exit.  A move is sent, the computer's answer is
#     awaited (with a time-out), the legal moves asked and the first of them
#     played, and the second answer awaited before quitting.
mkfifo "$tmp/to" || exit 1
"$bin" play --plain --seed 3 --level 1 <"$tmp/to" >"$tmp/out" 2>&1 &
pid=$!
exec 3>"$tmp/to"
# await NAME PATTERN COUNT: waits (10 s at most) until PATTERN has been
# written COUNT times; false on time-out.
await() {
    checks=$((checks + 1))
    i=0
    while [ "$(grep -cF -- "$2" "$tmp/out")" -lt "$3" ]; do
        i=$((i + 1))
        if [ $i -gt 100 ]; then
            echo "FAIL: $1: no '$2' (x$3) within 10 s; the output so far:"
            sed 's/^/    /' "$tmp/out" | tail -8
            failed=$((failed + 1))
            return 1
        fi
        sleep 0.1
    done
}
echo "32-28" >&3
if await "pipe: first answer" "Black plays " 1; then
    echo "moves" >&3
    if await "pipe: moves" " legal move" 1; then
        next=$(grep -F " legal move" "$tmp/out" | sed 's/.*: *//; s/ .*//')
        echo "$next" >&3
        await "pipe: own second move" "White plays $next" 1 &&
            await "pipe: second answer" "Black plays " 2
    fi
fi
echo "quit" >&3
exec 3>&-
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
checks=$((checks + 1))
if kill -0 "$pid" 2>/dev/null; then
    echo "FAIL: pipe: damier play did not quit"
    kill "$pid"
    failed=$((failed + 1))
fi
wait "$pid"
status "pipe" 0 $?

echo "play --plain: $((checks - failed)) of $checks checks passed"
[ "$failed" -eq 0 ]
