#!/bin/sh
# SPDX-License-Identifier: MIT
# levels.sh - calibrates the computer's levels against each other with
# damier match: for each variant and each pair HIGH:LOW, GAMES games of
# level HIGH against level LOW (colour-reversed pairs from the variant's
# opening set, each level with its own limits), and one Markdown row of
# the result, with the Elo of HIGH over LOW and its 95% interval.
#
#   tools/levels.sh [--games N] [--concurrency K] [--variants "V ..."]
#                   [--pairs "2:1 3:2 ..."] [--tc T] [--damier BIN]
#
# Defaults: 20 games, 2 at once, every variant, the adjacent pairs from 1 to
# 6 (the node-limited levels; 9 and 10 think for seconds a move), no clock
# (--tc T: a clock as damier match --tc, within which level 10 takes its
# share).  Rows go to stdout as each match ends; the matches' own lines to
# stderr.
set -eu

games=20
concurrency=2
variants=""
pairs="2:1 3:2 4:3 5:4 6:5"
tc=""
bin=build/damier

while [ $# -gt 0 ]; do
    case "$1" in
    --games) games=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --variants) variants=$2; shift 2 ;;
    --pairs) pairs=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --damier) bin=$2; shift 2 ;;
    -h | --help) sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "levels.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[ -n "$variants" ] || variants=$("$bin" variants | awk 'NR > 1 && $1 != "" {print $1}')

echo "| variant | levels | games | W-D-L | score | Elo [95%] |"
echo "|---|---|---|---|---|---|"
for v in $variants; do
    for pair in $pairs; do
        high=${pair%%:*}
        low=${pair##*:}
        result=$("$bin" match --engine "damier level=$high" --engine "damier level=$low" \
            --variant "$v" --games "$games" --concurrency "$concurrency" ${tc:+--tc "$tc"} |
            tee /dev/stderr |
            sed -n 's/^result: [^:]*: //p')
        # "12-3-5 (W-D-L), score 67.5%, Elo +127 [+40, +230]"
        wdl=${result%% *}
        score=$(echo "$result" | sed -n 's/.*score \([0-9.]*%\).*/\1/p')
        elo=$(echo "$result" | sed -n 's/.*Elo \(.*\)$/\1/p')
        echo "| $v | $high v $low | $games | $wdl | $score | $elo |"
    done
done
