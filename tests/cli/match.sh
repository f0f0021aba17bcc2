#!/bin/sh
# SPDX-License-Identifier: MIT
# match.sh - damier match: a few games at fixed nodes between two Damier
# levels and against Damier behind Hub, the tally and the Elo line, the
# colour-reversed pairs' line, a resumed match, the SPRT line, and bad
# input refused.
. "$(dirname "$0")/common.inc"

# tally FILE: "W D L" of the result line.
tally() {
    sed -n 's/^result: .*: \([0-9]*\)-\([0-9]*\)-\([0-9]*\) (W-D-L).*/\1 \2 \3/p' "$1"
}

run match --engine 'damier level=8' --engine 'damier level=5' --variant english --games 4 \
    --nodes 3000
[ "$rc" -eq 0 ] || fail "match level 8 v 5: exit $rc: $(cat "$tmp/err" "$tmp/out")"
[ "$(grep -c '^game [1-4] (opening [12], Damier level [85] White): ' "$tmp/out")" -eq 4 ] ||
    fail "match: not 4 game lines: $(cat "$tmp/out")"
set -- $(tally "$tmp/out")
[ $(($1 + $2 + $3)) -eq 4 ] || fail "match: the tally does not add up to 4: $(cat "$tmp/out")"
grep -q '^result: Damier level 8 vs Damier level 5: .* score [0-9.]*%, Elo ' "$tmp/out" ||
    fail "match: no result line with score and Elo: $(cat "$tmp/out")"

grep -q '^match: note: ' "$tmp/out" && fail "match: a repeat note with openings to spare: $(cat "$tmp/out")"
# The two pairs (games 1-2, 3-4) by the first player's points in each: they
# add up to the games' tally.
pairs=$(sed -n 's/^pairs: 2, by the first player.s points 0-0.5-1-1.5-2: \([0-9-]*\), score [0-9.]*%, Elo .*/\1/p' "$tmp/out")
[ -n "$pairs" ] || fail "match: no pairs line: $(cat "$tmp/out")"
set -- $(echo "$pairs" | tr - ' ')
[ $(($1 + $2 + $3 + $4 + $5)) -eq 2 ] || fail "match: pairs $pairs are not 2"
set -- $(tally "$tmp/out") $(echo "$pairs" | tr - ' ')
[ $(($1 * 2 + $2)) -eq $(($5 + 2 * $6 + 3 * $7 + 4 * $8)) ] ||
    fail "match: the pairs' points $pairs differ from the games' tally $1-$2-$3"

# More games than two per opening on a node budget: the repeats are named.
printf '11-15\n' >"$tmp/one.txt"
run match --engine 'damier level=8' --engine 'damier level=5' --variant english --games 4 \
    --nodes 500 --openings "$tmp/one.txt"
[ "$rc" -eq 0 ] || fail "match on one opening: exit $rc: $(cat "$tmp/err" "$tmp/out")"
grep -q '^match: note: 4 games from 1 openings: past game 2 they repeat' "$tmp/out" ||
    fail "match: repeated openings not noted: $(cat "$tmp/out")"

# Against a Hub engine (this very build), with the games written to PDN.
run match --engine 'damier name=inside' --engine "hub:$DAMIER_BIN hub" --games 2 --nodes 2000 \
    --variant russian --pdn "$tmp/games.pdn" --sprt 0,50
[ "$rc" -eq 0 ] || fail "match against hub: exit $rc: $(cat "$tmp/err" "$tmp/out")"
[ "$(grep -c '^\[Round "[12]"\]' "$tmp/games.pdn")" -eq 2 ] ||
    fail "match: the PDN file does not hold games 1 and 2"
grep -q "^\[White \"inside\"\]" "$tmp/games.pdn" || fail "match: the first player is not White in game 1"
grep -q ', LLR -\{0,1\}[0-9.]* \[-2.94, 2.94\]$' "$tmp/out" || fail "match: no SPRT ratio: $(cat "$tmp/out")"
grep -q '^sprt: ' "$tmp/out" || fail "match: no sprt verdict line"

# The same file again with more games: the first two are not played again.
run match --engine 'damier name=inside' --engine "hub:$DAMIER_BIN hub" --games 4 --nodes 2000 \
    --variant russian --pdn "$tmp/games.pdn"
[ "$rc" -eq 0 ] || fail "resumed match: exit $rc"
grep -q '^resumed 2 games from ' "$tmp/out" || fail "match: did not resume: $(cat "$tmp/out")"
[ "$(grep -c '^game ' "$tmp/out")" -eq 2 ] || fail "resumed match: not 2 new games"
[ "$(grep -c '^\[Round ' "$tmp/games.pdn")" -eq 4 ] || fail "resumed match: not 4 games in the file"
set -- $(tally "$tmp/out")
[ $(($1 + $2 + $3)) -eq 4 ] || fail "resumed match: the tally does not count all 4 games"

# A Hub engine whose answer comes after its deadline loses that game, and
# its late answer is not read as its move in the next one: the runner stops
# it and drains the answer (or starts it again).  The proxy holds the first
# answer of damier hub 6.5 s, past the deadline (0.1 s and 5 s of grace).
cat >"$tmp/late.sh" <<EOF
#!/bin/sh
"$DAMIER_BIN" hub | while IFS= read -r line; do
    case "\$line" in done*)
        if [ ! -e "$tmp/late.held" ]; then : >"$tmp/late.held"; sleep 6.5; fi ;;
    esac
    printf '%s\n' "\$line"
done
EOF
chmod +x "$tmp/late.sh"
run match --engine 'damier level=2' --engine "hub:$tmp/late.sh" --variant english --games 2 \
    --tc 0.1/move --max-plies 10
[ "$rc" -eq 0 ] || fail "match against a late engine: exit $rc: $(cat "$tmp/err" "$tmp/out")"
grep -q '^game 1 .*loses: no move from .* in time' "$tmp/out" ||
    fail "the late engine did not lose game 1 on time: $(cat "$tmp/out")"
grep -q '^game 2 .*adjudicated a draw after 10 plies' "$tmp/out" ||
    fail "game 2 after a late answer was not played out: $(cat "$tmp/out")"

# Against a DXP engine: a Damier waiting for games at an address.
"$DAMIER_BIN" dxp --listen 127.0.0.1:0 --level 2 2>"$tmp/dxp.log" &
follower=$!
i=0
while ! grep -q 'listening on' "$tmp/dxp.log" && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
port=$(sed -n 's/.*listening on 127.0.0.1:\([0-9]*\)$/\1/p' "$tmp/dxp.log")
run match --engine 'damier level=2' --engine "dxp:127.0.0.1:$port" --games 2 --tc 1
[ "$rc" -eq 0 ] || fail "match against dxp: exit $rc: $(cat "$tmp/err" "$tmp/out")"
set -- $(tally "$tmp/out")
[ $(($1 + $2 + $3)) -eq 2 ] || fail "match against dxp: not 2 games: $(cat "$tmp/out")"
wait $follower
[ "$(grep -c 'game [12]: over: ' "$tmp/dxp.log")" -eq 2 ] ||
    fail "the DXP engine did not see 2 games end: $(cat "$tmp/dxp.log")"
run match --engine 'damier level=2' --engine "dxp:127.0.0.1:$port" --nodes 100
[ "$rc" -eq 2 ] || fail "match against dxp by nodes: exit $rc, expected 2"

# Bad input.
run match --engine 'chess' --engine 'damier level=1'
[ "$rc" -eq 2 ] || fail "match with a bad engine: exit $rc, expected 2"
grep -q "expected 'damier" "$tmp/err" || fail "match with a bad engine: $(cat "$tmp/err")"
run match --engine 'damier level=1' --engine 'damier level=2' --openings "$tmp/none.txt"
[ "$rc" -eq 1 ] || fail "match with no opening file: exit $rc, expected 1"
grep -q 'none.txt: No such file or directory' "$tmp/out" || fail "no opening file: $(cat "$tmp/out")"
printf '32-28 99-1\n' >"$tmp/bad.txt"
run match --engine 'damier level=1' --engine 'damier level=2' --openings "$tmp/bad.txt"
[ "$rc" -eq 1 ] || fail "match with a bad opening: exit $rc, expected 1"
grep -q 'bad.txt:1: ' "$tmp/out" || fail "bad opening not named by line: $(cat "$tmp/out")"
run match --engine 'damier level=1' --engine 'hub:/nonexistent/engine' --nodes 100
[ "$rc" -eq 1 ] || fail "match with an engine that does not start: exit $rc, expected 1"
grep -q 'did not start as a Hub engine' "$tmp/out" || fail "dead engine: $(cat "$tmp/out")"

finish
