#!/bin/sh
# SPDX-License-Identifier: MIT
# pipe.sh - a program at the other end of a pipe gets each answer as soon
# as it exists: one FEN is written to "damier moves" through a FIFO and its
# answer is read back while the input is still open.  Without a flush the
# answer would wait in a buffer until the input closes, and the read times
# out.
. "$(dirname "$0")/common.inc"

mkfifo "$tmp/to" "$tmp/from" || { fail "mkfifo"; finish; }
"$DAMIER_BIN" moves --variant international <"$tmp/to" >"$tmp/from" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/to"
exec 4<"$tmp/from"

# answer: the first line damier writes next, or "TIMEOUT" after 10 s.
answer() {
    timeout 10 head -n 1 <&4 || echo TIMEOUT
}

echo 'W:W32:B27' >&3
got=$(answer)
[ "$got" = 32x21 ] || fail "moves through a pipe: the first answer is '$got', expected 32x21"
# A second question on the same pipe, still open: an error line, then the
# empty line that ends its answer; stderr names the line.
echo 'W:W99:B1' >&3
got=$(answer)
[ -z "$got" ] || fail "moves through a pipe: a bad line answers '$got', expected an empty line"
grep -q "line 2" "$tmp/err" || fail "moves through a pipe: stderr does not name line 2: $(cat "$tmp/err")"
exec 3>&-
wait "$pid"
rc=$?
exec 4<&-
[ "$rc" -eq 1 ] || fail "moves through a pipe: exit $rc, expected 1 (a bad line)"

# The same with --json: one object a line, flushed.
"$DAMIER_BIN" moves --variant english --json <"$tmp/to" >"$tmp/from" 2>"$tmp/err" &
pid=$!
exec 3>"$tmp/to"
exec 4<"$tmp/from"
echo 'W:W22:B18' >&3
answer >"$tmp/got"
json '$_->{moves}[0]{notation}' "$tmp/got" | grep -qx '22x15' ||
    fail "moves --json through a pipe: $(cat "$tmp/got")"
exec 3>&-
wait "$pid"
exec 4<&-

finish
