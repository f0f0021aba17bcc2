#!/bin/sh
# SPDX-License-Identifier: MIT
# json_doc.sh - docs/json.md is the JSON contract: each example it gives is
# JSON, and is what the commands write for that input, byte for byte.
. "$(dirname "$0")/common.inc"

# The examples, one a line, in the order of the page.
awk '/^```json$/ { on = 1; next } /^```$/ { on = 0 } on' docs/json.md >"$tmp/examples"
[ "$(wc -l <"$tmp/examples")" -eq 5 ] || fail "docs/json.md: expected 5 examples, found $(wc -l <"$tmp/examples")"
json '"ok"' "$tmp/examples" | grep -v '^ok$' | while read -r bad; do
    echo "$bad"
done >"$tmp/bad"
[ -s "$tmp/bad" ] && fail "docs/json.md: not JSON: $(cat "$tmp/bad")"

# example N: the Nth example.
example() {
    sed -n "${1}p" "$tmp/examples"
}

# The move and the position: a Russian capture (b6 x c7 crowned on d8, going on as a king).
run moves --variant russian --fen 'W:Wb6:Bc7,f6' --json
json '$_->{moves}[0]' "$tmp/out" >"$tmp/got"
example 1 | json '$_' /dev/stdin | diff -u - "$tmp/got" || fail "docs/json.md: the move example"
grep -qF "$(example 2)" "$tmp/out" || fail "docs/json.md: the position example is not what moves writes: $(cat "$tmp/out")"

# The error and the stdin answer: line 3 of a run, and line 1.
printf 'W:W32:B27\n\nW:W99:B1\n' >"$tmp/in"
run moves --variant international --json
rm -f "$tmp/in"
[ "$(sed -n 2p "$tmp/out")" = "$(example 3)" ] || fail "docs/json.md: the error example: $(sed -n 2p "$tmp/out")"
[ "$(sed -n 1p "$tmp/out")" = "$(example 4)" ] || fail "docs/json.md: the stdin example: $(sed -n 1p "$tmp/out")"

# The game: game 4 of tests/pdn/lidraughts.pdn, its tags cut to two and its
# file name to games.pdn on the page.
run pdn convert --to json tests/pdn/lidraughts.pdn
sed -n 4p "$tmp/out" | json 'delete @{$_->{tags}}{grep { $_ ne "Result" && $_ ne "FEN" } keys %{$_->{tags}}}; $_->{file} = "games.pdn"; $_' /dev/stdin >"$tmp/got"
example 5 | json '$_' /dev/stdin | diff -u - "$tmp/got" || fail "docs/json.md: the game example"

finish
