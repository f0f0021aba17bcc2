#!/bin/sh
# SPDX-License-Identifier: MIT
# moves.sh - "damier moves": plain and JSON output of positions whose moves
# the rulebooks' worked examples give (docs/variants.md), and the stdin mode with one FEN a line.
. "$(dirname "$0")/common.inc"

# The pydraughts-checked Russian example: b6 x c7 is crowned on d8 and goes on to g5 or h4.  The two
# moves end on different squares, so each is written from:to (PDN 3.0).
run moves --variant russian --fen 'W:Wb6:Bc7,f6'
[ "$rc" -eq 0 ] || fail "moves (russian) exited $rc: $(cat "$tmp/err")"
printf 'b6:g5\nb6:h4\n' >"$tmp/want"
same_lines "moves --variant russian --fen W:Wb6:Bc7,f6" "$tmp/want" "$tmp/out"

# The same in JSON (docs/json.md): one object, the position and its moves
# with the route and the pieces taken; squares are always strings.
run moves --variant russian --fen 'W:Wb6:Bc7,f6' --json
[ "$rc" -eq 0 ] || fail "moves --json exited $rc: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "moves --json: expected 1 line, got: $(cat "$tmp/out")"
json '[sort keys %$_]' "$tmp/out" >"$tmp/got"
echo '["moves","position"]' >"$tmp/want"
same_lines "moves --json: the keys" "$tmp/want" "$tmp/got"
json '$_->{position}' "$tmp/out" >"$tmp/got"
echo '{"fen":"W:Wb6:Bf6,c7","pieces":[{"color":"black","kind":"man","square":"c7"},{"color":"white","kind":"man","square":"b6"},{"color":"black","kind":"man","square":"f6"}],"side":"white"}' >"$tmp/want"
same_lines "moves --json: the position" "$tmp/want" "$tmp/got"
json 'join "\n", map { $j->encode($_) } @{$_->{moves}}' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<'EOF'
{"captures":["c7","f6"],"from":"b6","notation":"b6:g5","path":["b6","d8","g5"],"promotes":true,"to":"g5"}
{"captures":["c7","f6"],"from":"b6","notation":"b6:h4","path":["b6","d8","h4"],"promotes":true,"to":"h4"}
EOF
same_lines "moves --json (russian): the moves" "$tmp/want" "$tmp/got"

# Numbered squares are strings too.  English 22 (c3) has two routes to 6
# (c7): 22-15-6 over 18, 10 and 22-13-6 over 17, 9; both are written out.
run moves --variant english --fen 'W:W22:B9,10,17,18' --json
json 'join "\n", map { $j->encode($_) } @{$_->{moves}}' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<'EOF'
{"captures":["18","10"],"from":"22","notation":"22x15x6","path":["22","15","6"],"promotes":false,"to":"6"}
{"captures":["17","9"],"from":"22","notation":"22x13x6","path":["22","13","6"],"promotes":false,"to":"6"}
EOF
same_lines "moves --json (english): two routes" "$tmp/want" "$tmp/got"

# A quiet move: path from and to, nothing taken; 6-1 and 6-2 crown (WCDF rules).
run moves --variant english --fen 'W:W6:B12' --json
json 'join "\n", map { $j->encode($_) } @{$_->{moves}}' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<'EOF'
{"captures":[],"from":"6","notation":"6-1","path":["6","1"],"promotes":true,"to":"1"}
{"captures":[],"from":"6","notation":"6-2","path":["6","2"],"promotes":true,"to":"2"}
EOF
same_lines "moves --json (english): quiet moves" "$tmp/want" "$tmp/got"

# A king and a parachutist in the position form.
run moves --variant parachute --fen 'W:WKc3,Pe3:Bh8' --json
json '$_->{position}{pieces}' "$tmp/out" >"$tmp/got"
echo '[{"color":"black","kind":"man","square":"h8"},{"color":"white","kind":"king","square":"c3"},{"color":"white","kind":"parachutist","square":"e3"}]' >"$tmp/want"
same_lines "moves --json (parachute): pieces" "$tmp/want" "$tmp/got"

# --play without --fen starts from the start position, as perft does: after
# 32-28 Black has the start's 9 replies (FMJD rules, mirrored).
run moves --variant international --play 32-28
[ "$rc" -eq 0 ] || fail "moves --play without --fen: exit $rc: $(cat "$tmp/err")"
printf '%s\n' 16-21 17-21 17-22 18-22 18-23 19-23 19-24 20-24 20-25 >"$tmp/want"
same_lines "moves --play 32-28 (no --fen)" "$tmp/want" "$tmp/out"
run moves --variant international --play '32-28 18-23' --json
json '$_->{position}{fen}' "$tmp/out" >"$tmp/got"
echo 'W:W28,31,33-50:B1-17,19,20,23' >"$tmp/want"
same_lines "moves --play (2 moves) --json: the position" "$tmp/want" "$tmp/got"
run moves --variant international --play '32-28 99-1'
[ "$rc" -eq 1 ] || fail "moves --play with a bad move: exit $rc, expected 1"
grep -qF "move 2" "$tmp/err" || fail "moves --play: the error does not name move 2: $(cat "$tmp/err")"

# stdin in JSON: one object a line, with the line number and the input; a
# bad line is an error object in the output too (and a line on stderr).
printf 'W:W32:B27\n\nW:W99:B1\n' >"$tmp/in"
run moves --variant international --json
rm -f "$tmp/in"
[ "$rc" -eq 1 ] || fail "moves --json from stdin with a bad FEN: exit $rc, expected 1"
json '$_->{line} . " " . $_->{input} . " " . (exists $_->{error} ? "error" : scalar @{$_->{moves}})' "$tmp/out" >"$tmp/got"
printf '1 W:W32:B27 1\n3 W:W99:B1 error\n' >"$tmp/want"
same_lines "moves --json from stdin" "$tmp/want" "$tmp/got"
json '$_->{error} // ""' "$tmp/out" | grep -qF "'99'" || fail "moves --json from stdin: the error object does not name '99': $(cat "$tmp/out")"
grep -qF "line 3" "$tmp/err" || fail "moves --json from stdin: stderr does not name line 3: $(cat "$tmp/err")"

# JSON stays valid whatever the input holds: an ESC and a byte that is not
# UTF-8 in a bad line come back escaped in its "input" (\u001b, \ufffd).
printf 'W:W\033[1m\377:B1\n' >"$tmp/in"
run moves --json
rm -f "$tmp/in"
json 'join ",", map { sprintf "%04x", ord } split //, $_->{input}' "$tmp/out" >"$tmp/got"
echo '0057,003a,0057,001b,005b,0031,006d,fffd,003a,0042,0031' | diff -u - "$tmp/got" ||
    fail "moves --json: a line with ESC and \\xff is not written back as valid JSON: $(cat "$tmp/out")"

# stdin: one FEN a line, blank lines skipped, an empty line after each
# position's moves; a bad FEN is reported on stderr, the others answered,
# and the exit status is 1.
printf 'W:W31-50:B1-20\n\nW:W99:B1\nW:W32:B27\n' >"$tmp/in"
run moves --variant international
rm -f "$tmp/in"
[ "$rc" -eq 1 ] || fail "moves from stdin with a bad FEN: exit $rc, expected 1"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "moves from stdin: expected one error line, got: $(cat "$tmp/err")"
grep -q "'99'" "$tmp/err" || fail "moves from stdin: the error does not name '99': $(cat "$tmp/err")"
# The start position's 9 moves (FMJD rules), an empty line, ... 32x21.
sed -n '1,9p' "$tmp/out" >"$tmp/got"
printf '%s\n' 31-26 31-27 32-27 32-28 33-28 33-29 34-29 34-30 35-30 >"$tmp/want"
same_lines "moves from stdin, first position" "$tmp/want" "$tmp/got"
[ -z "$(sed -n '10p' "$tmp/out")" ] || fail "moves from stdin: no empty line after the first position"
grep -v '^$' "$tmp/out" | sed -n '10,$p' >"$tmp/got"
printf '32x21\n' >"$tmp/want"
same_lines "moves from stdin, after the bad line (d4 x c5 -> b6)" "$tmp/want" "$tmp/got"
[ -z "$(tail -n 1 "$tmp/out")" ] || fail "moves from stdin: no empty line after the last position"

finish
