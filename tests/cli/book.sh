#!/bin/sh
# SPDX-License-Identifier: MIT
# book.sh - "damier book": a small book built and shown (the start, after
# a move, a position outside it), the same options giving the same file,
# and bad input named in its error with the exit codes (1 input, 2 usage).
. "$(dirname "$0")/common.inc"

run book build --variant english --nodes 2000 --plies 2 --margin 10 --out "$tmp/e.dmb"
[ "$rc" -eq 0 ] || fail "book build exited $rc: $(cat "$tmp/err")"
grep -q "^book of english: [0-9]* positions, [0-9]* moves, [0-9]* bytes, [0-9.]* s: $tmp/e.dmb\$" \
    "$tmp/out" || fail "book build said: $(cat "$tmp/out")"
head -n 1 "$tmp/e.dmb" | grep -qx 'DMBOOK 1' || fail "the book does not start with its magic"
grep -aq '^made [0-9-]*: damier book build --variant english --nodes 2000 --plies 2 --margin 10 --lines 6 --positions 5000$' \
    "$tmp/e.dmb" || fail "the book does not say how it was made"
run book build --variant english --nodes 2000 --plies 2 --margin 10 --out "$tmp/again.dmb"
cmp -s "$tmp/e.dmb" "$tmp/again.dmb" || fail "the same options built another book"

# The start: its moves, best first, each a legal move with a score in men.
run book show --variant english --file "$tmp/e.dmb"
[ "$rc" -eq 0 ] || fail "book show exited $rc: $(cat "$tmp/err")"
sed 1d "$tmp/out" >"$tmp/moves"
[ -s "$tmp/moves" ] || fail "no book moves at the start: $(cat "$tmp/out")"
grep -qv '^[0-9]*-[0-9]* [+-]\{0,1\}[0-9]\.[0-9][0-9]$' "$tmp/moves" &&
    fail "book show: a line is not a move and a score: $(cat "$tmp/moves")"
awk '{ s = $2 + 0; if (NR > 1 && s > last) bad = 1; last = s } END { exit bad }' "$tmp/moves" ||
    fail "not best first: $(cat "$tmp/moves")"
first=$(head -n 1 "$tmp/moves" | cut -d' ' -f1)
# After the best move: Black's answers are in the book (2 plies).
run book show --variant english --file "$tmp/e.dmb" --moves "$first"
[ "$(sed 1d "$tmp/out" | wc -l)" -ge 1 ] || fail "nothing after $first: $(cat "$tmp/out")"
# Two plies on: the book ends.
second=$(sed -n 2p "$tmp/out" | cut -d' ' -f1)
run book show --variant english --file "$tmp/e.dmb" --moves "$first $second"
[ "$(sed -n 2p "$tmp/out")" = "not in the book" ] || fail "ply 2 in a 2-ply book: $(cat "$tmp/out")"

# Bad input: exit 1 with what is wrong; bad usage: exit 2.
run book show --variant russian --file "$tmp/e.dmb"
[ "$rc" -eq 1 ] && grep -q "it is a book of english, not of russian" "$tmp/err" ||
    fail "a book of another variant: rc $rc, $(cat "$tmp/err")"
printf 'DMBOOK 1\nvariant english\n' >"$tmp/cut.dmb"
run book show --variant english --file "$tmp/cut.dmb"
[ "$rc" -eq 1 ] && grep -q "its header does not end with an empty line" "$tmp/err" ||
    fail "a cut book: rc $rc, $(cat "$tmp/err")"
run book show --variant english --file "$tmp/e.dmb" --moves "11-20"
[ "$rc" -eq 1 ] && grep -q "move 1 '11-20'" "$tmp/err" || fail "an illegal move: rc $rc, $(cat "$tmp/err")"
run book build --variant english --out /nonexistent/dir/x.dmb --nodes 500 --plies 1
[ "$rc" -eq 1 ] && grep -q "cannot write the book" "$tmp/err" || fail "an unwritable --out: rc $rc, $(cat "$tmp/err")"
run book build --variant nosuch
[ "$rc" -eq 1 ] || fail "an unknown variant: rc $rc"
run book build --plies 0
[ "$rc" -eq 2 ] || fail "--plies 0: rc $rc"
run book build --frobnicate 1
[ "$rc" -eq 2 ] || fail "an unknown option: rc $rc"
run book show --nodes 100
[ "$rc" -eq 2 ] || fail "show --nodes: rc $rc"
run book
[ "$rc" -eq 2 ] || fail "no subcommand: rc $rc"
run book build --variant
[ "$rc" -eq 2 ] || fail "--variant without a value: rc $rc"
finish
