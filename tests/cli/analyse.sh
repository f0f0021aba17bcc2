#!/bin/sh
# SPDX-License-Identifier: MIT
# analyse.sh - "damier analyse": the report lines and the best line of a
# forced win, multipv lines, moves played first as the game's history, and
# bad input named in its error with the exit codes (1 input, 2 usage).
. "$(dirname "$0")/common.inc"

# White 32 38 48, Black 23 24 34: 32-28 gives two men, 23x43 is forced and
# 48x19 takes the last three: a win in three plies, seen at once, and the
# search ends at depth 5 (a forced end well within the horizon).
run analyse --variant international --fen 'W:W32,38,48:B23,24,34' --depth 6
[ "$rc" -eq 0 ] || fail "analyse (shot) exited $rc: $(cat "$tmp/err")"
want='best 32-28 ponder 23x43 score win-in-3 depth 5'
[ "$(tail -n 1 "$tmp/out")" = "$want" ] ||
    fail "analyse (shot): expected last line '$want', got '$(tail -n 1 "$tmp/out")'"
for d in 1 2 3 4 5; do
    n=$(grep -c "^depth $d seldepth [0-9]* multipv 1 score win-in-3 nodes [0-9]* nps [0-9]* time [0-9]* pv 32-28 23x43 48x19\$" "$tmp/out")
    [ "$n" -eq 1 ] || fail "analyse (shot): $n report lines of depth $d, expected 1: $(cat "$tmp/out")"
done
[ "$(wc -l <"$tmp/out")" -eq 6 ] || fail "analyse (shot): expected 6 lines, got: $(cat "$tmp/out")"

# multipv 4 from the start of International: at each depth, four finished
# lines (no lowerbound), numbered 1 to 4, four different first moves.
run analyse --variant international --depth 3 --multipv 4
[ "$rc" -eq 0 ] || fail "analyse --multipv exited $rc: $(cat "$tmp/err")"
for d in 1 2 3; do
    grep "^depth $d " "$tmp/out" | grep -v lowerbound >"$tmp/lines"
    [ "$(wc -l <"$tmp/lines")" -eq 4 ] || fail "analyse --multipv 4, depth $d: $(cat "$tmp/lines")"
    sed 's/.* multipv \([0-9]*\) .*/\1/' "$tmp/lines" >"$tmp/got"
    printf '1\n2\n3\n4\n' >"$tmp/want"
    same_lines "analyse --multipv 4, depth $d, line numbers" "$tmp/want" "$tmp/got"
    [ "$(sed 's/.* pv \([^ ]*\).*/\1/' "$tmp/lines" | sort -u | wc -l)" -eq 4 ] ||
        fail "analyse --multipv 4, depth $d: the lines do not start with 4 moves: $(cat "$tmp/lines")"
done
tail -n 1 "$tmp/out" | grep -q '^best [0-9][0-9]*-[0-9][0-9]* ponder [0-9-]* score [-+]*[0-9]*\.[0-9][0-9] depth 3$' ||
    fail "analyse --multipv: last line: $(tail -n 1 "$tmp/out")"

# --moves become the history: in English, K29-25 K4-8 K25-29 from White
# K29 K32, Black K4; then K8-4 repeats the position after the first move,
# a draw Black takes.  From the same position without that history Black
# is lost on material.
run analyse --variant english --fen 'W:WK29,K32:BK4' --moves '29-25 4-8 25-29' --depth 8
[ "$rc" -eq 0 ] || fail "analyse --moves exited $rc: $(cat "$tmp/err")"
tail -n 1 "$tmp/out" | grep -q '^best 8-4 .*score 0.00 depth 8$' ||
    fail "analyse --moves (repetition): last line: $(tail -n 1 "$tmp/out")"
run analyse --variant english --fen 'B:WK29,K32:BK8' --depth 8
tail -n 1 "$tmp/out" | grep -q '^best .* score -[0-9]' ||
    fail "analyse without the history: last line: $(tail -n 1 "$tmp/out")"

# A position without a move: said, exit 0.
run analyse --variant international --fen 'W:W46:B37,41' --depth 3
[ "$rc" -eq 0 ] || fail "analyse (no move) exited $rc"
grep -q '^best none (the game is over: the side to move has lost)$' "$tmp/out" ||
    fail "analyse (no move): $(cat "$tmp/out")"

# A node limit: the search stops there.
run analyse --variant russian --nodes 3000
[ "$rc" -eq 0 ] || fail "analyse --nodes exited $rc: $(cat "$tmp/err")"
tail -n 1 "$tmp/out" | grep -q '^best [a-h][1-8]-[a-h][1-8] ' ||
    fail "analyse --nodes: last line: $(tail -n 1 "$tmp/out")"

# Bad input: exit 1, one error line naming it, control bytes escaped.
esc=$(printf '\033')
run analyse --variant international --fen "W:W99$esc:B1" --depth 2
[ "$rc" -eq 1 ] || fail "analyse with a bad FEN: exit $rc, expected 1"
grep -qF "W:W99\\e:B1" "$tmp/err" || fail "analyse, bad FEN: not named (escaped): $(cat "$tmp/err")"
grep -q "$esc" "$tmp/err" && fail "analyse, bad FEN: a raw escape byte on stderr"
[ -s "$tmp/out" ] && fail "analyse, bad FEN: output on stdout: $(cat "$tmp/out")"
run analyse --variant international --moves '32-28 19-23 99-98' --depth 2
[ "$rc" -eq 1 ] || fail "analyse with a bad move: exit $rc, expected 1"
grep -q "move 3 '99-98'" "$tmp/err" || fail "analyse, bad move: not named: $(cat "$tmp/err")"
run analyse --variant international --moves '32-26' --depth 2
[ "$rc" -eq 1 ] || fail "analyse with an illegal move: exit $rc, expected 1"
grep -q "move 1 '32-26'" "$tmp/err" || fail "analyse, illegal move: not named: $(cat "$tmp/err")"
run analyse --variant "no$esc" --depth 2
[ "$rc" -eq 1 ] || fail "analyse with an unknown variant: exit $rc, expected 1"
grep -qF "'no\\e'" "$tmp/err" || fail "analyse, unknown variant: not named: $(cat "$tmp/err")"

# Bad usage: exit 2, the option named.
usage_error() { # what, pattern in stderr, args...
    what=$1 pattern=$2
    shift 2
    run analyse "$@"
    [ "$rc" -eq 2 ] || fail "analyse $what: exit $rc, expected 2"
    grep -q -- "$pattern" "$tmp/err" || fail "analyse $what: stderr does not say '$pattern': $(cat "$tmp/err")"
    [ -s "$tmp/out" ] && fail "analyse $what: output on stdout: $(cat "$tmp/out")"
}
usage_error "--depth 0" "--depth '0'" --depth 0
usage_error "--depth x" "--depth 'x'" --depth x
usage_error "--nodes -5" "--nodes '-5'" --nodes -5
usage_error "--time abc" "--time 'abc'" --time abc
usage_error "--time 0" "--time '0'" --time 0
usage_error "--multipv 17" "--multipv '17'" --multipv 17
usage_error "two limits" "one limit at most" --depth 3 --nodes 100
usage_error "--bogus" "unknown option '--bogus'" --bogus
usage_error "a stray word" "unexpected argument 'stray'" stray
usage_error "--fen without a value" "'--fen' needs a value" --fen

# --help says the defaults and the form of decided scores.
run analyse --help
[ "$rc" -eq 0 ] || fail "analyse --help exited $rc"
for word in '5 seconds' 'win-in-N' '--multipv K'; do
    grep -qF -- "$word" "$tmp/out" || fail "analyse --help does not say '$word': $(cat "$tmp/out")"
done

finish
