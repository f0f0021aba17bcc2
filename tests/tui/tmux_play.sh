#!/bin/sh
# The full-screen mode of `damier play` in a real terminal: tmux runs it
# detached on an 80x24 screen, keys are sent as a player types them and the
# screen is read back with capture-pane.  Checks: the board with its pieces
# and square numbers, a move typed and the computer's answer in the move
# list, a refused move explained, the board flipped, the clock ticking, and
# quit leaving the terminal.  Needs tmux; run through tests/cli/play_tmux.sh.
set -u
bin=${DAMIER_BIN:-build/damier}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
sock="damier-test-$$"
tmux_() { tmux -u -L "$sock" "$@"; }
trap 'tmux_ kill-server 2>/dev/null' EXIT
failed=0
checks=0

screen() { tmux_ capture-pane -t play -p; }

# wait_for NAME TEXT: polls the screen (5 s at most) until it shows TEXT.
wait_for() {
    checks=$((checks + 1))
    i=0
    while [ $i -lt 50 ]; do
        if screen | grep -qF -- "$2"; then
            return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    echo "FAIL: $1: the screen never showed '$2':"
    screen | sed 's/^/    |/'
    failed=$((failed + 1))
    return 1
}

type_line() {
    tmux_ send-keys -t play -l "$1"
    tmux_ send-keys -t play Enter
}

# English: Black (the player) moves first; the computer plays White.
LANG=C.UTF-8 tmux_ new-session -d -s play -x 80 -y 24 \
    "LANG=C.UTF-8 '$bin' play --variant english --white computer --black human --seed 5 --time 5+2"
wait_for "start" "English checkers"
wait_for "board" "●"
wait_for "square numbers" "13-16"
wait_for "empty squares numbered" "17    18    19    20"
wait_for "clock" "5:00"
wait_for "to move" "Black to move"

type_line "11-15"
wait_for "move list" "1. 11-15 "
wait_for "computer answer" "White plays "

# The clock of the side to move ticks down from 5:00 plus the increment.
sleep 1.2
checks=$((checks + 1))
if ! screen | grep -qE 'Black +human +(5:0[01]|4:5[0-9])'; then
    echo "FAIL: clock: Black's time is not shown running:"
    screen | sed 's/^/    |/'
    failed=$((failed + 1))
fi

type_line "1-5"
wait_for "illegal move explained" "move '1-5' is illegal"

type_line "flip"
wait_for "flipped" "32-29"

type_line "moves"
wait_for "legal moves" "legal move"

type_line "quit"
checks=$((checks + 1))
i=0
while tmux_ has-session -t play 2>/dev/null && [ $i -lt 50 ]; do
    sleep 0.1
    i=$((i + 1))
done
if tmux_ has-session -t play 2>/dev/null; then
    echo "FAIL: quit: damier play is still running"
    failed=$((failed + 1))
fi

echo "play in tmux: $((checks - failed)) of $checks checks passed"
[ "$failed" -eq 0 ]
