#!/bin/sh
# SPDX-License-Identifier: MIT
# egdb.sh - damier egdb: build English to 3 pieces, verify every value,
# probe known positions, list the tables; bad usage (exit 2), bad input and
# damaged tables (exit 1) named on stderr.
. "$(dirname "$0")/common.inc"

db=$tmp/egdb

# expect STATUS WORD ARGS...: damier ARGS exits STATUS; stderr names WORD.
expect() {
    want=$1
    word=$2
    shift 2
    run "$@"
    [ "$rc" -eq "$want" ] || fail "damier $*: exit $rc, expected $want ($(cat "$tmp/err"))"
    grep -qF -- "$word" "$tmp/err" || fail "damier $*: stderr does not name '$word': $(cat "$tmp/err")"
}

# says WHAT TEXT: $tmp/out holds TEXT.
says() {
    grep -qF -- "$2" "$tmp/out" || fail "$1: output lacks '$2': $(cat "$tmp/out")"
}

for args in "--help" "build --help" "probe -h"; do
    run egdb $args
    [ "$rc" -eq 0 ] || fail "damier egdb $args: exit $rc"
    head -n 1 "$tmp/out" | grep -q '^usage: damier egdb build' || fail "damier egdb $args: no usage"
done

run egdb build --variant english --pieces 3 --dir "$db"
[ "$rc" -eq 0 ] || fail "egdb build: exit $rc ($(cat "$tmp/err"))"
says "egdb build" "english: 2k-1k built: 29760 positions"
# 16 signatures, 9 tables: each of the other 7 is read through its
# colours' mirror (1m-1m1k through 1m1k-1m).
says "egdb build" "english: 9 tables up to 3 pieces in $db/english (each also its colours' mirror)"
[ -f "$db/english/1m1k-1m.egdb" ] || fail "egdb build: no $db/english/1m1k-1m.egdb"
[ ! -f "$db/english/1m-1m1k.egdb" ] || fail "egdb build: a mirrored table was built"
# A second build finds them all.
run egdb build --variant english --pieces 3 --dir "$db"
says "egdb build again" "english: 2k-1k already built"

run egdb verify --variant english --dir "$db"
[ "$rc" -eq 0 ] || fail "egdb verify: exit $rc ($(cat "$tmp/err"))"
says "egdb verify" "egdb verify: english: 0 wrong values"

# Two threads make the same files as one.
run egdb build --variant english --pieces 3 --dir "$tmp/egdb2" --threads 2
[ "$rc" -eq 0 ] || fail "egdb build --threads 2: exit $rc ($(cat "$tmp/err"))"
says "egdb build --threads 2" "english: 9 tables up to 3 pieces in $tmp/egdb2/english"
says "egdb build --threads 2" "(2 threads)"
for f in "$db"/english/*.egdb; do
    cmp -s "$f" "$tmp/egdb2/english/$(basename "$f")" || fail "egdb build --threads 2: $(basename "$f") differs"
done
run egdb verify --variant english --dir "$tmp/egdb2" --threads 2
says "egdb verify --threads 2" "egdb verify: english: 0 wrong values"

probe() { # FEN EXPECTED
    run egdb probe --variant english --dir "$db" --fen "$1"
    [ "$rc" -eq 0 ] || fail "egdb probe $1: exit $rc ($(cat "$tmp/err"))"
    [ "$(cat "$tmp/out")" = "$2" ] || fail "egdb probe $1: '$(cat "$tmp/out")', expected '$2'"
}
probe "W:WK32:BK1" "draw"
probe "B:WK11:BK4" "loss in 2 plies"
probe "W:W5:B1,K2" "loss in 0 plies" # 1m-1m1k, read from 1m1k-1m
probe "B:W32,K31:B28" "loss in 0 plies" # its mirror, from its own table
probe "B:W6:BK1" "unknown (no table for this material under $db, or a capture pending)"

run egdb info --variant english --dir "$db"
[ "$rc" -eq 0 ] || fail "egdb info: exit $rc"
says "egdb info" "egdb info: english: 9 tables in $db/english (16 signatures with their mirrors)"
grep -q '^1m1k-1m .*  (also 1m-1m1k)$' "$tmp/out" ||
    fail "egdb info: 1m1k-1m does not say it serves 1m-1m1k: $(grep '^1m1k-1m' "$tmp/out")"
grep -q '^1k-1k .* 1984 positions  W 316  D 1308  L 216  not stored 144$' "$tmp/out" ||
    fail "egdb info: no 1k-1k line with its counts: $(grep '^1k-1k' "$tmp/out")"

# Bad usage.
expect 2 "egdb: give build" egdb
expect 2 frob egdb frob
expect 2 --bogus egdb build --variant english --pieces 3 --bogus
expect 2 --pieces egdb build --variant english
expect 2 --pieces egdb build --variant english --pieces 9
expect 2 --threads egdb build --variant english --pieces 3 --threads 0
expect 2 --threads egdb verify --variant english --threads many
expect 2 --threads egdb probe --variant english --fen W:WK32:BK1 --threads 2
expect 2 --variant egdb verify
expect 2 --fen egdb probe --variant english
expect 2 --dir egdb info --variant english --dir
# Bad input.
expect 1 nosuch egdb info --variant nosuch
expect 1 "not supported for frisian" egdb build --variant frisian --pieces 2 --dir "$db"
expect 1 "'99'" egdb probe --variant english --dir "$db" --fen "W:WK99:BK1"
expect 1 "no russian table" egdb verify --variant russian --dir "$db"
# A damaged table: refused by probe, info and verify, with the reason.
printf 'XXXX' | dd of="$db/english/1k-1k.egdb" bs=1 seek=300 conv=notrunc 2>/dev/null
expect 1 "damaged file" egdb probe --variant english --dir "$db" --fen "W:WK32:BK1"
expect 1 "checksum" egdb verify --variant english --dir "$db"
run egdb info --variant english --dir "$db"
[ "$rc" -eq 1 ] || fail "egdb info with a damaged table: exit $rc"
says "egdb info" "refused: $db/english/1k-1k.egdb: the data's checksum is wrong"

[ "$failures" -eq 0 ]
