#!/bin/sh
# SPDX-License-Identifier: MIT
# exit.sh - the same exit statuses in every command: 0 done, 1 bad input,
# 2 bad usage; bad usage names the option or argument on stderr.
. "$(dirname "$0")/common.inc"

# expect STATUS WORD ARGS...: damier ARGS exits STATUS; stderr names WORD.
expect() {
    want=$1
    word=$2
    shift 2
    run "$@"
    [ "$rc" -eq "$want" ] || fail "damier $*: exit $rc, expected $want ($(cat "$tmp/err"))"
    grep -qF -- "$word" "$tmp/err" || fail "damier $*: stderr does not name '$word': $(cat "$tmp/err")"
}

# Bad usage: an unknown option, in every command.
for cmd in "play" "moves" "perft 1" "pdn check x.pdn" "pdn convert --to fen x.pdn" "pdn" \
    "variants" "bench perft" "bench search" "bench" "version" ""; do
    expect 2 --bogus $cmd --bogus
done
# Bad usage: a missing value, a bad value, a missing or extra argument.
expect 2 --fen moves --fen
expect 2 --variant perft 3 --variant
expect 2 depth perft --variant english
expect 2 abc perft --variant english abc
expect 2 31 perft 31
expect 2 extra moves extra
expect 2 extra variants extra
expect 2 --to pdn convert x.pdn
expect 2 "'yaml'" pdn convert --to yaml x.pdn
expect 2 FILE pdn check
expect 2 frobnicate pdn frobnicate
expect 2 frobnicate bench frobnicate
expect 2 --depth bench perft --depth x
expect 2 --hash bench search --hash 0
expect 2 --level play --level 11
expect 2 soon play --time soon
expect 2 frobnicate frobnicate

# Bad input: a variant, a FEN, a move, a file that is not there.
expect 1 nosuch moves --variant nosuch --fen 'W:W31:B1'
expect 1 "'51'" moves --fen 'W:W51:B1'
expect 1 "'51'" perft --fen 'W:W51:B1' 1
expect 1 "move 1" perft --play 99-1 1
expect 1 nosuch perft --variant nosuch 1
expect 1 nosuch pdn check --variant nosuch tests/pdn/odd.pdn
expect 1 missing.pdn pdn check "$tmp/missing.pdn"
expect 1 missing.pdn pdn convert --to pdn "$tmp/missing.pdn"
expect 1 nosuch bench perft --variant nosuch
expect 1 "'51'" play --fen 'W:W51:B1'
expect 1 nosuch play --variant nosuch
printf 'W:W51:B1\n' >"$tmp/in"
expect 1 "line 1" moves
rm -f "$tmp/in"

# Success.
for args in "moves --fen W:W32:B27" "perft 1" "variants" "version" "--version" \
    "pdn check tests/pdn/odd.pdn" "pdn convert --to fen tests/pdn/odd.pdn"; do
    run $args
    [ "$rc" -eq 0 ] || fail "damier $args: exit $rc: $(cat "$tmp/err")"
done

finish
