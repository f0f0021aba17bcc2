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

# The same in JSON: one object a line with the route and the pieces taken.
run moves --variant russian --fen 'W:Wb6:Bc7,f6' --json
[ "$rc" -eq 0 ] || fail "moves --json exited $rc: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/out")" -eq 2 ] || fail "moves --json: expected 2 lines, got: $(cat "$tmp/out")"
for to in g5 h4; do
    line=$(grep -F "\"notation\":\"b6:$to\"" "$tmp/out")
    [ -n "$line" ] || { fail "moves --json: no move b6:$to in: $(cat "$tmp/out")"; continue; }
    for field in '"from":"b6"' "\"to\":\"$to\"" "\"path\":[\"b6\",\"d8\",\"$to\"]" \
        '"captures":["c7","f6"]' '"promotes":true'; do
        case $line in
        *"$field"*) ;;
        *) fail "moves --json, b6:$to: no $field in $line" ;;
        esac
    done
done

# Numbered squares are JSON numbers.  English 22 (c3) has two routes to 6
# (c7): 22-15-6 over 18, 10 and 22-13-6 over 17, 9; both are written out.
run moves --variant english --fen 'W:W22:B9,10,17,18' --json
line=$(grep -F '"notation":"22x15x6"' "$tmp/out")
for field in '"from":22' '"to":6' '"path":[22,15,6]' '"captures":[18,10]' '"promotes":false'; do
    case $line in
    *"$field"*) ;;
    *) fail "moves --json (english), 22x15x6: no $field in '$line'" ;;
    esac
done
grep -qF '"notation":"22x13x6"' "$tmp/out" || fail "moves --json (english): no 22x13x6"

# A quiet move: path from and to, nothing taken; c7-b8 crowns (WCDF rules).
run moves --variant english --fen 'W:W6:B12' --json
line=$(grep -F '"notation":"6-1"' "$tmp/out")
for field in '"from":6' '"to":1' '"path":[6,1]' '"captures":[]' '"promotes":true'; do
    case $line in
    *"$field"*) ;;
    *) fail "moves --json (english), 6-1: no $field in '$line'" ;;
    esac
done

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
