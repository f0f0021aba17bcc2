#!/bin/sh
# SPDX-License-Identifier: MIT
# escape.sh - input shown back in an error is escaped: an ESC sequence or a
# bell in a FEN, a move, a variant name, a file name or an option value
# never reaches the terminal as it is.  A NUL byte in a line of FENs on
# stdin is an error about that line, and the next line is still read.
. "$(dirname "$0")/common.inc"

esc=$(printf '\033')
bel=$(printf '\007')

# expect_escaped SHOWN ARGS...: damier ARGS fails; neither stderr nor
# stdout holds a control byte, stderr shows SHOWN.
expect_escaped() {
    shown=$1
    shift
    run "$@"
    [ "$rc" -ne 0 ] || fail "damier (escape $shown): exit 0"
    if LC_ALL=C grep -q "[$esc$bel]" "$tmp/err" "$tmp/out"; then
        fail "damier (escape $shown): a control byte in the output: $(od -c "$tmp/err" | head -3)"
    fi
    grep -qF -- "$shown" "$tmp/err" || fail "damier (escape $shown): stderr does not show it: $(cat "$tmp/err")"
}

expect_escaped "'\\e[31m'" moves --fen "W:W${esc}[31m:B1"
expect_escaped "'\\e[31m'" perft --fen "W:W${esc}[31m:B1" 1
expect_escaped "'\\e]0;x\\x07'" moves --fen "W:W31:B1:${esc}]0;x${bel}"
expect_escaped "'32-28\\e[2J'" moves --play "32-28${esc}[2J"
expect_escaped "'\\e[2J'" moves --variant "${esc}[2J"
expect_escaped "'\\e[2J'" pdn check --variant "${esc}[2J" tests/pdn/odd.pdn
expect_escaped "'--x\\e[2J'" perft "--x${esc}[2J" 1
expect_escaped "'\\e[2J'" perft "${esc}[2J"
expect_escaped "'\\x07'" pdn convert --to "$bel" tests/pdn/odd.pdn
expect_escaped "'\\e'" bench perft --depth "$esc"
expect_escaped "'frobnicate\\e'" frobnicate"$esc"
expect_escaped "no\\e[1mfile.pdn: No such file" pdn check "$tmp/no${esc}[1mfile.pdn"
printf 'W:W31:B1\n' >"$tmp/in"
expect_escaped "move '\\e'" moves --play "$esc"
rm -f "$tmp/in"
# A move in a PDN file: the reason quotes it escaped.
printf '1. 32-28%s[2J *\n' "$esc" >"$tmp/esc.pdn"
run pdn check --variant international "$tmp/esc.pdn"
if LC_ALL=C grep -q "[$esc$bel]" "$tmp/out" "$tmp/err"; then
    fail "pdn check: a control byte of a move reached the output: $(od -c "$tmp/out" | head -3)"
fi

# A NUL byte: an error about its line, the lines around it answered.
printf 'W:W32:B27\nW:W3\000:B1\nW:W33:B28\n' >"$tmp/in"
run moves --variant international
rm -f "$tmp/in"
[ "$rc" -eq 1 ] || fail "moves, a NUL byte on line 2: exit $rc, expected 1"
grep -qxF "damier: line 2: holds a NUL byte" "$tmp/err" || fail "moves, NUL byte: stderr: $(cat "$tmp/err")"
printf '32x21\n\n\n33x22\n\n' | diff -u - "$tmp/out" || fail "moves, NUL byte: the other lines"

finish
