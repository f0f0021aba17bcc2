#!/bin/sh
# SPDX-License-Identifier: MIT
# variants.sh - "damier variants" lists every diagonal-board variant of
# docs/variants.md by its id, one a line, and takes no argument.
. "$(dirname "$0")/common.inc"

run variants
[ "$rc" -eq 0 ] || fail "damier variants exited $rc"
[ -s "$tmp/err" ] && fail "damier variants wrote to stderr: $(cat "$tmp/err")"
awk '{ print $1 }' "$tmp/out" >"$tmp/ids"
for id in english anti-checkers italian russian poddavki brazilian pool czech corner \
    one-way parachute spanish portuguese thai international killer antidraughts \
    breakthrough canadian frisian frysk; do
    grep -qx -- "$id" "$tmp/ids" || fail "damier variants does not list '$id'"
done
# No id twice.
dups=$(sort "$tmp/ids" | uniq -d)
[ -z "$dups" ] || fail "damier variants lists twice: $dups"

run variants extra
[ "$rc" -ne 0 ] || fail "damier variants extra: accepted an argument"
grep -q "extra\|argument" "$tmp/err" || fail "damier variants extra: no error naming it"

finish
