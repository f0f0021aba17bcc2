#!/bin/sh
# SPDX-License-Identifier: MIT
# board.sh - the terminal board tells the sides apart without colour.  In a
# real terminal (tmux, 80x24): with NO_COLOR set the full screen shows no
# ANSI colour sequence, yet White's and Black's men, kings and parachutists
# differ in shape and the last move is bracketed, and the alquerque grid
# is drawn with its lines; NO_COLOR set but empty
# keeps the colours (no-color.org), as does leaving it unset; TERM=dumb gets
# the plain line mode instead of the full screen.  Needs tmux (skipped with
# a notice without it, as tests/cli/play_tmux.sh is).
. "$(dirname "$0")/common.inc"

if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed; the terminal board test did not run"
    exit 0
fi
bin=$(cd "$(dirname "$DAMIER_BIN")" && pwd)/$(basename "$DAMIER_BIN")
sock="damier-board-$$"
tmux_() { tmux -u -L "$sock" "$@"; }
trap 'tmux_ kill-server 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
esc=$(printf '\033')
# An SGR sequence with a colour among its parameters: 30-49 (foreground,
# background, 38/48 extended, 39/49 default), 90-107 (bright).
colour_sgr="$esc\[([0-9]*;)*(3[0-9]|4[0-9]|9[0-7]|10[0-7])(;[0-9]*)*m"

# start NAME ENV ARGS: damier play in a new 80x24 window NAME, ENV set.
start() {
    name=$1
    vars=$2
    shift 2
    tmux_ new-session -d -s "$name" -x 80 -y 24 \
        "env LANG=C.UTF-8 $vars '$bin' play --white human --black human $*; sleep 30"
}
screen() { tmux_ capture-pane -t "$1" -p; }
screen_sgr() { tmux_ capture-pane -t "$1" -p -e; }

# wait_for WINDOW TEXT: polls the screen (5 s at most) until it shows TEXT.
wait_for() {
    i=0
    while [ $i -lt 50 ]; do
        screen "$1" | grep -qF -- "$2" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    fail "$1: the screen never showed '$2':"
    screen "$1" | sed 's/^/    |/'
    return 1
}

type_line() {
    tmux_ send-keys -t "$1" -l "$2"
    tmux_ send-keys -t "$1" Enter
}

# 1. NO_COLOR: a man and a king of each side (Russian, algebraic board).
start nocolour NO_COLOR=1 --variant russian --fen "'W:Wc3,Ka1:Bf6,Kh8'"
if wait_for nocolour "White to move"; then
    screen nocolour >"$tmp/nocolour"
    grep -qE '^ 3  ·     ○ ' "$tmp/nocolour" || fail "no-colour: White's man on c3 not ○"
    grep -qE '^ 1  ♕ ' "$tmp/nocolour" || fail "no-colour: White's king on a1 not ♕"
    grep -qE '^ 6     ·     ·     ●' "$tmp/nocolour" || fail "no-colour: Black's man on f6 not ●"
    grep -qE '^ 8     ·     ·     ·     ♛ ' "$tmp/nocolour" || fail "no-colour: Black's king on h8 not ♛"
    if screen_sgr nocolour | grep -qE "$colour_sgr"; then
        fail "no-colour: colour sequences on the screen:"
        screen_sgr nocolour | grep -E "$colour_sgr" | cat -v | sed 's/^/    |/'
    fi
    # The last move bracketed: where the man left and where it stands.
    type_line nocolour "c3-d4"
    if wait_for nocolour "Black to move"; then
        screen nocolour | grep -qE '^ 4     ·    \[○\]' ||
            fail "no-colour: the man that moved to d4 is not bracketed"
        screen nocolour | grep -qE '^ 3  ·    \[·\]' ||
            fail "no-colour: c3, just left, is not bracketed"
        screen_sgr nocolour | grep -qE "$colour_sgr" && fail "no-colour: colour after a move"
    fi
fi

# 2. Parachute's parachutists, without colour: ◇ White's, ◆ Black's.
start paras NO_COLOR=yes --variant parachute
if wait_for paras "White to move"; then
    screen paras | grep -qE '^ 8     ◇     ◇     ◇     ◇' || fail "no-colour: White's parachutists not ◇"
    screen paras | grep -qE '^ 1  ◆     ◆     ◆     ◆' || fail "no-colour: Black's parachutists not ◆"
fi

# 3. The alquerque grid drawn with its lines (dm_board_lines): orthogonal
# everywhere, diagonals through the even points, crossing in each 2x2
# quarter; a move bracketed; the view flipped.
start grid NO_COLOR=1 --variant alquerque
if wait_for grid "White to move"; then
    type_line grid "c2-c3"
    wait_for grid "Black to move"
    cat >"$tmp/grid.want" <<'EOF'
    a   b   c   d   e
 5  ●───●───●───●───●
    │ ╲ │ ╱ │ ╲ │ ╱ │
 4  ●───●───●───●───●
    │ ╱ │ ╲ │ ╱ │ ╲ │
 3  ●───●──[○]──○───○
    │ ╲ │ ╱ │ ╲ │ ╱ │
 2  ○───○──[·]──○───○
    │ ╱ │ ╲ │ ╱ │ ╲ │
 1  ○───○───○───○───○
    a   b   c   d   e
EOF
    # Each screen row starts with its expected row (the panel follows).
    screen grid | head -11 >"$tmp/grid.got"
    row=1
    while IFS= read -r want; do
        got=$(sed -n "${row}p" "$tmp/grid.got")
        case $got in
        "$want"*) ;;
        *) fail "alquerque grid, row $row: expected '$want', got '$got'" ;;
        esac
        row=$((row + 1))
    done <"$tmp/grid.want"
    type_line grid "flip"
    wait_for grid " 2  ○───○──[·]──○───○"
    wait_for grid "    e   d   c   b   a"
fi

# 4. Colour stays with NO_COLOR empty or unset: the same test sees it.
start empty NO_COLOR= --variant russian
start unset "" --variant russian
for w in empty unset; do
    if wait_for $w "White to move"; then
        screen_sgr $w | grep -qE "$colour_sgr" || fail "$w NO_COLOR: no colour on the screen"
    fi
done

# 5. TERM=dumb: the plain line mode (letters, a prompt), not the full screen.
start dumb TERM=dumb --variant english
if wait_for dumb "  8   b   b   b   b   1-4"; then
    type_line dumb "11-15"
    wait_for dumb "Black plays 11-15"
    wait_for dumb "  5 .   .   b   .     13-16"
    screen dumb | grep -qF "●" && fail "TERM=dumb: the full-screen board is shown"
fi

finish
