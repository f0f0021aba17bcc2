#!/bin/sh
# damier pdn check and convert on the sample files of tests/pdn: one line a
# game, errors with their line and reason, exit codes, and PDN written by
# convert read back by check with the same move counts.
set -u
status=0
fail() {
    echo "FAIL: $*"
    status=1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check: every game ok, exit 0.
"$DAMIER_BIN" pdn check tests/pdn/lidraughts.pdn tests/pdn/latin1.pdn >"$tmp/ok" ||
    fail "check of good files exits $?"
cat >"$tmp/want" <<'EOF'
tests/pdn/lidraughts.pdn:game 1 (anon1 - anon2): ok, 18 moves
tests/pdn/lidraughts.pdn:game 2 (Casual Frysk! game): ok, 8 moves
tests/pdn/lidraughts.pdn:game 3 (Casual Russian game): ok, 6 moves
tests/pdn/lidraughts.pdn:game 4 (Standard game from a position): ok, 3 moves
tests/pdn/latin1.pdn:game 1 (Müller, Jürgen - François): ok, 4 moves
EOF
diff -u "$tmp/want" "$tmp/ok" || fail "check output"

# check: the bad games named with line and reason, the good ones still read,
# exit 1.
"$DAMIER_BIN" pdn check tests/pdn/broken.pdn >"$tmp/broken"
[ $? -eq 1 ] || fail "check of broken.pdn does not exit 1"
grep -qxF "tests/pdn/broken.pdn:game 7 (Broken 7: illegal move): line 24: at 2.: move '28-22' is illegal: a capture is compulsory (28x19)" "$tmp/broken" ||
    fail "the illegal move of game 7"
grep -qxF "tests/pdn/broken.pdn:game 11 (Broken 11: comment never closed): line 38: comment '{' opened on line 38 is never closed" "$tmp/broken" ||
    fail "the unclosed comment of game 11"
[ "$(grep -c ': ok, ' "$tmp/broken")" -eq 3 ] || fail "broken.pdn: not 3 good games"
[ "$(wc -l <"$tmp/broken")" -eq 12 ] || fail "broken.pdn: not 12 lines"

# Without tags the variant is guessed, and check says so; --variant decides.
printf '1. c3-d4 f6-g5 2. d4-c5 b6xd4 3. e3:c5 *\n' >"$tmp/russian.pdn"
"$DAMIER_BIN" pdn check "$tmp/russian.pdn" | grep -q ': ok, 5 moves (russian, guessed)$' ||
    fail "guess russian"
"$DAMIER_BIN" pdn check --variant brazilian "$tmp/russian.pdn" | grep -q ': ok, 5 moves$' ||
    fail "--variant brazilian"

# convert --to pdn, then check reads it back from stdin with the same counts.
"$DAMIER_BIN" pdn convert --to pdn tests/pdn/odd.pdn tests/pdn/cp1251.pdn >"$tmp/out.pdn" ||
    fail "convert --to pdn exits $?"
"$DAMIER_BIN" pdn check - <"$tmp/out.pdn" | sed 's/ (international, guessed)$//' >"$tmp/back"
cat >"$tmp/want" <<'EOF'
-:game 1 (A "quoted" name \ too - Bare "quotes" inside): ok, 9 moves
-:game 2 (Odd but readable 2): ok, 2 moves
-:game 3: ok, 4 moves
-:game 4 (Иванов И. - Петров П.): ok, 16 moves
EOF
diff -u "$tmp/want" "$tmp/back" || fail "convert --to pdn read back"
grep -qxF '[GameType "25,W,8,8,A0,0"]' "$tmp/out.pdn" || fail "GameType of the Russian game"
if awk '!/^\[/ && length($0) > 80 { bad = 1 } END { exit !bad }' "$tmp/out.pdn"; then
    fail "a movetext line longer than 80 characters"
fi

# convert --to fen: the final position of each game.
"$DAMIER_BIN" pdn convert --to fen tests/pdn/lidraughts.pdn >"$tmp/fen"
cat >"$tmp/want" <<'EOF'
W:W34-36,39-41,43-47,49,50:B1-6,8-10,13-15,20,22
W:W40,41,43,47,49:B4,6-8,10
W:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,e3,h6:Ba3,d6,f6,a7,c7,e7,g7,b8,d8,f8,h8
B:W11,33:B
EOF
diff -u "$tmp/want" "$tmp/fen" || fail "convert --to fen"

# convert --to json: one object a line.
"$DAMIER_BIN" pdn convert --to json tests/pdn/lidraughts.pdn >"$tmp/json"
[ "$(wc -l <"$tmp/json")" -eq 4 ] || fail "convert --to json: not 4 lines"
head -1 "$tmp/json" | grep -q '^{"game":1,"variant":"frisian","guessed":false,"tags":{"Event":"Casual Frisian game",' ||
    fail "json game 1"
head -1 "$tmp/json" | grep -q '"moves":\[{"notation":"32-28","from":"32","to":"28","captures":\[\],"comment":"\[%clock w0:05:00 B0:05:00\]"}' ||
    fail "json moves"
sed -n 3p "$tmp/json" | grep -q '{"notation":"f4:h6","from":"f4","to":"h6","captures":\["g5"\]}' ||
    fail "json captures"

# Bad usage exits 2, an unreadable file 1.
"$DAMIER_BIN" pdn convert tests/pdn/odd.pdn >/dev/null 2>&1
[ $? -eq 2 ] || fail "convert without --to does not exit 2"
"$DAMIER_BIN" pdn frobnicate >/dev/null 2>&1
[ $? -eq 2 ] || fail "an unknown pdn command does not exit 2"
"$DAMIER_BIN" pdn check "$tmp/no such file.pdn" >/dev/null 2>&1
[ $? -eq 1 ] || fail "a missing file does not exit 1"

[ $status -eq 0 ] && echo "pdn check and convert work"
exit $status
