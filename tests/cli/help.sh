#!/bin/sh
# SPDX-License-Identifier: MIT
# help.sh - -h and --help for the tool and every command (exit 0, the help
# on stdout), what each help must explain, every option a help names being
# one the command takes, and --version.
. "$(dirname "$0")/common.inc"

# has_words WHAT WORD...: $tmp/out holds each WORD.
has_words() {
    what=$1
    shift
    for word in "$@"; do
        grep -qF -- "$word" "$tmp/out" || fail "$what: does not explain '$word'"
    done
}

for args in "--help" "-h" "help"; do
    run $args
    [ "$rc" -eq 0 ] || fail "damier $args: exit $rc"
    [ -s "$tmp/err" ] && fail "damier $args: wrote to stderr: $(cat "$tmp/err")"
    for cmd in play moves perft pdn variants bench version; do
        grep -q "^  $cmd " "$tmp/out" || fail "damier $args: does not list $cmd"
    done
done
# No arguments: the overview on stderr, bad usage.
run
[ "$rc" -eq 2 ] || fail "damier without a command: exit $rc, expected 2"
grep -q '^usage: damier' "$tmp/err" || fail "damier without a command: no usage on stderr"

# Every command: -h and --help anywhere in its arguments, exit 0, the help.
for cmd in play moves perft pdn variants bench version; do
    for args in "--help" "-h" "--variant russian --help" "x -h"; do
        run $cmd $args
        [ "$rc" -eq 0 ] || fail "damier $cmd $args: exit $rc"
        head -n 1 "$tmp/out" | grep -q "^usage: damier $cmd" ||
            fail "damier $cmd $args: no usage line: $(head -n 1 "$tmp/out")"
        [ -s "$tmp/err" ] && fail "damier $cmd $args: wrote to stderr: $(cat "$tmp/err")"
    done
done
run help perft
head -n 1 "$tmp/out" | grep -q '^usage: damier perft' || fail "damier help perft: not perft's help"

run play --help
has_words "play --help" --variant --rules default official --white --black human computer \
    --level "1 (weakest) to 10" "1-4" "5-8" "node count" "1 s" "2 s" shot \
    --fen --time "sudden death" "5+3" Fischer "90/40 " "90/40+30" "10/move" \
    --plain --seed "damier variants" docs/variants.md
run moves --help
has_words "moves --help" --variant --fen --play --json docs/json.md --keep-duplicates \
    --reference stdin flushed "damier variants"
run perft --help
has_words "perft --help" DEPTH --variant --fen --play --divide "MOVE COUNT" \
    --keep-duplicates merged DCTL --every-landing KISH --reference "damier variants"
run pdn --help
has_words "pdn --help" check convert --variant --to "pdn, fen or json" docs/json.md \
    "summary" "FILE - is standard input"
run bench --help
has_words "bench --help" "bench perft" "bench search" --variant --depth --depth-delta --hash
run variants --help
has_words "variants --help" --markdown
run openings --help
has_words "openings --help" --variant --count --plies --seed --tries --results --game-nodes \
    --band "25-75" "White scores" stderr

# Each option a help names is one the command takes: never "unknown
# option" (a value that is wrong on purpose keeps anything from running).
for spec in "moves" "perft" "pdn check" "pdn convert" "bench perft" "bench search" "variants" \
    "openings"; do
    set -- $spec
    case $1 in pdn) helpcmd=pdn ;; *) helpcmd=$1 ;; esac
    run $helpcmd --help
    grep -o -- '--[a-z][a-z-]*' "$tmp/out" | grep -v -- '--help' | sort -u >"$tmp/options"
    case $spec in
    "pdn check") grep -v -- '--to' "$tmp/options" >"$tmp/o2" && mv "$tmp/o2" "$tmp/options" ;;
    "bench perft") grep -v -- '--depth-delta\|--hash' "$tmp/options" >"$tmp/o2" && mv "$tmp/o2" "$tmp/options" ;;
    "bench search") grep -x -- '--depth-delta\|--hash' "$tmp/options" >"$tmp/o2" && mv "$tmp/o2" "$tmp/options" ;;
    esac
    [ -s "$tmp/options" ] || fail "$spec --help names no option"
    while read -r option; do
        run $spec "$option" nosuch-value
        grep -q "unknown option" "$tmp/err" && fail "damier $spec: '$option' is in the help but unknown"
    done <"$tmp/options"
done

# --version and version: one line, the version the Makefile defines.
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
[ -n "$version" ] || fail "no VERSION in the Makefile"
run --version
[ "$rc" -eq 0 ] || fail "damier --version: exit $rc"
[ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "damier --version: not one line: $(cat "$tmp/out")"
grep -qE "^damier $version( \(git [^)]+\))?\$" "$tmp/out" ||
    fail "damier --version: '$(cat "$tmp/out")' is not version $version"
cp "$tmp/out" "$tmp/version"
run version
[ "$rc" -eq 0 ] || fail "damier version: exit $rc"
cmp -s "$tmp/out" "$tmp/version" || fail "damier version and --version differ"

finish
